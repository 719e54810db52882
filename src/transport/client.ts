// The one network call: POST a JSON body to the revenues endpoint over an undici dispatcher, with a
// bounded read of the answer. No retry or decision here (classify.ts, deliver.ts make those).
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { UsageError } from '../errors.js';
import { quote } from '../quote.js';
import { urlProblem } from '../url-problem.js';
import { isLoopback } from './proxy.js';
import { maxResponseBytes, type ResponseHeaders } from './response.js';
import { Pool, ProxyAgent } from './undici-parts.js';

export { maxResponseBytes } from './response.js';

const maxDrainBytes = 1024 * 1024;

/** A request that got no HTTP answer: network error, time-out or cancellation. Never holds the key. */
export class TransportError extends Error {
  /** Short cause code: ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET, ETIMEDOUT, ABORTED... */
  readonly code: string;

  constructor(code: string, options: { cause?: unknown } = {}) {
    super(`no response: ${code}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TransportError';
    this.code = code;
  }
}

export interface PostRequest {
  /** The full endpoint URL (see checkUrl). */
  url: URL;
  apiKey: string;
  /** The JSON array, as its UTF-8 bytes (body-bytes.ts) or as text. */
  body: string | Uint8Array;
  idempotencyKey: string;
  userAgent: string;
  /** Whole-request time-out, in ms. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface PostResponse {
  status: number;
  headers: ResponseHeaders;
  /** The first 64 KiB of the response body, as UTF-8. */
  text: string;
  durationMs: number;
}

function causeCode(error: unknown, signal: AbortSignal | undefined, timedOut: AbortSignal): string {
  if (timedOut.aborted) return 'ETIMEDOUT';
  if (signal?.aborted) return 'ABORTED';
  const outer = error as { code?: unknown; message?: unknown; cause?: { code?: unknown } } | null;
  // A proxy's answer other than 200 to CONNECT, or 407 to a forwarded request (undici's wording).
  const proxyStatus = /^Proxy (?:response \((\d{3})\)|Authentication Required \((407)\))/.exec(
    typeof outer?.message === 'string' ? outer.message : '',
  );
  if (proxyStatus) return `PROXY_${proxyStatus[1] ?? proxyStatus[2]}`;
  const inner = outer?.cause?.code;
  // undici reports a peer reset as UND_ERR_SOCKET with the OS code on the cause: the OS code says more.
  if (typeof inner === 'string' && /^E[A-Z]+$/.test(inner)) return inner;
  if (typeof outer?.code === 'string') return outer.code;
  return error instanceof Error ? error.name : 'UNKNOWN';
}

async function readBounded(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let seen = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    if (kept < maxResponseBytes) {
      const part = buffer.subarray(0, maxResponseBytes - kept);
      chunks.push(part);
      kept += part.length;
    }
    seen += buffer.length;
    // Past the kept part the body is drained and dropped so the connection can be reused; a body that
    // keeps going beyond that is cut (leaving the loop destroys the stream and its socket).
    if (seen >= maxResponseBytes + maxDrainBytes) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** POST one batch. Resolves with any HTTP status; rejects with TransportError when there is none. */
export async function postBatch(dispatcher: Dispatcher, request: PostRequest): Promise<PostResponse> {
  const started = performance.now();
  const timedOut = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timedOut]) : timedOut;
  try {
    const response = await dispatcher.request({
      origin: request.url.origin,
      path: `${request.url.pathname}${request.url.search}`,
      method: 'POST',
      headers: {
        'x-api-key': request.apiKey,
        'content-type': 'application/json',
        'user-agent': request.userAgent,
        'idempotency-key': request.idempotencyKey,
      },
      body: request.body,
      signal,
      headersTimeout: request.timeoutMs,
      bodyTimeout: request.timeoutMs,
    });
    const text = await readBounded(response.body);
    return {
      status: response.statusCode,
      headers: response.headers,
      text,
      durationMs: performance.now() - started,
    };
  } catch (error) {
    throw new TransportError(causeCode(error, request.signal, timedOut), { cause: error });
  }
}

/** A dispatcher the deliverer owns and closes. */
export type OwnedDispatcher = Dispatcher & { readonly closed: boolean; readonly destroyed: boolean };

/**
 * Keep-alive connections to one origin, directly or through `proxy`: an https target through a CONNECT
 * tunnel, an http one as absolute-form requests to the proxy (as curl does; many proxies tunnel only 443).
 */
export function createPool(
  origin: string | URL,
  options: { connections: number; proxy?: URL | undefined },
): OwnedDispatcher {
  const pool = { connections: options.connections, keepAliveTimeout: 10_000, pipelining: 1 };
  if (!options.proxy) return new Pool(origin, pool);
  const tunnel = new URL(origin).protocol === 'https:';
  return new ProxyAgent({ ...pool, uri: options.proxy.href, proxyTunnel: tunnel }) as OwnedDispatcher;
}

const endpointPath = 'api/revenues';

/**
 * A base URL quoted for a message (escaped by `quote`): a `user:password@` part, a query string and the
 * API key itself, should it have been pasted there, are masked.
 */
function quoteBaseUrl(text: string, apiKey: string | undefined): string {
  let masked = text.replace(/^([^/?#@]*\/\/)?[^/?#]*@/, '$1***@').replace(/\?.*$/s, '?***');
  if (apiKey) masked = masked.split(apiKey).join('***');
  return quote(masked);
}

/**
 * `{baseUrl}/api/revenues` as a URL (a path prefix in baseUrl is kept, a trailing slash is harmless).
 * Plain http is allowed only to a loopback host unless `allowHttp`: the key would travel in clear text.
 */
export function checkUrl(baseUrl: string, allowHttp: boolean, apiKey?: string): URL {
  const text = baseUrl.trim();
  const shown = () => quoteBaseUrl(text, apiKey);
  const problem = urlProblem(text);
  if (problem !== undefined) {
    throw new UsageError(`the base URL ${shown()} is not a URL: ${problem}`, {
      hint: 'example: https://crm.example.com (--base-url, REVIMPORT_BASE_URL or baseUrl in the config)',
    });
  }
  const base = new URL(text);
  if (base.username || base.password) {
    // The URL could hold a secret: it is deliberately left out of the message.
    throw new UsageError('the base URL must not contain credentials', {
      hint: 'the API key is sent in the X-API-KEY header; set it with REVIMPORT_API_KEY or apiKeyFile',
    });
  }
  if (base.search) {
    throw new UsageError('the base URL must not contain a query string', {
      hint: 'the API key is sent in the X-API-KEY header, never in the URL',
    });
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') {
    throw new UsageError(`the base URL ${shown()} must use https (got ${base.protocol.replace(/:$/, '')})`, {
      hint: 'example: https://crm.example.com',
    });
  }
  if (base.protocol === 'http:' && !allowHttp && !isLoopback(base.hostname)) {
    throw new UsageError(`refusing to send the API key over plain http to ${base.host}`, {
      hint: 'use https, or pass --allow-http if the network is trusted',
    });
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = new URL(base.origin);
  url.pathname = `${prefix}/${endpointPath}`;
  return url;
}
