// Retry timing, pure: full-jitter exponential backoff and Retry-After parsing (both RFC 9110 forms).

/** Backoff bounds. */
export interface BackoffOptions {
  /** Delay ceiling of the first retry, in ms. */
  baseMs: number;
  /** Upper bound of any single delay, in ms. */
  capMs: number;
}

/**
 * Full jitter (AWS "Exponential backoff and jitter"): uniform in [0, min(cap, base * 2^(attempt-1))).
 * `attempt` is 1 for the first retry. `random` returns a number in [0, 1).
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 52));
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** exponent);
  return Math.floor(Math.max(0, Math.min(random(), 1)) * ceiling);
}

/** What decides the wait before a body's next try. */
export interface RetryWaitOptions {
  backoff: BackoffOptions;
  /** Retry-After is honoured up to this. */
  maxRetryAfterMs: number;
}

/**
 * The wait before the next try after failed attempt `attempt`: the full-jitter backoff, or longer when the
 * server asked for more (Retry-After `afterMs`, capped at maxRetryAfterMs). `retryAfterMs` is that capped
 * ask (undefined when the server named none): it pauses every body, not only this one.
 */
export function retryWait(
  attempt: number,
  afterMs: number | undefined,
  options: RetryWaitOptions,
  random: () => number,
): { delayMs: number; retryAfterMs: number | undefined } {
  const delayMs = backoffDelay(attempt, options.backoff, random);
  if (afterMs === undefined) return { delayMs, retryAfterMs: undefined };
  const retryAfterMs = Math.min(afterMs, options.maxRetryAfterMs);
  return { delayMs: Math.max(delayMs, retryAfterMs), retryAfterMs };
}

/**
 * The longest wait between two tries: 30 s, or a tenth of the retry time budget when that is shorter, so a
 * short budget is still probed about ten times rather than spent in one or two long sleeps.
 */
export function backoffCap(maxRetryTimeMs: number): number {
  return Math.max(1, Math.min(30_000, Math.floor(maxRetryTimeMs / 10)));
}

const secondsPattern = /^-?\d+(?:\.\d+)?$/;
// All three HTTP-date forms (IMF-fixdate, RFC 850, asctime) open with a day name; requiring it keeps
// Date.parse's leniency from reading garbage such as "1" as a year.
const httpDatePattern = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /i;

/**
 * Retry-After as milliseconds to wait from `nowMs`: delay-seconds or an HTTP-date. Past dates and
 * negative numbers give 0; anything unparseable gives undefined.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (secondsPattern.test(text)) return Math.max(0, Math.round(Number(text) * 1000));
  if (!httpDatePattern.test(text)) return undefined;
  // asctime dates carry no zone but are GMT by definition; V8 would read them as local time.
  const at = Date.parse(/ GMT$/i.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
