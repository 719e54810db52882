// Delivery of records to the revenues endpoint: batching by count and bytes, backpressure, the queue of
// bodies and its workers, and the run's lifecycle (close, abort, stop on a refused key). What happens
// to one body (retries, splits, statuses) is in send-body.ts.
import { setTimeout as delay } from 'node:timers/promises';
import type { ConversionRecord } from '../record/fields.js';
import { backoffCap } from './backoff.js';
import { createPool } from './client.js';
import type { Deliverer, DeliverOptions, DeliveryStats } from './deliver-types.js';
import { createOutcomes, emptyStats, type Job, type Part } from './outcomes.js';
import { Pacing } from './pacing.js';
import { type BodyContext, sendBody } from './send-body.js';

export type {
  Deliverer,
  DeliverOptions,
  DeliveryHooks,
  DeliveryStats,
  RequestInfo,
  RetryInfo,
} from './deliver-types.js';

const defaultSleep = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal });

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

export function createDeliverer<T extends { record: ConversionRecord }>(
  options: DeliverOptions<T>,
): Deliverer<T> {
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const maxRetryTimeMs = options.maxRetryTimeMs ?? 300_000;
  const ownedPool = options.dispatcher
    ? undefined
    : createPool(options.url.origin, { connections: concurrency, proxy: options.proxy });
  const stats = emptyStats();
  const hooks = options.hooks ?? {};
  const outcomes = createOutcomes(hooks, stats, options.apiKey, (error) => stop(error));

  let batchSize = Math.max(1, options.batchSize ?? 500);
  let filling: Part<T>[] = [];
  let fillingBytes = 2;
  const queue: Job<T>[] = [];
  let active = 0;
  let closed = false;
  let aborting = false;
  let stopError: Error | undefined;
  let budgetSpent = false;
  /** Cuts every wait (backoff, pauses) short once the run stops, aborts or spends its budget. */
  const wake = new AbortController();
  /** Cancels in-flight requests when the abort grace period ends. */
  const cancel = new AbortController();
  let roomWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  let idleWaiters: Array<() => void> = [];

  const halted = () => aborting || stopError !== undefined || budgetSpent;
  const outstanding = () => queue.length + active;

  function settleUnsent(parts: Part<T>[]): void {
    if (aborting || stopError) outcomes.abandoned(parts);
    else outcomes.failed(parts, 'retry time budget spent');
  }

  function drainUnsent(): void {
    while (queue.length > 0) settleUnsent(queue.shift()!.parts);
    if (aborting || stopError) {
      const parts = filling;
      filling = [];
      fillingBytes = 2;
      outcomes.abandoned(parts);
    }
  }

  function stop(error: Error): void {
    if (stopError) return;
    stopError = error;
    wake.abort();
    drainUnsent();
    notify();
  }

  function notify(): void {
    if (stopError || aborting || outstanding() < concurrency) {
      const waiters = roomWaiters;
      roomWaiters = [];
      for (const waiter of waiters) {
        if (stopError) waiter.reject(stopError);
        else waiter.resolve();
      }
    }
    if (outstanding() === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  const context: BodyContext<T> = {
    request: {
      url: options.url,
      apiKey: options.apiKey,
      userAgent: options.userAgent ?? 'revimport',
      timeoutMs: options.timeoutMs ?? 30_000,
    },
    retries: options.retries ?? Number.POSITIVE_INFINITY,
    backoff: { baseMs: options.baseDelayMs ?? 500, capMs: options.maxDelayMs ?? backoffCap(maxRetryTimeMs) },
    maxRetryAfterMs: options.maxRetryAfterMs ?? 300_000,
    maxRetryTimeMs,
    now,
    random: options.random ?? Math.random,
    dispatcher: options.dispatcher ?? ownedPool!,
    proxy: options.proxy,
    pacing: new Pacing({ concurrency, ratePerSec: options.ratePerSec, now }),
    stats,
    hooks,
    outcomes,
    cancel: cancel.signal,
    halted,
    settleUnsent,
    stop,
    async pause(ms) {
      if (ms <= 0 || wake.signal.aborted) return;
      try {
        await sleep(ms, wake.signal);
      } catch {
        // Cut short by wake: the caller checks halted().
      }
    },
    spendBudget() {
      budgetSpent = true;
      wake.abort();
      drainUnsent();
    },
    split(job, fromTooLarge) {
      stats.splits += 1;
      const middle = Math.ceil(job.parts.length / 2);
      // A one-record body (what a probe leaves over) makes one job, not an empty second one.
      const halves = [job.parts.slice(0, middle), job.parts.slice(middle)].filter((half) => half.length > 0);
      if (halted()) return halves.forEach(settleUnsent);
      // To the front: a split body finishes before new batches start, which keeps memory bounded.
      queue.unshift(...halves.map((parts) => ({ parts, fromTooLarge, probed: job.probed })));
    },
    shrinkBatch(size) {
      batchSize = Math.min(batchSize, size);
    },
  };

  function pump(): void {
    if (halted()) drainUnsent();
    while (queue.length > 0 && active < context.pacing.limit) {
      const job = queue.shift()!;
      active += 1;
      sendBody(context, job)
        .catch((error: unknown) => {
          // Only a bug gets here (postBatch wraps every network error, hooks are guarded).
          stop(asError(error));
          outcomes.abandoned(job.parts);
        })
        .finally(() => {
          active -= 1;
          pump();
          notify();
        });
    }
  }

  function flush(): void {
    if (filling.length === 0) return;
    stats.batches += 1;
    queue.push({ parts: filling, fromTooLarge: false });
    filling = [];
    fillingBytes = 2;
    pump();
  }

  /** Backpressure: resolves once fewer than `concurrency` bodies are queued or in flight. */
  function room(): Promise<void> {
    if (outstanding() < concurrency) return Promise.resolve();
    return new Promise((resolve, reject) => roomWaiters.push({ resolve, reject }));
  }

  /** Records handed over after the run stopped: abandoned, and the stop's error for the caller. */
  function refuse(parts: Part<T>[], error: Error): Promise<void> {
    outcomes.abandoned(parts);
    return Promise.reject(error);
  }

  async function finish(): Promise<DeliveryStats> {
    if (outstanding() > 0) await new Promise<void>((resolve) => idleWaiters.push(resolve));
    if (ownedPool && !ownedPool.closed && !ownedPool.destroyed) {
      await (cancel.signal.aborted ? ownedPool.destroy() : ownedPool.close());
    }
    return { ...stats };
  }

  return {
    get stats() {
      return { ...stats };
    },

    push(item) {
      const json = JSON.stringify(item.record);
      const part = { item, json, bytes: Buffer.byteLength(json) };
      // Every record handed over gets an outcome, one pushed after the stop too: it was dropped unreported,
      // and the summary lost count of it (issue 19).
      if (stopError) return refuse([part], stopError);
      // A push racing a signal handler's abort() is expected; a push after close() is a bug.
      if (aborting) {
        outcomes.abandoned([part]);
        return Promise.resolve();
      }
      if (closed) return Promise.reject(new Error('push() after close()'));
      const overflows = filling.length > 0 && fillingBytes + 1 + part.bytes > maxBodyBytes;
      if (filling.length >= batchSize || overflows) flush();
      fillingBytes += part.bytes + (filling.length > 0 ? 1 : 0);
      filling.push(part);
      if (filling.length >= batchSize) flush();
      return room();
    },

    pushBody(items) {
      const parts = items.map((item) => {
        const json = JSON.stringify(item.record);
        return { item, json, bytes: Buffer.byteLength(json) };
      });
      if (stopError) return refuse(parts, stopError);
      if (aborting) {
        outcomes.abandoned(parts);
        return Promise.resolve();
      }
      if (closed) return Promise.reject(new Error('pushBody() after close()'));
      if (parts.length === 0) return room();
      // Exactly these records, in this order, as one body whatever the batch size: the same bytes as
      // when they were first sent, hence the same Idempotency-Key.
      flush();
      stats.batches += 1;
      queue.push({ parts, fromTooLarge: false });
      pump();
      return room();
    },

    flush() {
      if (stopError) return Promise.reject(stopError);
      if (aborting || closed) return Promise.resolve();
      flush();
      return room();
    },

    async close() {
      closed = true;
      if (!aborting && !stopError) flush();
      pump();
      const result = await finish();
      if (stopError) throw stopError;
      return result;
    },

    async abort(graceMs) {
      closed = true;
      if (!aborting) {
        aborting = true;
        wake.abort();
        drainUnsent();
        notify();
      }
      const timer = setTimeout(() => cancel.abort(), Math.max(0, graceMs));
      try {
        return await finish();
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
