// Which failed requests are setup errors (exit 2 at once) rather than transient (retried): certificate
// codes however deeply undici wraps them, and a proxy's refusals. Real handshakes: test/e2e/network.test.ts.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { TransportError } from '../../src/transport/client.js';
import { setupError, tlsProblem } from '../../src/transport/setup-errors.js';

const url = new URL('https://crm.example.com:8443/api/revenues');
const coded = (code: string, cause?: unknown) => Object.assign(new Error(code, { cause }), { code });

describe('tlsProblem', () => {
  it('names the certificate problem, also under wrapping errors', () => {
    expect(tlsProblem(coded('SELF_SIGNED_CERT_IN_CHAIN'))?.what).toContain('self-signed');
    expect(tlsProblem(coded('UND_ERR_PRX_TLS', coded('ERR_TLS_CERT_ALTNAME_INVALID')))?.what).toContain(
      'hostname mismatch',
    );
    expect(tlsProblem(coded('ECONNRESET'))).toBeUndefined();
    expect(tlsProblem(undefined)).toBeUndefined();
  });
});

describe('setupError', () => {
  it('a trust problem hints at NODE_EXTRA_CA_CERTS; an expired certificate says it cannot help', () => {
    const trust = setupError(
      new TransportError('DEPTH_ZERO_SELF_SIGNED_CERT', { cause: coded('DEPTH_ZERO_SELF_SIGNED_CERT') }),
      url,
      undefined,
    );
    expect(trust).toBeInstanceOf(ConfigError);
    expect(trust?.message).toBe(
      'TLS with crm.example.com:8443 failed: the certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT); the run stopped, nothing was retried',
    );
    expect(trust?.hint).toContain('NODE_EXTRA_CA_CERTS=/path/to/ca.pem');
    const expired = setupError(
      new TransportError('CERT_HAS_EXPIRED', { cause: coded('CERT_HAS_EXPIRED') }),
      url,
      undefined,
    );
    expect(expired?.hint).toContain('NODE_EXTRA_CA_CERTS only adds trusted CAs');
  });

  it('a proxy 407 or 403 is a setup error naming the masked proxy; 502 and network errors are not', () => {
    const proxy = new URL('http://ops:pw@proxy.corp:3128');
    const auth = setupError(new TransportError('PROXY_407'), url, proxy);
    expect(auth?.message).toContain('the proxy http://***:***@proxy.corp:3128 asks for credentials');
    expect(auth?.message).not.toContain('pw');
    expect(setupError(new TransportError('PROXY_403'), url, proxy)?.message).toContain(
      'refused to connect to crm.example.com:8443 (HTTP 403)',
    );
    expect(setupError(new TransportError('PROXY_502'), url, proxy)).toBeUndefined();
    expect(setupError(new TransportError('ECONNREFUSED'), url, proxy)).toBeUndefined();
  });
});
