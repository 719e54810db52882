// What one body's journey (send-body.ts) needs from the deliverer that owns it: the request's settings,
// the retry policy, the pacing and counters all bodies share, and the run the body is part of.
import type { Dispatcher } from 'undici';
import type { BackoffOptions } from './backoff.js';
import type { DeliveryHooks, DeliveryStats } from './deliver-types.js';
import type { Job, Outcomes, Part } from './outcomes.js';
import type { Pacing } from './pacing.js';

/** The run as a body sees it (body-queue.ts): whether it may go on, and how to stop, wait or split. */
export interface RunControl<T> {
  /** Cancels in-flight requests (end of the abort grace period). */
  readonly cancel: AbortSignal;
  /** Sleep that ends early when the run stops. */
  pause(ms: number): Promise<void>;
  /** True once nothing more may be sent (abort, stop, or budget spent). */
  halted(): boolean;
  /** Settle parts that will not be sent: abandoned, or failed when the budget is spent. */
  settleUnsent(parts: Part<T>[]): void;
  stop(error: Error): void;
  spendBudget(): void;
  split(job: Job<T>, fromTooLarge: boolean): void;
  /** A 413 half got through: later batches use at most this many records. */
  shrinkBatch(size: number): void;
}

/** What sendBody shares with the deliverer that owns the queue. */
export interface BodyContext<T> {
  request: { url: URL; apiKey: string; userAgent: string; timeoutMs: number };
  /** Resends per body at most; Infinity: only the time budget ends the retries. */
  retries: number;
  backoff: BackoffOptions;
  maxRetryAfterMs: number;
  maxRetryTimeMs: number;
  now: () => number;
  random: () => number;
  dispatcher: Dispatcher;
  /** The proxy in use, for messages. */
  proxy: URL | undefined;
  pacing: Pacing;
  stats: DeliveryStats;
  hooks: DeliveryHooks<T>;
  outcomes: Outcomes<T>;
  run: RunControl<T>;
}
