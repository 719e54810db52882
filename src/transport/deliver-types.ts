// The deliverer's public contract: options (with defaults), hooks and statistics.
import type { Dispatcher } from 'undici';
import type { ConversionRecord } from '../record/fields.js';

/** What the deliverer counts. Records are counted once, by their final outcome. */
export interface DeliveryStats {
  /** Distinct bodies formed by batching (splits not included). */
  batches: number;
  /** HTTP requests made, answered or not. */
  requests: number;
  /** Resends of a body after a transient failure. */
  retries: number;
  /** Bodies halved after 400/413/422. */
  splits: number;
  delivered: number;
  rejected: number;
  failed: number;
  abandoned: number;
}

export interface RequestInfo {
  /** The HTTP status, when there was one. */
  status?: number;
  /** The transport error code (ECONNRESET, ETIMEDOUT...), when there was no answer. */
  error?: string;
  durationMs: number;
  records: number;
  /** 1 for the first request of a body. */
  attempt: number;
}

export interface RetryInfo {
  /** The attempt that failed (1 = first request of the body). */
  attempt: number;
  delayMs: number;
  reason: string;
  /** The HTTP status that asked for the retry, when there was one. */
  status?: number;
  /** The wait the server asked for (Retry-After), capped at maxRetryAfterMs; undefined when it named none. */
  retryAfterMs?: number;
}

/**
 * Called synchronously, exactly once per item outcome (delivered, rejected, failed or abandoned).
 * A hook that throws stops the run: `close()` rejects with that error.
 */
export interface DeliveryHooks<T> {
  /**
   * Before the first request of every distinct body (splits included), not before retries. `json(i)` gives
   * the i-th record exactly as serialized in the body (decoded from its bytes when asked: a caller keeping
   * payloads need not serialize again); `body` is the body itself, the bytes the key was made of (a journal
   * stores their text, not the records joined again). A promise returned holds the request back until it
   * settles (a write on another thread).
   */
  beforeSend?(
    items: T[],
    idempotencyKey: string,
    json: (index: number) => string,
    body: Uint8Array,
  ): void | Promise<void>;
  onDelivered?(items: T[], info: { status: number; idempotencyKey: string }): void;
  /** Final: the server refused these records (after bisection for 400/422). */
  onRejected?(items: T[], info: { status: number; message: string }): void;
  /** Retries or the retry time budget ran out; the records may be resent later. */
  onFailed?(items: T[], info: { reason: string }): void;
  /** Never settled: abort(), a refused key, or a hook failure stopped the run first. */
  onAbandoned?(items: T[]): void;
  /** One call per HTTP request, for --verbose. */
  onRequest?(info: RequestInfo): void;
  onRetry?(info: RetryInfo): void;
}

export interface DeliverOptions<T extends { record: ConversionRecord }> {
  /** The endpoint, from checkUrl(). */
  url: URL;
  apiKey: string;
  /** Default: a keep-alive Pool of `concurrency` connections, owned (and closed) by the deliverer. */
  dispatcher?: Dispatcher;
  /** The proxy the default pool goes through (see proxy.ts); names it in setup errors. */
  proxy?: URL;
  /** Default `revimport`. */
  userAgent?: string;
  /** Per-request time-out, ms. Default 30_000. */
  timeoutMs?: number;
  /** Records per body. Default 500; shrinks after a 413. */
  batchSize?: number;
  /** Bytes per body. Default 1 MiB (a single larger record still goes alone). */
  maxBodyBytes?: number;
  /** In-flight ceiling for the AIMD limit. Default 4. */
  concurrency?: number;
  /** Request starts per second. Default unlimited. */
  ratePerSec?: number;
  /** Resends per body after transient failures, at most. Default: no cap (the time budget ends them). */
  retries?: number;
  /** Default 500. */
  baseDelayMs?: number;
  /** The longest wait between tries. Default 30_000, or a tenth of maxRetryTimeMs when shorter. */
  maxDelayMs?: number;
  /** Retry-After is honoured up to this. Default 300_000. */
  maxRetryAfterMs?: number;
  /**
   * Retry budget of a body, from its first failure; once a wait would pass it, that body and the rest fail
   * (the run stops). Default 300_000.
   */
  maxRetryTimeMs?: number;
  hooks?: DeliveryHooks<T>;
  /** Resolve after ms, or earlier (resolve or reject) when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  /** Uniform in [0, 1). */
  random?: () => number;
}

export interface Deliverer<T> {
  /**
   * Add one record; undefined when there is room for more at once (no promise per record), else a promise
   * that resolves when there is (backpressure). Once the run stopped (the key was refused, a hook failed) it
   * rejects with that error, the record reported abandoned.
   */
  push(item: T): Promise<void> | undefined;
  /**
   * End the body being filled now, even if not full, and resolve when there is room (as push does).
   * Resending a ledger group this way rebuilds its original body, hence its original Idempotency-Key.
   */
  flush(): Promise<void>;
  /**
   * Send exactly these records as one body (after the batch being filled), ignoring the batch size and
   * byte cap: a resend of a body sent before gets the same bytes, hence the same Idempotency-Key.
   */
  pushBody(items: T[]): Promise<void>;
  /** Send the last batch and wait for everything. Rejects with AuthError (or a hook's error) when the run stopped. */
  close(): Promise<DeliveryStats>;
  /** Stop sending; let in-flight requests finish within graceMs, then cancel them; abandon the rest. */
  abort(graceMs: number): Promise<DeliveryStats>;
  /** A snapshot of the counters. */
  readonly stats: DeliveryStats;
}
