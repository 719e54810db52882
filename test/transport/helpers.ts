// Shared fixtures for the transport tests: records, outcome recorders and small waits.
import fc from 'fast-check';
import { afterEach } from 'vitest';
import type { ConversionRecord } from '../../src/record/fields.js';
import { type Receiver, type ReceiverOptions, startReceiver } from '../../src/testing/receiver.js';
import { checkUrl } from '../../src/transport/client.js';
import {
  createDeliverer,
  type DeliverOptions,
  type DeliveryHooks,
  type RetryInfo,
} from '../../src/transport/deliver.js';

export interface Item {
  record: ConversionRecord;
  line: number;
}

export function makeItems(count: number, prefix = 'order'): Item[] {
  return Array.from({ length: count }, (_, index) => ({
    line: index + 1,
    record: {
      conversionCurrency: 'EUR',
      conversionValue: 10 + index / 100,
      conversionDatetime: '2024-03-01T12:00:00.000Z',
      conversionTimezone: 'Europe/Berlin',
      conversionId: `${prefix}-${index + 1}`,
    },
  }));
}

export const idOf = (record: Record<string, unknown>) => String(record.conversionId);

/** Records every hook call; `outcomes` maps a conversionId to every outcome it got (expect exactly one). */
export function recordHooks() {
  const outcomes = new Map<string, string[]>();
  const messages = new Map<string, string>();
  const sent: Array<{ ids: string[]; key: string }> = [];
  /** Each record's JSON as beforeSend's `json(i)` gives it, per call, in order. */
  const serialized: string[][] = [];
  /** The `body` argument of each beforeSend call (its bytes as text), in order. */
  const bodies: string[] = [];
  const retries: RetryInfo[] = [];
  const requests: Array<{ status?: number; error?: string; records: number; attempt: number }> = [];
  const reasons: string[] = [];
  const note = (items: Item[], outcome: string) => {
    for (const item of items) {
      const id = idOf(item.record as unknown as Record<string, unknown>);
      outcomes.set(id, [...(outcomes.get(id) ?? []), outcome]);
    }
  };
  const hooks: DeliveryHooks<Item> = {
    beforeSend: (items, key, json, body) => {
      sent.push({ ids: items.map((item) => String(item.record.conversionId)), key });
      serialized.push(items.map((_, index) => json(index)));
      bodies.push(Buffer.from(body).toString('utf8'));
    },
    onDelivered: (items) => note(items, 'delivered'),
    onRejected: (items, info) => {
      note(items, 'rejected');
      for (const item of items) messages.set(String(item.record.conversionId), info.message);
    },
    onFailed: (items, info) => {
      note(items, 'failed');
      reasons.push(info.reason);
    },
    onAbandoned: (items) => note(items, 'abandoned'),
    onRetry: (info) => retries.push(info),
    onRequest: (info) => requests.push(info),
  };
  const idsWith = (outcome: string) =>
    [...outcomes].filter(([, list]) => list.length === 1 && list[0] === outcome).map(([id]) => id);
  return { hooks, outcomes, messages, sent, serialized, bodies, retries, requests, reasons, idsWith };
}

export async function waitUntil(condition: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 2000; i += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Push every item, awaiting each push as the pipeline does. */
export async function pushAll<T>(
  deliverer: { push(item: T): Promise<void> | undefined },
  items: T[],
): Promise<void> {
  for (const item of items) await deliverer.push(item);
}

/**
 * One receiver and one deliverer per test, the receiver closed after each: the set-up the deliver-*
 * test files share. Call at the top level of a test file.
 */
export function useDeliverySetup(apiKey: string) {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });
  return async (receiverOptions: ReceiverOptions = {}, options: Partial<DeliverOptions<Item>> = {}) => {
    receiver = await startReceiver(receiverOptions);
    const recorded = recordHooks();
    const deliverer = createDeliverer<Item>({
      url: checkUrl(receiver.url, false),
      apiKey,
      baseDelayMs: 1,
      hooks: recorded.hooks,
      ...options,
    });
    return { receiver, deliverer, ...recorded };
  };
}

/**
 * A clock the deliverer's waits move instead of passing: `options.now` reads it and `options.sleep(ms)`
 * moves it on at once, so retry budgets and Retry-After waits of minutes take no real time.
 * `advance(ms)` moves it from elsewhere (a receiver hook: each answer costs time).
 */
export function fakeClock() {
  let ms = 0;
  const advance = (by: number) => {
    ms += by;
  };
  const options: Pick<DeliverOptions<Item>, 'now' | 'sleep'> = {
    now: () => ms,
    sleep: async (by) => advance(by),
  };
  return { advance, options };
}

// Any text a field can hold: accents, emoji (surrogate pairs), lone surrogates, quotes, backslashes,
// control characters, DEL; and numbers JSON writes oddly (-0, 1e21, 5e-324) or not at all (NaN, Infinity).
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ maxLength: 30 }));
// Amounts of whole cents too: the writer writes them from their cents (record/number-bytes.ts).
const number = fc.oneof(
  fc.double(),
  fc.integer({ min: -(2 ** 53 - 1), max: 2 ** 53 - 1 }).map((cents) => cents / 100),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map((cents) => cents / 100),
  fc.constantFrom(-0, 1e21, 5e-324, Number.NaN, Number.POSITIVE_INFINITY),
);
/** Any record the writer may get (and a few it never does: values JSON writes as null). */
export const anyRecord = fc
  .record(
    {
      conversionCurrency: text,
      conversionValue: number,
      conversionDatetime: text,
      conversionTimezone: fc.option(text, { nil: undefined }),
      serviceId: text,
      conversionId: text,
      conversionName: text,
      conversionEmail: fc.option(text, { nil: undefined }),
    },
    { requiredKeys: ['conversionValue'] },
  )
  // The keys in another order too: JSON.stringify follows the object's own order, and so must the writer.
  .chain((r) =>
    fc.boolean().map((reversed) => (reversed ? Object.fromEntries(Object.entries(r).reverse()) : r)),
  );
