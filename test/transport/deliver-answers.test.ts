// Answers that are not the CRM's (a firewall's HTML block page, a captive portal's login page) against a
// real receiver: no record is marked delivered or rejected on their word, and they cost a bounded
// number of requests, not a bisection down to single records.
import { describe, expect, it } from 'vitest';
import type { ScriptedResponse } from '../../src/testing/receiver.js';
import { fakeClock, idOf, makeItems, pushAll, useDeliverySetup } from './helpers.js';

const setup = useDeliverySetup('sk_test_answers');

const wafPage: ScriptedResponse = {
  status: 400,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: '<!DOCTYPE html><html><head><title>Request Rejected</title></head><body><p>The requested URL was rejected. Your support ID is: 1234567890</p></body></html>',
};

describe('non-JSON answers', () => {
  it('an HTML 400 to every request: one batch, one probe record, then the run stops; nothing rejected', async () => {
    const { receiver, deliverer, idsWith, outcomes } = await setup({ intercept: () => wafPage });
    await pushAll(deliverer, makeItems(2000)).catch(() => undefined);
    const closed = deliverer.close();
    await expect(closed).rejects.toThrow(
      /answered HTTP 400 \(text\/html, title "Request Rejected"\) instead of JSON, even to one record sent alone/,
    );
    await expect(closed).rejects.toMatchObject({ kind: 'delivery' });
    // Bisection down to single records made 3,996 requests for 2,000 records (issue #13).
    expect(receiver.requests.map((request) => request.elements)).toEqual([500, 1]);
    expect(idsWith('rejected')).toEqual([]);
    expect(idsWith('delivered')).toEqual([]);
    // Every record pushed before the stop is settled once, as abandoned (pending for the next run).
    expect([...outcomes.values()].every((list) => list.length === 1 && list[0] === 'abandoned')).toBe(true);
  });

  it('the stop message quotes the title, never the page', async () => {
    const { deliverer } = await setup({ intercept: () => wafPage });
    await pushAll(deliverer, makeItems(3)).catch(() => undefined);
    const error = (await deliverer.close().catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('"Request Rejected"');
    expect(error.message).not.toMatch(/support ID|<html|<title/i);
  });

  it('a 200 HTML login page is no proof of delivery: the run stops after that request', async () => {
    const { receiver, deliverer, idsWith } = await setup({}, { batchSize: 10 });
    receiver.script({
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: '<html><head><title>Guest Wi-Fi &ndash; Sign in</title></head><body><form></form></body></html>',
    });
    await pushAll(deliverer, makeItems(40)).catch(() => undefined);
    await expect(deliverer.close()).rejects.toThrow(
      /answered HTTP 200 \(text\/html, title "Guest Wi-Fi – Sign in"\) instead of JSON: no proof the records were stored/,
    );
    expect(receiver.requests).toHaveLength(1);
    expect(idsWith('delivered')).toEqual([]);
    expect(idsWith('abandoned')).toHaveLength(40);
  });

  it.each<[string, ScriptedResponse]>([
    ['an empty 200', { status: 200, body: '' }],
    ['a JSON 200', { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' }],
  ])('%s is a delivery', async (_name, answer) => {
    const { receiver, deliverer, idsWith } = await setup({ intercept: () => answer });
    await pushAll(deliverer, makeItems(5));
    await deliverer.close();
    expect(receiver.requests).toHaveLength(1);
    expect(idsWith('delivered')).toHaveLength(5);
  });

  it('a block page triggered by one record: the probe gets through, bisection finds it, the run stops there', async () => {
    const blocked = 'order-37';
    const { receiver, deliverer, idsWith } = await setup(
      {
        intercept: (elements) =>
          elements?.some((record) => idOf(record as Record<string, unknown>) === blocked)
            ? wafPage
            : undefined,
      },
      { batchSize: 64, concurrency: 1 },
    );
    await pushAll(deliverer, makeItems(64)).catch(() => undefined);
    await expect(deliverer.close()).rejects.toThrow(
      /even to one record sent alone: not the CRM judging the records/,
    );
    // 1 batch + 1 probe + log2(63) halvings, two requests each, at most.
    expect(receiver.requests.length).toBeLessThanOrEqual(2 + 2 * 6);
    expect(receiver.requests.at(-1)?.elements).toBe(1);
    expect(idsWith('rejected')).toEqual([]);
    expect(idsWith('abandoned')).toContain(blocked);
    expect(idsWith('delivered').length).toBeGreaterThan(0);
    expect(new Set(receiver.accepted.map((entry) => idOf(entry.record))).has(blocked)).toBe(false);
  });

  it('a JSON 422 still bisects to the bad record, which is rejected', async () => {
    const { receiver, deliverer, idsWith } = await setup(
      { validate: (record) => (idOf(record as Record<string, unknown>) === 'order-5' ? 'bad' : undefined) },
      { batchSize: 8, concurrency: 1 },
    );
    await pushAll(deliverer, makeItems(8));
    await deliverer.close();
    expect(idsWith('rejected')).toEqual(['order-5']);
    expect(idsWith('delivered')).toHaveLength(7);
    expect(receiver.requests.length).toBeLessThanOrEqual(1 + 2 * 3);
  });
});

describe('waits the server asks for', () => {
  it('reports the Retry-After wait and the status that asked for it', async () => {
    const { receiver, deliverer, retries } = await setup(
      {},
      { maxRetryTimeMs: 3_600_000, ...fakeClock().options },
    );
    receiver.script(
      { status: 429, headers: { 'retry-after': '30' } },
      { status: 503 },
      { status: 503, headers: { 'retry-after': '3600' } },
    );
    await pushAll(deliverer, makeItems(1));
    await deliverer.close();
    expect(retries.map(({ attempt, reason, retryAfterMs }) => ({ attempt, reason, retryAfterMs }))).toEqual([
      { attempt: 1, reason: 'HTTP 429', retryAfterMs: 30_000 },
      { attempt: 2, reason: 'HTTP 503', retryAfterMs: undefined },
      // Capped at maxRetryAfterMs (300 s by default).
      { attempt: 3, reason: 'HTTP 503', retryAfterMs: 300_000 },
    ]);
  });
});
