import { describe, expect, it } from 'vitest';
import { idempotencyKey } from '../../src/transport/idempotency.js';
import { idOf, makeItems, pushAll, useDeliverySetup } from './helpers.js';

const setup = useDeliverySetup('sk_test_split');

const bad = new Set(['order-17', 'order-250', 'order-251']);
const validate = (record: unknown) =>
  bad.has(idOf(record as Record<string, unknown>)) ? 'conversionValue refused by policy' : undefined;

describe('bisection of refused batches', () => {
  it.each([1, 4])(
    '3 bad elements among 500 (concurrency %i): 497 delivered, exactly the 3 rejected',
    async (concurrency) => {
      const { receiver, deliverer, messages, idsWith, sent, outcomes } = await setup(
        { validate },
        { concurrency },
      );
      await pushAll(deliverer, makeItems(500));
      const stats = await deliverer.close();
      expect(idsWith('rejected').sort()).toEqual([...bad].sort());
      expect(idsWith('delivered').length).toBe(497);
      expect(outcomes.size).toBe(500);
      for (const id of bad)
        expect(messages.get(id)).toBe('HTTP 422: invalid elements: conversionValue refused by policy');
      const accepted = receiver.accepted.map((entry) => idOf(entry.record));
      expect(new Set(accepted).size).toBe(497);
      expect(accepted.some((id) => bad.has(id))).toBe(false);
      // k bad records in n: at most 2·k·log2(n) requests after the first.
      expect(receiver.requests.length).toBeLessThanOrEqual(2 * 3 * Math.log2(500) + 1);
      expect(stats).toMatchObject({
        batches: 1,
        delivered: 497,
        rejected: 3,
        requests: receiver.requests.length,
      });
      // Every distinct body is announced once, with its own key.
      expect(sent.length).toBe(new Set(receiver.requests.map((request) => request.idempotencyKey)).size);
      expect(stats.splits).toBe(sent.length > 1 ? (sent.length - 1) / 2 : 0);
    },
  );

  it('rejects a single record at once and never splits it', async () => {
    const { receiver, deliverer, messages } = await setup({}, { batchSize: 1 });
    receiver.script({ status: 400, body: '{"message":"conversionCurrency must be ISO 4217"}' });
    await pushAll(deliverer, makeItems(1));
    const stats = await deliverer.close();
    expect(receiver.requests.length).toBe(1);
    expect(messages.get('order-1')).toBe('HTTP 400: conversionCurrency must be ISO 4217');
    expect(stats).toMatchObject({ requests: 1, splits: 0, rejected: 1 });
  });

  it('rejects the whole body on another permanent status, with the server message', async () => {
    const { receiver, deliverer, idsWith, messages } = await setup({}, { batchSize: 10 });
    receiver.script({ status: 418, body: '{"message":"no coffee here"}' });
    await pushAll(deliverer, makeItems(4));
    await deliverer.close();
    expect(receiver.requests.length).toBe(1);
    expect(idsWith('rejected').length).toBe(4);
    expect(messages.get('order-3')).toBe('HTTP 418: no coffee here');
  });

  it('stops the run on a wrong URL (404) instead of rejecting every record: they stay unsent', async () => {
    const { receiver, deliverer, idsWith } = await setup({}, { batchSize: 10 });
    receiver.script({ status: 404, body: 'no such route' });
    await pushAll(deliverer, makeItems(4)).catch(() => undefined);
    await expect(deliverer.close()).rejects.toThrow(/answered HTTP 404: no revenues endpoint/);
    expect(receiver.requests.length).toBe(1);
    expect(idsWith('rejected')).toEqual([]);
    expect(idsWith('abandoned').length).toBe(4);
  });
});

describe('413 handling', () => {
  it('halves a body the server finds too large, then uses the smaller size for later batches', async () => {
    const { receiver, deliverer, idsWith } = await setup(
      { maxBatch: 100 },
      { batchSize: 400, concurrency: 1 },
    );
    await pushAll(deliverer, makeItems(1000));
    const stats = await deliverer.close();
    expect(receiver.requests.map((request) => [request.elements, request.status])).toEqual([
      [400, 413],
      [200, 413],
      [100, 200],
      [100, 200],
      [200, 413],
      [100, 200],
      [100, 200],
      ...Array.from({ length: 6 }, () => [100, 200]),
    ]);
    const accepted = receiver.accepted.map((entry) => idOf(entry.record));
    expect(accepted).toEqual(makeItems(1000).map((item) => item.record.conversionId));
    expect(idsWith('delivered').length).toBe(1000);
    expect(stats).toMatchObject({ batches: 7, splits: 3, delivered: 1000, rejected: 0 });
  });

  it('splits on a byte limit too and delivers everything once', async () => {
    const { receiver, deliverer } = await setup({ maxBodyBytes: 4000 }, { batchSize: 500, concurrency: 2 });
    await pushAll(deliverer, makeItems(300));
    const stats = await deliverer.close();
    const accepted = receiver.accepted.map((entry) => idOf(entry.record));
    expect(accepted.length).toBe(300);
    expect(new Set(accepted).size).toBe(300);
    expect(
      receiver.requests.filter((request) => request.status === 200).every((r) => r.body.length <= 4000),
    ).toBe(true);
    expect(stats.delivered).toBe(300);
  });

  it('rejects a single record that is still too large', async () => {
    const { receiver, deliverer, messages, idsWith } = await setup({ maxBodyBytes: 60 }, { batchSize: 4 });
    await pushAll(deliverer, makeItems(2));
    const stats = await deliverer.close();
    expect(idsWith('rejected').sort()).toEqual(['order-1', 'order-2']);
    expect(messages.get('order-1')).toBe('record too large for the server (HTTP 413)');
    expect(receiver.requests.length).toBe(3);
    expect(stats).toMatchObject({ splits: 1, rejected: 2, delivered: 0 });
  });
});

describe('batching', () => {
  it('closes a body at batchSize records or before it passes maxBodyBytes', async () => {
    const { receiver, deliverer } = await setup({}, { batchSize: 7, maxBodyBytes: 1000 });
    const items = makeItems(40);
    const size = Buffer.byteLength(JSON.stringify(items[0]!.record));
    await pushAll(deliverer, items);
    const stats = await deliverer.close();
    const perBody = Math.min(7, Math.floor((1000 - 1) / (size + 1)));
    for (const request of receiver.requests) {
      expect(request.elements).toBeLessThanOrEqual(perBody);
      expect(Buffer.byteLength(request.body)).toBeLessThanOrEqual(1000);
      expect(request.body).toBe(JSON.stringify(JSON.parse(request.body)));
    }
    expect(receiver.requests.reduce((sum, request) => sum + request.elements, 0)).toBe(40);
    expect(stats.batches).toBe(Math.ceil(40 / perBody));
  });

  it('flush() ends the body early, so a resent group gets its original body and key', async () => {
    const { receiver, deliverer, sent } = await setup({}, { batchSize: 10 });
    const items = makeItems(5);
    await pushAll(deliverer, items.slice(0, 3));
    await deliverer.flush();
    await deliverer.flush();
    await pushAll(deliverer, items.slice(3));
    const stats = await deliverer.close();
    expect(receiver.requests.map((request) => request.elements)).toEqual([3, 2]);
    const firstBody = `[${items
      .slice(0, 3)
      .map((item) => JSON.stringify(item.record))
      .join(',')}]`;
    expect(sent[0]?.key).toBe(idempotencyKey(firstBody));
    expect(receiver.requests[0]?.idempotencyKey).toBe(idempotencyKey(firstBody));
    expect(stats.batches).toBe(2);
  });

  it('sends numbers as numbers and strings as strings, exactly as serialized', async () => {
    const { receiver, deliverer } = await setup();
    await pushAll(deliverer, makeItems(1));
    await deliverer.close();
    expect(receiver.requests[0]?.body).toBe(
      '[{"conversionCurrency":"EUR","conversionValue":10,"conversionDatetime":"2024-03-01T12:00:00.000Z","conversionTimezone":"Europe/Berlin","conversionId":"order-1"}]',
    );
  });
});
