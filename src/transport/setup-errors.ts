// Network failures that no retry can cure because the setup is wrong: a certificate this machine does
// not accept, a server that does not speak TLS, a proxy refusing to carry the request. They stop the
// run at the first request as configuration errors (exit 2), naming the cause and what to do.
import { ConfigError } from '../errors.js';
import type { TransportError } from './client.js';
import { maskProxy } from './proxy.js';

const privateCaHint = (host: string) =>
  `if ${host} uses a private or company CA, give Node its certificate (PEM) when revimport starts: ` +
  'NODE_EXTRA_CA_CERTS=/path/to/ca.pem revimport ... (Node reads it at start-up only); see README "Proxies and private CAs"';
const serverCertHint = (host: string) =>
  `the certificate of ${host} must be fixed on the server (or the base URL must name the host the certificate is for); ` +
  'NODE_EXTRA_CA_CERTS only adds trusted CAs, it cannot fix this';

/** OpenSSL / Node verification codes: what they mean in words, and which hint applies. */
const certificateProblems: Record<string, { what: string; trust: boolean }> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: { what: 'the certificate is self-signed', trust: true },
  SELF_SIGNED_CERT_IN_CHAIN: {
    what: 'the certificate chain ends in a self-signed CA this machine does not trust',
    trust: true,
  },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: {
    what: 'unknown issuer: the certificate was issued by a CA this machine does not trust',
    trust: true,
  },
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: {
    what: 'unknown issuer: the certificate was issued by a CA this machine does not trust',
    trust: true,
  },
  UNABLE_TO_GET_ISSUER_CERT: { what: "the certificate's issuer is unknown", trust: true },
  CERT_UNTRUSTED: { what: 'the certificate is not trusted', trust: true },
  INVALID_CA: { what: 'a CA certificate in the chain is invalid', trust: true },
  CERT_HAS_EXPIRED: { what: 'the certificate has expired', trust: false },
  CERT_NOT_YET_VALID: { what: 'the certificate is not valid yet (check the clock)', trust: false },
  ERR_TLS_CERT_ALTNAME_INVALID: {
    what: 'the certificate is for another host name (hostname mismatch)',
    trust: false,
  },
  HOSTNAME_MISMATCH: { what: 'the certificate is for another host name (hostname mismatch)', trust: false },
  CERT_REVOKED: { what: 'the certificate was revoked', trust: false },
  CERT_SIGNATURE_FAILURE: { what: "the certificate's signature is invalid", trust: false },
  CERT_REJECTED: { what: 'the certificate was rejected', trust: false },
  INVALID_PURPOSE: { what: 'the certificate is not for TLS servers', trust: false },
};

/** The error and its causes, outermost first (undici wraps TLS errors met through a proxy). */
function chain(error: unknown): { code?: unknown; message?: unknown }[] {
  const links: { code?: unknown; message?: unknown }[] = [];
  let current = error as { code?: unknown; message?: unknown; cause?: unknown } | null | undefined;
  while (current && typeof current === 'object' && links.length < 8) {
    links.push(current);
    current = current.cause as typeof current;
  }
  return links;
}

/** The TLS problem behind a failed request, as `{ code, what }`, if there is one. */
export function tlsProblem(error: unknown): { code: string; what: string; trust: boolean } | undefined {
  for (const link of chain(error)) {
    if (typeof link.code !== 'string') continue;
    const known = certificateProblems[link.code];
    if (known) return { code: link.code, ...known };
    if (link.code === 'ERR_SSL_WRONG_VERSION_NUMBER') {
      return { code: link.code, what: 'the server does not answer TLS (is it plain http?)', trust: false };
    }
  }
  return undefined;
}

/** A proxy's refusal of the tunnel or request: 407 (credentials) and other 4xx but 408/429. */
function proxyRefusal(error: TransportError): number | undefined {
  const status = /^PROXY_(\d{3})$/.exec(error.code)?.[1];
  if (status === undefined) return undefined;
  const code = Number(status);
  return code >= 400 && code < 500 && code !== 408 && code !== 429 ? code : undefined;
}

/**
 * The configuration error a failed request means, or undefined when it may be transient (retried).
 * `url` is the endpoint, `proxy` the proxy in use.
 */
export function setupError(error: TransportError, url: URL, proxy: URL | undefined): ConfigError | undefined {
  const tls = tlsProblem(error.cause);
  if (tls) {
    const wrongProtocol = tls.code === 'ERR_SSL_WRONG_VERSION_NUMBER';
    return new ConfigError(
      `TLS with ${url.host} failed: ${tls.what} (${tls.code}); the run stopped, nothing was retried`,
      {
        hint: wrongProtocol
          ? 'check the base URL: scheme (https/http) and port'
          : tls.trust
            ? privateCaHint(url.hostname)
            : serverCertHint(url.hostname),
      },
    );
  }
  const refused = proxyRefusal(error);
  if (refused !== undefined && proxy) {
    const label = maskProxy(proxy);
    return new ConfigError(
      refused === 407
        ? `the proxy ${label} asks for credentials it was not given or refused them (HTTP 407); the CRM was not reached, the run stopped`
        : `the proxy ${label} refused to connect to ${url.host} (HTTP ${refused}); the CRM was not reached, the run stopped`,
      {
        hint:
          refused === 407
            ? 'put the login in the proxy URL: http://user:password@proxy:port (--proxy, HTTPS_PROXY or the proxy key)'
            : `ask whoever runs the proxy to allow ${url.host}, or exempt it with NO_PROXY`,
      },
    );
  }
  return undefined;
}
