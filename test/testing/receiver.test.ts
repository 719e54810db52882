import { afterEach, describe, expect, it } from 'vitest';
import { type Receiver, type ReceiverOptions, startReceiver } from '../../src/testing/receiver.js';

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function start(options: ReceiverOptions = {}): Promise<Receiver> {
  receiver = await startReceiver(options);
  return receiver;
}

async function post(
  target: Receiver,
  body: string,
  headers: Record<string, string> = {},
  path = '/api/revenues',
): Promise<{ status: number; body: string }> {
  const response = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: await response.text() };
}

describe('startReceiver', () => {
  it('listens on 127.0.0.1 and accepts a JSON array, recording request and elements', async () => {
    const target = await start();
    expect(target.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const answer = await post(target, '[{"conversionId":"a"},{"conversionId":"b"}]', {
      'idempotency-key': 'k1',
    });
    expect(answer).toEqual({ status: 200, body: '{"accepted":2}' });
    expect(target.accepted).toEqual([
      { record: { conversionId: 'a' }, idempotencyKey: 'k1' },
      { record: { conversionId: 'b' }, idempotencyKey: 'k1' },
    ]);
    expect(target.requests).toMatchObject([
      {
        method: 'POST',
        path: '/api/revenues',
        status: 200,
        idempotencyKey: 'k1',
        elements: 2,
        replayed: false,
      },
    ]);
  });

  it.each<[string, ReceiverOptions, string, Record<string, string>, string, number]>([
    ['wrong path', {}, '[]', {}, '/api/other', 404],
    ['missing key', { apiKey: 'secret' }, '[]', {}, '/api/revenues', 401],
    ['wrong key', { apiKey: 'secret' }, '[]', { 'x-api-key': 'nope' }, '/api/revenues', 401],
    ['right key', { apiKey: 'secret' }, '[]', { 'x-api-key': 'secret' }, '/api/revenues', 200],
    ['not JSON', {}, '[{', {}, '/api/revenues', 400],
    ['an object, not an array', {}, '{"a":1}', {}, '/api/revenues', 400],
    ['too many elements', { maxBatch: 2 }, '[1,2,3]', {}, '/api/revenues', 413],
    ['too many bytes', { maxBodyBytes: 10 }, '[1,2,3,4,5,6,7]', {}, '/api/revenues', 413],
  ])('%s -> %i', async (_name, options, body, headers, path, status) => {
    const target = await start(options);
    expect((await post(target, body, headers, path)).status).toBe(status);
    expect(target.accepted.length).toBe(status === 200 ? JSON.parse(body).length : 0);
  });

  it('answers 422 with every bad index and stores nothing', async () => {
    const target = await start({
      validate: (record, index) =>
        (record as { v: number }).v < 0 ? `v must be >= 0 (at ${index})` : undefined,
    });
    const answer = await post(target, '[{"v":1},{"v":-1},{"v":2},{"v":-5}]');
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'invalid elements',
      details: [
        { index: 1, message: 'v must be >= 0 (at 1)' },
        { index: 3, message: 'v must be >= 0 (at 3)' },
      ],
    });
    expect(target.accepted).toEqual([]);
  });

  it('replays an accepted Idempotency-Key without storing twice', async () => {
    const target = await start();
    const headers = { 'idempotency-key': 'same' };
    await post(target, '[{"id":1}]', headers);
    const again = await post(target, '[{"id":1}]', headers);
    expect(again.status).toBe(200);
    expect(target.accepted.length).toBe(1);
    expect(target.requests.map((request) => request.replayed)).toEqual([false, true]);
    expect((await post(target, '[{"id":2}]', headers)).status).toBe(422);
  });

  it('stores every repeat when told not to honour keys', async () => {
    const target = await start({ honourIdempotencyKey: false });
    await post(target, '[{"id":1}]', { 'idempotency-key': 'same' });
    await post(target, '[{"id":1}]', { 'idempotency-key': 'same' });
    expect(target.accepted.length).toBe(2);
  });

  it('plays scripted answers in order, then behaves normally', async () => {
    const target = await start();
    target.script(
      { status: 503, headers: { 'retry-after': '1' }, body: 'busy' },
      { reset: true },
      { delayMs: 20 },
    );
    const first = await fetch(`${target.url}/api/revenues`, { method: 'POST', body: '[1]' });
    expect([first.status, first.headers.get('retry-after'), await first.text()]).toEqual([503, '1', 'busy']);
    await expect(post(target, '[2]')).rejects.toThrow();
    expect((await post(target, '[3]')).status).toBe(200);
    expect((await post(target, '[4]')).status).toBe(200);
    expect(target.requests.map((request) => request.status)).toEqual([503, 0, 200, 200]);
    expect(target.accepted.map((entry) => entry.record)).toEqual([3, 4]);
  });

  it('holds a request until its promise settles and counts it as held', async () => {
    const target = await start();
    let release!: () => void;
    target.script({ until: new Promise<void>((resolve) => (release = resolve)) });
    const pending = post(target, '[1]');
    while (target.held === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(target.requests.length).toBe(0);
    release();
    expect((await pending).status).toBe(200);
    expect(target.held).toBe(0);
  });

  it('draws the same faults for the same seed', async () => {
    const statuses = async () => {
      const target = await startReceiver({
        faults: { seed: 42, error5xx: 0.3, throttle429: 0.2, retryAfterSeconds: 3 },
      });
      const seen: number[] = [];
      for (let i = 0; i < 30; i += 1) seen.push((await post(target, `[${i}]`)).status);
      await target.close();
      return seen;
    };
    const first = await statuses();
    expect(await statuses()).toEqual(first);
    expect(first.filter((status) => status === 200).length).toBeGreaterThan(5);
    expect(first.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(first.filter((status) => status >= 500).length).toBeGreaterThan(0);
  });

  it('stores then resets on resetAfterAccept', async () => {
    const target = await start({ faults: { seed: 1, resetAfterAccept: 1 } });
    await expect(post(target, '[{"id":1}]')).rejects.toThrow();
    expect(target.accepted).toEqual([{ record: { id: 1 } }]);
    expect(target.requests[0]?.status).toBe(0);
  });
});
