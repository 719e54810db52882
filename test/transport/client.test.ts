import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import {
  checkUrl,
  createPool,
  maxResponseBytes,
  postBatch,
  TransportError,
} from '../../src/transport/client.js';

const apiKey = 'sk_live_client_test_0123456789';

let receiver: Receiver;
let pool: ReturnType<typeof createPool>;

beforeEach(async () => {
  receiver = await startReceiver({ apiKey });
  pool = createPool(receiver.url, { connections: 2 });
});
afterEach(async () => {
  await pool.destroy();
  await receiver.close();
});

const request = (overrides: Partial<Parameters<typeof postBatch>[1]> = {}) => ({
  url: checkUrl(receiver.url, false),
  apiKey,
  body: '[{"conversionValue":1.5,"conversionCurrency":"EUR"}]',
  idempotencyKey: 'abc123',
  userAgent: 'revimport/test',
  timeoutMs: 5000,
  ...overrides,
});

describe('postBatch', () => {
  it('sends the body and the four headers, and returns the answer', async () => {
    const response = await postBatch(pool, request());
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toEqual({ accepted: 1 });
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
    const [seen] = receiver.requests;
    expect(seen?.method).toBe('POST');
    expect(seen?.path).toBe('/api/revenues');
    expect(seen?.body).toBe('[{"conversionValue":1.5,"conversionCurrency":"EUR"}]');
    expect(seen?.headers).toMatchObject({
      'x-api-key': apiKey,
      'content-type': 'application/json',
      'user-agent': 'revimport/test',
      'idempotency-key': 'abc123',
    });
  });

  it('keeps only the first 64 KiB of a large answer', async () => {
    receiver.script({ status: 500, body: 'y'.repeat(300 * 1024) });
    const response = await postBatch(pool, request());
    expect(response.status).toBe(500);
    expect(response.text.length).toBe(maxResponseBytes);
  });

  it.each([
    ['a reset socket', () => receiver.script({ reset: true }), 5000, /^(ECONNRESET|UND_ERR_SOCKET)$/],
    ['a time-out', () => receiver.script({ status: 200, delayMs: 3000 }), 100, /^ETIMEDOUT$/],
  ])('throws a TransportError on %s, without the key', async (_name, arrange, timeoutMs, code) => {
    arrange();
    const error = await postBatch(pool, request({ timeoutMs })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toMatch(code);
    expect((error as Error).message).toBe(`no response: ${(error as TransportError).code}`);
    expect(JSON.stringify(error)).not.toContain(apiKey);
    expect(String((error as Error).stack)).not.toContain(apiKey);
  });

  it('throws ABORTED when the caller cancels', async () => {
    receiver.script({ status: 200, delayMs: 3000 });
    const controller = new AbortController();
    const pending = postBatch(pool, request({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'TransportError', code: 'ABORTED' });
  });

  it('throws ECONNREFUSED when nothing listens', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const closedPool = createPool(`http://127.0.0.1:${port}`, { connections: 1 });
    const error = await postBatch(
      closedPool,
      request({ url: checkUrl(`http://127.0.0.1:${port}`, false) }),
    ).catch((caught: unknown) => caught);
    await closedPool.destroy();
    expect(error).toMatchObject({ name: 'TransportError', code: 'ECONNREFUSED' });
  });
});

describe('checkUrl', () => {
  it.each([
    ['https://crm.example.com', 'https://crm.example.com/api/revenues'],
    ['https://crm.example.com/', 'https://crm.example.com/api/revenues'],
    ['https://crm.example.com/tenant/42//', 'https://crm.example.com/tenant/42/api/revenues'],
    ['https://crm.example.com:8443/x#frag', 'https://crm.example.com:8443/x/api/revenues'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/api/revenues'],
    ['http://127.5.6.7', 'http://127.5.6.7/api/revenues'],
    ['http://localhost:3000/base/', 'http://localhost:3000/base/api/revenues'],
    ['http://[::1]:3000', 'http://[::1]:3000/api/revenues'],
  ])('%s -> %s', (base, expected) => {
    expect(checkUrl(base, false).href).toBe(expected);
  });

  it('allows plain http to another host only with allowHttp', () => {
    expect(() => checkUrl('http://crm.example.com', false)).toThrow(UsageError);
    expect(() => checkUrl('http://crm.example.com', false)).toThrow(/plain http to crm\.example\.com/);
    expect(checkUrl('http://crm.example.com', true).href).toBe('http://crm.example.com/api/revenues');
  });

  it.each([
    ['ftp://crm.example.com', /must use https \(got ftp\)/],
    ['not a url', /^the base URL "not a url" is not a URL: it contains a space$/],
    ['crm.example.com', /^the base URL "crm.example.com" is not a URL: it has no scheme \(https:\/\/\)$/],
    ['localhost:8787', /"localhost:8787" is not a URL: it has no scheme/],
    [
      'https://crm.example.com:99999',
      /"https:\/\/crm.example.com:99999" is not a URL: the host or port cannot be read/,
    ],
    ['https://u:sk_secret_in_url@crm example.com', /"https:\/\/\*\*\*@crm example.com" is not a URL/],
    ['https://crm example.com/?k=sk_secret_in_url', /"https:\/\/crm example.com\/\?\*\*\*" is not a URL/],
    ['https://user:sk_secret_in_url@crm.example.com', /must not contain credentials/],
    ['https://crm.example.com/?api_key=sk_secret_in_url', /must not contain a query string/],
    ['http://128.0.0.1', /plain http/],
    ['http://localhost.evil.com', /plain http/],
  ])('refuses %s', (base, message) => {
    const error = (() => {
      try {
        checkUrl(base, false);
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect(error?.message).toMatch(message);
    expect(error?.message).not.toContain('sk_secret_in_url');
  });
});
