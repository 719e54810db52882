// The run's bodies between batching and sending: the queue and its workers, backpressure, and the run's
// lifecycle (close, abort, a stop on a refused key, a spent retry budget). Each body's own journey is
// send-body.ts; this is what the bodies share, as the RunControl they see.
import { BatchFiller } from './batch-filler.js';
import type { RunControl } from './body-context.js';
import type { DeliveryStats } from './deliver-types.js';
import type { Job, Outcomes, Part } from './outcomes.js';
import type { Pacing } from './pacing.js';

export interface BodyQueueOptions<T> {
  /** Bodies queued or in flight before push() waits (backpressure). */
  concurrency: number;
  batchSize: number;
  maxBodyBytes: number;
  pacing: Pacing;
  stats: DeliveryStats;
  outcomes: Outcomes<T>;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** One body's journey (sendBody); only a bug rejects. */
  send: (job: Job<T>) => Promise<void>;
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

export class BodyQueue<T> implements RunControl<T> {
  readonly #options: BodyQueueOptions<T>;
  readonly #filling: BatchFiller<T>;
  readonly #queue: Job<T>[] = [];
  #active = 0;
  #closed = false;
  #aborting = false;
  #stopError: Error | undefined;
  #budgetSpent = false;
  /** Cuts every wait (backoff, pauses) short once the run stops, aborts or spends its budget. */
  readonly #wake = new AbortController();
  /** Cancels in-flight requests when the abort grace period ends. */
  readonly #cancel = new AbortController();
  #roomWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  #idleWaiters: Array<() => void> = [];

  constructor(options: BodyQueueOptions<T>) {
    this.#options = options;
    this.#filling = new BatchFiller(options.batchSize, options.maxBodyBytes);
  }

  get cancel(): AbortSignal {
    return this.#cancel.signal;
  }

  /** The stop's error, once the run stopped (a refused key, a hook that failed). */
  get stopError(): Error | undefined {
    return this.#stopError;
  }

  /** Whether records handed over now are taken (else `refuse` gives them their outcome). */
  get accepting(): boolean {
    return !this.#stopError && !this.#aborting && !this.#closed;
  }

  halted(): boolean {
    return this.#aborting || this.#stopError !== undefined || this.#budgetSpent;
  }

  /** Adds one record to the body being filled (per record: no allocation here); a promise only to wait for room. */
  add(part: Part<T>): Promise<void> | undefined {
    if (this.#filling.fullFor(part)) this.flush();
    if (this.#filling.add(part)) this.flush();
    return this.#outstanding() < this.#options.concurrency ? undefined : this.room();
  }

  /** Exactly these records as one body, after the body being filled. */
  addBody(parts: Part<T>[]): Promise<void> {
    if (parts.length === 0) return this.room();
    this.flush();
    this.#enqueue(parts);
    return this.room();
  }

  /** Ends the body being filled: it joins the queue. */
  flush(): void {
    if (this.#filling.empty) return;
    this.#enqueue(this.#filling.take());
  }

  /**
   * Records handed over when the run does not take them: after the stop they are abandoned and the stop's
   * error goes to the caller; while aborting (a push racing a signal handler) abandoned quietly; after
   * close() it is a bug.
   */
  refuse(parts: Part<T>[], method: string): Promise<void> {
    if (this.#stopError) {
      this.#options.outcomes.abandoned(parts);
      return Promise.reject(this.#stopError);
    }
    if (this.#aborting) {
      this.#options.outcomes.abandoned(parts);
      return Promise.resolve();
    }
    return Promise.reject(new Error(`${method}() after close()`));
  }

  /** Backpressure: resolves once fewer than `concurrency` bodies are queued or in flight. */
  room(): Promise<void> {
    if (this.#outstanding() < this.#options.concurrency) return Promise.resolve();
    return new Promise((resolve, reject) => this.#roomWaiters.push({ resolve, reject }));
  }

  /** No more records: the last body is queued (unless stopped) and the workers run to the end. */
  close(): Promise<void> {
    this.#closed = true;
    if (!this.#aborting && !this.#stopError) this.flush();
    this.#pump();
    return this.#idle();
  }

  /** Stop sending: unsent bodies are abandoned; in-flight ones may finish within graceMs, then are cancelled. */
  async abort(graceMs: number): Promise<void> {
    this.#closed = true;
    if (!this.#aborting) {
      this.#aborting = true;
      this.#wake.abort();
      this.#drainUnsent();
      this.#notify();
    }
    const timer = setTimeout(() => this.#cancel.abort(), Math.max(0, graceMs));
    try {
      await this.#idle();
    } finally {
      clearTimeout(timer);
    }
  }

  stop(error: Error): void {
    if (this.#stopError) return;
    this.#stopError = error;
    this.#wake.abort();
    this.#drainUnsent();
    this.#notify();
  }

  spendBudget(): void {
    this.#budgetSpent = true;
    this.#wake.abort();
    this.#drainUnsent();
  }

  async pause(ms: number): Promise<void> {
    if (ms <= 0 || this.#wake.signal.aborted) return;
    try {
      await this.#options.sleep(ms, this.#wake.signal);
    } catch {
      // Cut short by wake: the caller checks halted().
    }
  }

  settleUnsent(parts: Part<T>[]): void {
    if (this.#aborting || this.#stopError) this.#options.outcomes.abandoned(parts);
    else this.#options.outcomes.failed(parts, 'retry time budget spent');
  }

  split(job: Job<T>, fromTooLarge: boolean): void {
    this.#options.stats.splits += 1;
    const middle = Math.ceil(job.parts.length / 2);
    // A one-record body (what a probe leaves over) makes one job, not an empty second one.
    const halves = [job.parts.slice(0, middle), job.parts.slice(middle)].filter((half) => half.length > 0);
    if (this.halted()) {
      for (const half of halves) this.settleUnsent(half);
      return;
    }
    // To the front: a split body finishes before new batches start, which keeps memory bounded.
    this.#queue.unshift(...halves.map((parts) => ({ parts, fromTooLarge, probed: job.probed })));
  }

  shrinkBatch(size: number): void {
    this.#filling.shrink(size);
  }

  #enqueue(parts: Part<T>[]): void {
    this.#options.stats.batches += 1;
    this.#queue.push({ parts, fromTooLarge: false });
    this.#pump();
  }

  #outstanding(): number {
    return this.#queue.length + this.#active;
  }

  #pump(): void {
    if (this.halted()) this.#drainUnsent();
    while (this.#queue.length > 0 && this.#active < this.#options.pacing.limit) {
      const job = this.#queue.shift()!;
      this.#active += 1;
      this.#options
        .send(job)
        .catch((error: unknown) => {
          // Only a bug gets here (postBatch wraps every network error, hooks are guarded).
          this.stop(asError(error));
          this.#options.outcomes.abandoned(job.parts);
        })
        .finally(() => {
          this.#active -= 1;
          this.#pump();
          this.#notify();
        });
    }
  }

  #drainUnsent(): void {
    while (this.#queue.length > 0) this.settleUnsent(this.#queue.shift()!.parts);
    if (this.#aborting || this.#stopError) this.#options.outcomes.abandoned(this.#filling.take());
  }

  #notify(): void {
    if (this.#stopError || this.#aborting || this.#outstanding() < this.#options.concurrency) {
      const waiters = this.#roomWaiters;
      this.#roomWaiters = [];
      for (const waiter of waiters) {
        if (this.#stopError) waiter.reject(this.#stopError);
        else waiter.resolve();
      }
    }
    if (this.#outstanding() === 0) {
      const waiters = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  #idle(): Promise<void> {
    if (this.#outstanding() === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
  }
}
