// Delivery of records to the revenues endpoint: batching by count and bytes with backpressure, retries
// with jittered backoff and a time budget, bisection of refused batches, 413 shrinking, and a hard stop
// on a refused key. Decisions about statuses come from classify.ts; the one request from client.ts.
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { AuthError } from '../errors.js';
import type { ConversionRecord } from '../record/fields.js';
import { backoffDelay } from './backoff.js';
import { classify, serverMessage } from './classify.js';
import { createPool, type PostResponse, postBatch, TransportError } from './client.js';
import type { Deliverer, DeliverOptions, DeliveryHooks, DeliveryStats } from './deliver-types.js';
import { idempotencyKey } from './idempotency.js';
import { Pacing } from './pacing.js';

export type {
  Deliverer,
  DeliverOptions,
  DeliveryHooks,
  DeliveryStats,
  RequestInfo,
  RetryInfo,
} from './deliver-types.js';

interface Part<T> {
  item: T;
  json: string;
  bytes: number;
}

interface Job<T> {
  parts: Part<T>[];
  /** A half of a body that got 413: its success sets the batch size for the rest of the run. */
  fromTooLarge: boolean;
}

const timeoutCodes = new Set([
  'ETIMEDOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const defaultSleep = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal });

const itemsOf = <T>(parts: Part<T>[]): T[] => parts.map((part) => part.item);

export function createDeliverer<T extends { record: ConversionRecord }>(
  options: DeliverOptions<T>,
): Deliverer<T> {
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const retries = options.retries ?? 5;
  const backoff = { baseMs: options.baseDelayMs ?? 500, capMs: options.maxDelayMs ?? 30_000 };
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 300_000;
  const maxRetryTimeMs = options.maxRetryTimeMs ?? 300_000;
  const hooks: DeliveryHooks<T> = options.hooks ?? {};
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const ownedPool = options.dispatcher
    ? undefined
    : createPool(options.url.origin, { connections: concurrency });
  const dispatcher = options.dispatcher ?? ownedPool!;
  const pacing = new Pacing({ concurrency, ratePerSec: options.ratePerSec, now });
  const stats: DeliveryStats = {
    batches: 0,
    requests: 0,
    retries: 0,
    splits: 0,
    delivered: 0,
    rejected: 0,
    failed: 0,
    abandoned: 0,
  };

  let batchSize = Math.max(1, options.batchSize ?? 500);
  let filling: Part<T>[] = [];
  let fillingBytes = 2;
  const queue: Job<T>[] = [];
  let active = 0;
  let closed = false;
  let aborting = false;
  let stopError: Error | undefined;
  let budgetSpent = false;
  let firstFailureAt: number | undefined;
  /** Cuts every wait (backoff, pauses) short once the run stops, aborts or spends its budget. */
  const wake = new AbortController();
  /** Cancels in-flight requests when the abort grace period ends. */
  const cancel = new AbortController();
  let roomWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  let idleWaiters: Array<() => void> = [];

  const redact = (text: string) => (options.apiKey ? text.split(options.apiKey).join('***') : text);

  function call(hook: () => void): void {
    try {
      hook();
    } catch (error) {
      stop(error instanceof Error ? error : new Error(String(error)));
    }
  }

  function delivered(parts: Part<T>[], status: number, key: string): void {
    stats.delivered += parts.length;
    call(() => hooks.onDelivered?.(itemsOf(parts), { status, idempotencyKey: key }));
  }
  function rejected(parts: Part<T>[], status: number, message: string): void {
    stats.rejected += parts.length;
    call(() => hooks.onRejected?.(itemsOf(parts), { status, message: redact(message) }));
  }
  function failed(parts: Part<T>[], reason: string): void {
    stats.failed += parts.length;
    call(() => hooks.onFailed?.(itemsOf(parts), { reason }));
  }
  function abandoned(parts: Part<T>[]): void {
    if (parts.length === 0) return;
    stats.abandoned += parts.length;
    call(() => hooks.onAbandoned?.(itemsOf(parts)));
  }

  const halted = () => aborting || stopError !== undefined || budgetSpent;

  /** Items that will never be sent: failed when the budget ran out, otherwise abandoned. */
  function settleUnsent(parts: Part<T>[]): void {
    if (aborting || stopError) abandoned(parts);
    else failed(parts, 'retry time budget spent');
  }

  function drainUnsent(): void {
    while (queue.length > 0) settleUnsent(queue.shift()!.parts);
    if (aborting || stopError) {
      const parts = filling;
      filling = [];
      fillingBytes = 2;
      abandoned(parts);
    }
  }

  function stop(error: Error): void {
    if (stopError) return;
    stopError = error;
    wake.abort();
    drainUnsent();
    notify();
  }

  const outstanding = () => queue.length + active;

  function notify(): void {
    if (stopError) {
      const waiters = roomWaiters;
      roomWaiters = [];
      for (const waiter of waiters) waiter.reject(stopError);
    } else if (aborting || outstanding() < concurrency) {
      const waiters = roomWaiters;
      roomWaiters = [];
      for (const waiter of waiters) waiter.resolve();
    }
    if (outstanding() === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  function pump(): void {
    if (halted()) drainUnsent();
    while (queue.length > 0 && active < pacing.limit) {
      const job = queue.shift()!;
      active += 1;
      runJob(job)
        .catch((error: unknown) => stop(error instanceof Error ? error : new Error(String(error))))
        .finally(() => {
          active -= 1;
          pump();
          notify();
        });
    }
  }

  async function pause(ms: number): Promise<void> {
    if (ms <= 0 || wake.signal.aborted) return;
    try {
      await sleep(ms, wake.signal);
    } catch {
      // Cut short by wake: the caller checks halted().
    }
  }

  function split(job: Job<T>, fromTooLarge: boolean): void {
    stats.splits += 1;
    const middle = Math.ceil(job.parts.length / 2);
    const halves = [job.parts.slice(0, middle), job.parts.slice(middle)];
    if (halted()) {
      for (const parts of halves) settleUnsent(parts);
      return;
    }
    // To the front: a split body finishes before new batches start, which keeps memory bounded.
    queue.unshift(...halves.map((parts) => ({ parts, fromTooLarge })));
  }

  async function runJob(job: Job<T>): Promise<void> {
    const { parts } = job;
    const body = `[${parts.map((part) => part.json).join(',')}]`;
    const key = idempotencyKey(body);
    let announced = false;
    for (let attempt = 1; ; attempt += 1) {
      for (let wait = pacing.delayBeforeStart(); wait > 0 && !halted(); wait = pacing.delayBeforeStart()) {
        await pause(wait);
      }
      if (halted()) return settleUnsent(parts);
      if (!announced) {
        announced = true;
        call(() => hooks.beforeSend?.(itemsOf(parts), key));
        if (stopError) return abandoned(parts);
      }

      let response: PostResponse | undefined;
      let reason: string;
      let throttle = false;
      let afterMs: number | undefined;
      stats.requests += 1;
      const started = performance.now();
      try {
        response = await postBatch(dispatcher, {
          url: options.url,
          apiKey: options.apiKey,
          body,
          idempotencyKey: key,
          userAgent: options.userAgent ?? 'revimport',
          timeoutMs: options.timeoutMs ?? 30_000,
          signal: cancel.signal,
        });
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        const info = {
          error: error.code,
          durationMs: performance.now() - started,
          records: parts.length,
          attempt,
        };
        call(() => hooks.onRequest?.(info));
        reason = error.code;
        throttle = timeoutCodes.has(error.code);
      }
      if (response) {
        const { status } = response;
        call(() =>
          hooks.onRequest?.({ status, durationMs: response.durationMs, records: parts.length, attempt }),
        );
        const outcome = classify(status, response.headers, now());
        if (outcome.kind !== 'retry' && outcome.kind !== 'auth') pacing.answered();
        switch (outcome.kind) {
          case 'delivered':
            pacing.succeeded();
            if (job.fromTooLarge) batchSize = Math.min(batchSize, parts.length);
            return delivered(parts, status, key);
          case 'auth':
            stop(
              new AuthError(`the server refused the API key (HTTP ${status}); nothing more was sent`, {
                hint: 'check the key (REVIMPORT_API_KEY or apiKeyFile) and that it may import revenues',
              }),
            );
            return abandoned(parts);
          case 'split-rejected':
            if (parts.length === 1) return rejected(parts, status, serverMessage(status, response.text));
            return split(job, false);
          case 'too-large':
            if (parts.length === 1)
              return rejected(parts, status, `record too large for the server (HTTP ${status})`);
            return split(job, true);
          case 'rejected':
            return rejected(
              parts,
              status,
              status >= 300 && status < 400 ? outcome.message : serverMessage(status, response.text),
            );
          case 'retry':
            reason = `HTTP ${status}`;
            throttle = outcome.throttle;
            afterMs = outcome.afterMs;
        }
      }

      if (halted()) return settleUnsent(parts);
      if (throttle) pacing.throttled();
      if (attempt > retries) return failed(parts, `gave up after ${attempt} attempts: ${reason!}`);
      let wait = backoffDelay(attempt, backoff, random);
      const current = now();
      if (afterMs !== undefined) {
        const capped = Math.min(afterMs, maxRetryAfterMs);
        wait = Math.max(wait, capped);
        pacing.pauseUntil(current + capped);
      }
      firstFailureAt ??= current;
      if (current + wait > firstFailureAt + maxRetryTimeMs) {
        budgetSpent = true;
        wake.abort();
        failed(parts, 'retry time budget spent');
        return drainUnsent();
      }
      stats.retries += 1;
      call(() => hooks.onRetry?.({ attempt, delayMs: wait, reason }));
      await pause(wait);
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

  function idle(): Promise<void> {
    if (outstanding() === 0) return Promise.resolve();
    return new Promise((resolve) => idleWaiters.push(resolve));
  }

  async function finish(): Promise<DeliveryStats> {
    await idle();
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
      if (stopError) return Promise.reject(stopError);
      const json = JSON.stringify(item.record);
      const part = { item, json, bytes: Buffer.byteLength(json) };
      // A push racing a signal handler's abort() is expected; a push after close() is a bug.
      if (aborting) {
        abandoned([part]);
        return Promise.resolve();
      }
      if (closed) return Promise.reject(new Error('push() after close()'));
      if (
        filling.length >= batchSize ||
        (filling.length > 0 && fillingBytes + 1 + part.bytes > maxBodyBytes)
      ) {
        flush();
      }
      fillingBytes += part.bytes + (filling.length > 0 ? 1 : 0);
      filling.push(part);
      if (filling.length >= batchSize) flush();
      if (aborting || outstanding() < concurrency) return Promise.resolve();
      return new Promise((resolve, reject) => roomWaiters.push({ resolve, reject }));
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
