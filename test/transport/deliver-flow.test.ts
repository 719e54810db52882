import { describe, expect, it } from 'vitest';
import { AuthError } from '../../src/errors.js';
import type { ReceiverOptions } from '../../src/testing/receiver.js';
import { deferred, idOf, makeItems, pushAll, useDeliverySetup, waitUntil } from './helpers.js';

const apiKey = 'sk_live_flow_5f2c9a';

const setup = useDeliverySetup(apiKey);

describe('beforeSend', () => {
  it('hands over each record exactly as serialized in the body it announces', async () => {
    const { receiver, deliverer, serialized, bodies } = await setup({}, { batchSize: 3 });
    await pushAll(deliverer, makeItems(5));
    await deliverer.close();
    expect(serialized.map((json) => `[${json.join(',')}]`)).toEqual(receiver.requests.map((r) => r.body));
    expect(bodies).toEqual(receiver.requests.map((r) => r.body));
    expect(serialized[0]?.[0]).toBe(JSON.stringify(makeItems(1)[0]?.record));
  });
});

describe('a record once written', () => {
  it('keeps its JSON: an item handed over again goes out with every field, not only those it keeps', async () => {
    const { receiver, deliverer } = await setup({}, { batchSize: 1 });
    const record = {
      ...makeItems(1)[0]!.record,
      serviceId: 'v-1',
      conversionName: 'purchase',
      conversionEmail: 'ana@example.com',
    };
    const item = { line: 1, record };
    await deliverer.push(item);
    expect(item.record).not.toBe(record);
    await deliverer.push(item);
    await deliverer.close();
    // The same bytes both times (the receiver answers the second from its Idempotency-Key).
    expect(receiver.requests.map((r) => r.body)).toEqual([
      `[${JSON.stringify(record)}]`,
      `[${JSON.stringify(record)}]`,
    ]);
  });
});

describe('backpressure', () => {
  it('push does not resolve while `concurrency` bodies are outstanding', async () => {
    const gate = deferred();
    const { receiver, deliverer, idsWith } = await setup({}, { batchSize: 10, concurrency: 2 });
    receiver.script({ until: gate.promise });
    let resolvedPushes = 0;
    const producer = (async () => {
      for (const item of makeItems(100)) {
        await deliverer.push(item);
        resolvedPushes += 1;
      }
    })();
    await waitUntil(() => receiver.held === 1, 'the first request to be held');
    await new Promise((resolve) => setImmediate(resolve));
    // Body 1 is in flight (held), body 2 waits: the push that completed body 2 cannot resolve.
    expect(resolvedPushes).toBe(19);
    expect(receiver.requests.length).toBe(0);
    gate.resolve();
    await producer;
    const stats = await deliverer.close();
    expect(idsWith('delivered').length).toBe(100);
    expect(receiver.accepted.length).toBe(100);
    expect(stats).toMatchObject({ batches: 10, requests: 10, delivered: 100 });
  });
});

describe('a refused key', () => {
  it.each<[string, ReceiverOptions, number]>([
    ['401 from a wrong key', { apiKey: 'the-right-key' }, 401],
    ['403 from the server', {}, 403],
  ])(
    '%s stops after exactly one request and close() rejects with AuthError',
    async (_name, options, status) => {
      const { receiver, deliverer, outcomes, idsWith } = await setup(options, {
        batchSize: 10,
        concurrency: 4,
      });
      if (status === 403) receiver.script({ status: 403 });
      const pushError = await pushAll(deliverer, makeItems(100)).catch((error: unknown) => error);
      const closeError = await deliverer.close().catch((error: unknown) => error);
      expect(pushError).toBeInstanceOf(AuthError);
      expect(closeError).toBe(pushError);
      expect((closeError as AuthError).message).toBe(
        `the server refused the API key (HTTP ${status}); nothing more was sent`,
      );
      expect(receiver.requests.length).toBe(1);
      expect(receiver.accepted.length).toBe(0);
      // Everything pushed before the stop is settled once, as abandoned.
      expect(idsWith('abandoned').length).toBe(outcomes.size);
      expect(deliverer.stats).toMatchObject({ requests: 1, delivered: 0, abandoned: outcomes.size });
    },
  );
});

describe('abort', () => {
  it('cancels in-flight requests after the grace period and abandons everything unsettled', async () => {
    const gate = deferred();
    const { receiver, deliverer, idsWith } = await setup({}, { batchSize: 10, concurrency: 2 });
    receiver.script({ until: gate.promise });
    const producer = pushAll(deliverer, makeItems(30));
    await waitUntil(() => receiver.held === 1, 'the first request to be held');
    const stats = await deliverer.abort(20);
    await producer;
    gate.resolve();
    expect(idsWith('abandoned').length).toBe(30);
    expect(stats).toMatchObject({ requests: 1, delivered: 0, abandoned: 30 });
  });

  it('lets an in-flight request finish within the grace period', async () => {
    const gate = deferred();
    const { receiver, deliverer, idsWith } = await setup({}, { batchSize: 10, concurrency: 2 });
    receiver.script({ until: gate.promise });
    const producer = pushAll(deliverer, makeItems(30));
    await waitUntil(() => receiver.held === 1, 'the first request to be held');
    const aborted = deliverer.abort(10_000);
    await producer;
    gate.resolve();
    const stats = await aborted;
    expect(idsWith('delivered')).toEqual(makeItems(10).map((item) => item.record.conversionId));
    expect(idsWith('abandoned').length).toBe(20);
    expect(receiver.requests.length).toBe(1);
    expect(stats).toMatchObject({ delivered: 10, abandoned: 20 });
  });
});

describe('exactly once under faults', () => {
  const faults = { seed: 7, error5xx: 0.3, reset: 0.1, throttle429: 0.1, resetAfterAccept: 0.1 };

  it('delivers 2000 records exactly once through 5xx, resets, 429s and lost answers', async () => {
    const { receiver, deliverer, outcomes, idsWith } = await setup(
      { faults },
      { batchSize: 50, retries: 40 },
    );
    await pushAll(deliverer, makeItems(2000));
    const stats = await deliverer.close();
    const accepted = receiver.accepted.map((entry) => idOf(entry.record));
    expect(accepted.length).toBe(2000);
    expect(new Set(accepted)).toEqual(new Set(makeItems(2000).map((item) => item.record.conversionId)));
    expect(outcomes.size).toBe(2000);
    expect(idsWith('delivered').length).toBe(2000);
    const statuses = new Set(receiver.requests.map((request) => request.status));
    for (const status of [0, 200, 429]) expect(statuses).toContain(status);
    expect([...statuses].some((status) => status >= 500)).toBe(true);
    // Batches stored but answered with a reset were resent with the same key and replayed, not stored again.
    expect(receiver.requests.filter((request) => request.replayed).length).toBeGreaterThan(0);
    expect(stats).toMatchObject({ batches: 40, delivered: 2000, failed: 0, rejected: 0 });
    expect(stats.retries).toBe(stats.requests - 40);
  });

  it('would store duplicates if the server ignored the key (the dedupe above is what keeps exactly once)', async () => {
    const { receiver, deliverer } = await setup(
      { faults: { seed: 7, resetAfterAccept: 0.3 }, honourIdempotencyKey: false },
      { batchSize: 50, retries: 40 },
    );
    await pushAll(deliverer, makeItems(2000));
    await deliverer.close();
    const accepted = receiver.accepted.map((entry) => idOf(entry.record));
    expect(new Set(accepted).size).toBe(2000);
    expect(accepted.length).toBeGreaterThan(2000);
  });
});

describe('secrets and hook failures', () => {
  it('never puts the key in a message, reason, error or stat', async () => {
    const { receiver, deliverer, messages, reasons, requests, retries } = await setup(
      { apiKey: 'another-key' },
      { batchSize: 1, retries: 1 },
    );
    receiver.script(
      { status: 400, body: `{"message":"key ${apiKey} may not send order-1"}` },
      { status: 500, body: apiKey },
      { reset: true },
    );
    await pushAll(deliverer, makeItems(3)).catch(() => undefined);
    const error = await deliverer.close().catch((caught: unknown) => caught);
    expect(messages.get('order-1')).toBe('HTTP 400: key *** may not send order-1');
    const everything = JSON.stringify({
      messages: [...messages],
      reasons,
      requests,
      retries,
      stats: deliverer.stats,
      error: String(error),
      stack: (error as Error).stack,
    });
    expect(error).toBeInstanceOf(AuthError);
    expect(everything).not.toContain(apiKey);
  });

  it('stops the run when a hook throws, and close() rejects with its error', async () => {
    const { receiver, deliverer } = await setup(
      {},
      {
        batchSize: 5,
        concurrency: 2,
        hooks: {
          onDelivered: () => {
            throw new Error('ledger write failed');
          },
        },
      },
    );
    const pushError = await pushAll(deliverer, makeItems(20)).catch((error: unknown) => error);
    expect(pushError).toMatchObject({ message: 'ledger write failed' });
    await expect(deliverer.close()).rejects.toThrow('ledger write failed');
    // Body 1 went alone (the probe) and was delivered; body 2, queued behind it, was never sent.
    expect(receiver.requests.length).toBe(1);
    expect(deliverer.stats).toMatchObject({ batches: 2, requests: 1, delivered: 5, abandoned: 5 });
  });

  it('reports a record pushed after the stop as abandoned, and rejects with the stop (issue 19)', async () => {
    const { deliverer, outcomes } = await setup({ apiKey: 'another-key' }, { batchSize: 1 });
    const [first, late, ...body] = makeItems(4);
    await Promise.resolve(deliverer.push(first!)).catch(() => undefined);
    await expect(deliverer.close()).rejects.toBeInstanceOf(AuthError);
    // The run stopped on the refused key: what is handed over now still gets its one outcome (it was
    // dropped unreported, and the pipeline's summary lost count of it).
    await expect(deliverer.push(late!)).rejects.toBeInstanceOf(AuthError);
    await expect(deliverer.pushBody(body)).rejects.toBeInstanceOf(AuthError);
    expect(Object.fromEntries(outcomes)).toEqual({
      'order-1': ['abandoned'],
      'order-2': ['abandoned'],
      'order-3': ['abandoned'],
      'order-4': ['abandoned'],
    });
  });

  it('refuses push() after close()', async () => {
    const { deliverer } = await setup();
    await deliverer.close();
    await expect(deliverer.push(makeItems(1)[0]!)).rejects.toThrow('push() after close()');
  });
});
