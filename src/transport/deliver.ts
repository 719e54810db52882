// Delivery of records to the revenues endpoint: the deliverer callers use (push, pushBody, flush, close,
// abort), built from its options. The queue of bodies and the run's lifecycle are body-queue.ts; what
// happens to one body (the delivery state machine) is send-body.ts.
import { setTimeout as delay } from 'node:timers/promises';
import type { ConversionRecord } from '../record/fields.js';
import { backoffCap } from './backoff.js';
import type { BodyContext } from './body-context.js';
import { BodyQueue } from './body-queue.js';
import { createPool, type OwnedDispatcher } from './client.js';
import type { Deliverer, DeliverOptions, DeliveryStats } from './deliver-types.js';
import { createOutcomes, emptyStats, type Part } from './outcomes.js';
import { Pacing } from './pacing.js';
import { RecordWriter } from './record-json.js';
import { sendBody } from './send-body.js';
import { SentRecord } from './sent-record.js';

export type {
  Deliverer,
  DeliverOptions,
  DeliveryHooks,
  DeliveryStats,
  RequestInfo,
  RetryInfo,
} from './deliver-types.js';

const defaultSleep = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal });

/**
 * One record, serialized once, when it is handed over: its JSON written into the run's chunks. The item keeps a
 * SentRecord from then on: the fields read after sending, the rest read again from these bytes.
 */
function toPart<T extends { record: ConversionRecord }>(writer: RecordWriter, item: T): Part<T> {
  // A record handed over again (none is today) is a SentRecord already: the writer writes its toJSON.
  const bytes = writer.write(item.record);
  const part = { item, chunk: writer.chunk, start: writer.start, bytes };
  item.record = new SentRecord(item.record, part);
  return part;
}

export function createDeliverer<T extends { record: ConversionRecord }>(
  options: DeliverOptions<T>,
): Deliverer<T> {
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const ownedPool = options.dispatcher
    ? undefined
    : createPool(options.url.origin, { connections: concurrency, proxy: options.proxy });
  const stats = emptyStats();
  const hooks = options.hooks ?? {};
  const outcomes = createOutcomes(hooks, stats, options.apiKey, (error) => queue.stop(error));
  const pacing = new Pacing({ concurrency, ratePerSec: options.ratePerSec, now: options.now ?? Date.now });
  const queue: BodyQueue<T> = new BodyQueue<T>({
    concurrency,
    batchSize: Math.max(1, options.batchSize ?? 500),
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    pacing,
    stats,
    outcomes,
    sleep: options.sleep ?? defaultSleep,
    send: (job) => sendBody(context, job),
  });
  const context = bodyContext(options, { pacing, stats, outcomes, hooks, run: queue, dispatcher: ownedPool });
  return facade(queue, stats, ownedPool);
}

/** The settings every body of the run shares, with their defaults (DeliverOptions documents them). */
function bodyContext<T extends { record: ConversionRecord }>(
  options: DeliverOptions<T>,
  shared: Pick<BodyContext<T>, 'pacing' | 'stats' | 'hooks' | 'outcomes' | 'run'> & {
    dispatcher?: OwnedDispatcher;
  },
): BodyContext<T> {
  const maxRetryTimeMs = options.maxRetryTimeMs ?? 300_000;
  return {
    ...shared,
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
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    dispatcher: options.dispatcher ?? shared.dispatcher!,
    proxy: options.proxy,
  };
}

/** The Deliverer callers see: records in, the run's end out. */
function facade<T extends { record: ConversionRecord }>(
  queue: BodyQueue<T>,
  stats: DeliveryStats,
  ownedPool: OwnedDispatcher | undefined,
): Deliverer<T> {
  /** Waits for every body, then closes the pool the deliverer owns (destroyed once requests were cancelled). */
  async function finish(settled: Promise<void>): Promise<DeliveryStats> {
    await settled;
    if (ownedPool && !ownedPool.closed && !ownedPool.destroyed) {
      await (queue.cancel.aborted ? ownedPool.destroy() : ownedPool.close());
    }
    return { ...stats };
  }
  const writer = new RecordWriter();
  return {
    get stats() {
      return { ...stats };
    },
    push(item) {
      const part = toPart(writer, item);
      // Every record handed over gets an outcome, one pushed after the stop too: it was dropped unreported,
      // and the summary lost count of it (issue 19).
      return queue.accepting ? queue.add(part) : queue.refuse([part], 'push');
    },
    pushBody(items) {
      const parts = items.map((item) => toPart(writer, item));
      // Exactly these records, in this order, as one body whatever the batch size: the same bytes as
      // when they were first sent, hence the same Idempotency-Key.
      return queue.accepting ? queue.addBody(parts) : queue.refuse(parts, 'pushBody');
    },
    flush() {
      if (queue.stopError) return Promise.reject(queue.stopError);
      if (!queue.accepting) return Promise.resolve();
      queue.flush();
      return queue.room();
    },
    async close() {
      const result = await finish(queue.close());
      if (queue.stopError) throw queue.stopError;
      return result;
    },
    abort(graceMs) {
      return finish(queue.abort(graceMs));
    },
  };
}
