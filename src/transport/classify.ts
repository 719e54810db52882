// What a response status means for a batch, in one pure table. The interface document gives no status
// semantics (seed interface §7), so every decision about them lives here.
import { describeBody, isForeignBody } from './answer-body.js';
import { parseRetryAfter } from './backoff.js';
import type { ResponseHeaders } from './response.js';

export type { ResponseHeaders } from './response.js';

export type Outcome =
  /** A 2xx with a JSON or empty body: the batch is stored. */
  | { kind: 'delivered' }
  /**
   * A 2xx whose body is neither JSON nor empty (a captive portal's login page): no proof the batch was
   * stored; the run stops and the records stay pending. `answer` describes the body (describeBody).
   */
  | { kind: 'unproven'; answer: string }
  /**
   * A refusal (400, 422, other 4xx, 501, 505) whose body is not JSON: a firewall or proxy speaking, not
   * the CRM judging the records, so none is marked rejected.
   */
  | { kind: 'foreign'; answer: string }
  /** 401/403: the key was refused; the run stops at once. */
  | { kind: 'auth' }
  /** 400/422: some element is bad; bisect to find it. */
  | { kind: 'split-rejected' }
  /** 413: the body is too large; halve it. */
  | { kind: 'too-large' }
  /** Transient: resend the same body (same key). `throttle` slows the whole run down. */
  | { kind: 'retry'; throttle: boolean; afterMs: number | undefined }
  /** Permanent for this body: no retry, no split. */
  | { kind: 'rejected'; message: string }
  /** 3xx, 404, 405, 410: the URL is wrong, not the records; the run stops (records stay pending). */
  | { kind: 'endpoint'; message: string };

const throttleStatuses = new Set([429, 503]);
// 409 is the IETF idempotency draft's "a request with this key is still in progress": resend unchanged.
const retryStatuses = new Set([408, 409, 425, 429]);

function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Classify one response; `nowMs` resolves an HTTP-date Retry-After; `text` is the (bounded) body read. */
export function classify(
  status: number,
  headers: ResponseHeaders,
  nowMs: number = Date.now(),
  text = '',
): Outcome {
  const foreign = isForeignBody(headers, text);
  if (status >= 200 && status < 300) {
    return foreign ? { kind: 'unproven', answer: describeBody(headers, text) } : { kind: 'delivered' };
  }
  if (status === 401 || status === 403) return { kind: 'auth' };
  if (foreign && (status === 400 || status === 422)) {
    return { kind: 'foreign', answer: describeBody(headers, text) };
  }
  if (status === 400 || status === 422) return { kind: 'split-rejected' };
  if (status === 413) return { kind: 'too-large' };
  const transient =
    retryStatuses.has(status) || (status >= 500 && status < 600 && status !== 501 && status !== 505);
  if (transient) {
    return {
      kind: 'retry',
      throttle: throttleStatuses.has(status),
      afterMs: parseRetryAfter(headerValue(headers, 'retry-after'), nowMs),
    };
  }
  if (status >= 300 && status < 400) {
    const location = headerValue(headers, 'location');
    return {
      kind: 'endpoint',
      message: `HTTP ${status}: redirect to ${location ?? '(no Location)'} not followed; check the base URL`,
    };
  }
  // A proxy in front of a plain-http base URL asking for its login: a setting to fix, not the records.
  if (status === 407) {
    return {
      kind: 'endpoint',
      message: 'HTTP 407: the proxy asks for a login (user:password@ in the proxy URL)',
    };
  }
  // Rejecting every record for a wrong URL would mark them all `rejected`, which no later run resends.
  if (status === 404 || status === 405 || status === 410) {
    return {
      kind: 'endpoint',
      message: `HTTP ${status}: no revenues endpoint at this URL; check the base URL`,
    };
  }
  if (foreign) return { kind: 'foreign', answer: describeBody(headers, text) };
  return { kind: 'rejected', message: `HTTP ${status}` };
}

const maxMessageLength = 500;

function describeDetail(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail;
  if (detail && typeof detail === 'object') {
    const { message, error, msg } = detail as Record<string, unknown>;
    const text = [message, error, msg].find((value) => typeof value === 'string');
    return typeof text === 'string' ? text : JSON.stringify(detail);
  }
  return undefined;
}

/**
 * A short human message from an error body whose shape is unknown: the usual JSON fields (`message`,
 * `error`, `details`/`errors` lists) when present, else the trimmed text. Never longer than 500 chars.
 */
export function serverMessage(status: number, text: string): string {
  const trimmed = text.trim();
  let message = trimmed;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (parsed && typeof parsed === 'object') {
      const body = parsed as Record<string, unknown>;
      const head = describeDetail(body.message ?? body.error ?? body.title ?? body.detail);
      const list = [body.details, body.errors].find(Array.isArray) as unknown[] | undefined;
      const details = list?.map(describeDetail).filter((item) => item !== undefined);
      const parts = [head, details?.length ? details.join('; ') : undefined].filter(Boolean);
      if (parts.length > 0) message = parts.join(': ');
    }
  } catch {
    // Not JSON: the raw text is the message.
  }
  message = message.replace(/\s+/g, ' ');
  if (message.length > maxMessageLength) message = `${message.slice(0, maxMessageLength - 1)}…`;
  return message ? `HTTP ${status}: ${message}` : `HTTP ${status}`;
}
