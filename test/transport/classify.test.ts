import { describe, expect, it } from 'vitest';
import { classify, type Outcome, serverMessage } from '../../src/transport/classify.js';

const now = Date.parse('2024-03-01T12:00:00Z');
const retry = (throttle: boolean, afterMs?: number): Outcome => ({ kind: 'retry', throttle, afterMs });

describe('classify', () => {
  it.each<[string, number, Record<string, string>, Outcome]>([
    ['200 OK', 200, {}, { kind: 'delivered' }],
    ['201 Created', 201, {}, { kind: 'delivered' }],
    ['202 Accepted', 202, {}, { kind: 'delivered' }],
    ['204 No Content', 204, {}, { kind: 'delivered' }],
    ['207 Multi-Status', 207, {}, { kind: 'delivered' }],
    ['401 Unauthorized', 401, {}, { kind: 'auth' }],
    ['403 Forbidden', 403, {}, { kind: 'auth' }],
    ['400 Bad Request', 400, {}, { kind: 'split-rejected' }],
    ['422 Unprocessable', 422, {}, { kind: 'split-rejected' }],
    ['413 Too Large', 413, {}, { kind: 'too-large' }],
    ['408 Request Timeout', 408, {}, retry(false)],
    ['409 key in progress (IETF draft)', 409, {}, retry(false)],
    ['425 Too Early', 425, {}, retry(false)],
    ['429 without Retry-After', 429, {}, retry(true)],
    ['429 Retry-After seconds', 429, { 'retry-after': '7' }, retry(true, 7000)],
    ['429 Retry-After date', 429, { 'retry-after': 'Fri, 01 Mar 2024 12:01:00 GMT' }, retry(true, 60_000)],
    ['503 Retry-After', 503, { 'retry-after': '2' }, retry(true, 2000)],
    ['500', 500, {}, retry(false)],
    ['502', 502, {}, retry(false)],
    ['504', 504, {}, retry(false)],
    ['599 (other 5xx)', 599, {}, retry(false)],
    ['501 Not Implemented', 501, {}, { kind: 'rejected', message: 'HTTP 501' }],
    ['505 HTTP Version', 505, {}, { kind: 'rejected', message: 'HTTP 505' }],
    [
      '407 from a proxy in front of a plain-http URL: a setting, not the records',
      407,
      {},
      { kind: 'endpoint', message: 'HTTP 407: the proxy asks for a login (user:password@ in the proxy URL)' },
    ],
    [
      '404 Not Found',
      404,
      {},
      { kind: 'endpoint', message: 'HTTP 404: no revenues endpoint at this URL; check the base URL' },
    ],
    [
      '405 Method Not Allowed',
      405,
      {},
      { kind: 'endpoint', message: 'HTTP 405: no revenues endpoint at this URL; check the base URL' },
    ],
    [
      '410 Gone',
      410,
      {},
      { kind: 'endpoint', message: 'HTTP 410: no revenues endpoint at this URL; check the base URL' },
    ],
    ['100 Continue as final', 100, {}, { kind: 'rejected', message: 'HTTP 100' }],
    ['409 Conflict is retried (same key in progress)', 409, {}, retry(false)],
    ['418 other 4xx', 418, {}, { kind: 'rejected', message: 'HTTP 418' }],
    [
      '301 redirect',
      301,
      { location: 'https://new.example.com/api/revenues' },
      {
        kind: 'endpoint',
        message:
          'HTTP 301: redirect to https://new.example.com/api/revenues not followed; check the base URL',
      },
    ],
    [
      '307 without Location',
      307,
      {},
      { kind: 'endpoint', message: 'HTTP 307: redirect to (no Location) not followed; check the base URL' },
    ],
  ])('%s', (_name, status, headers, expected) => {
    expect(classify(status, headers, now)).toEqual(expected);
  });

  const page =
    '<html><head><title>Sign in &ndash; Guest Wi-Fi</title></head><body><form>…</form></body></html>';
  const html = { 'content-type': 'text/html' };
  it.each<[string, number, Record<string, string>, string, Outcome]>([
    ['200 empty body', 200, {}, '', { kind: 'delivered' }],
    ['200 JSON', 200, { 'content-type': 'application/json' }, '{"accepted":3}', { kind: 'delivered' }],
    [
      '200 HTML login page',
      200,
      html,
      page,
      { kind: 'unproven', answer: 'text/html, title "Sign in – Guest Wi-Fi"' },
    ],
    [
      '204 text',
      204,
      { 'content-type': 'text/plain' },
      'OK',
      { kind: 'unproven', answer: 'text/plain: "OK"' },
    ],
    [
      '400 HTML block page',
      400,
      html,
      '<title>Request Rejected</title>',
      { kind: 'foreign', answer: 'text/html, title "Request Rejected"' },
    ],
    ['422 HTML', 422, html, '<p>no</p>', { kind: 'foreign', answer: 'text/html, no title' }],
    [
      '406 HTML',
      406,
      html,
      '<title>Not Acceptable!</title>',
      { kind: 'foreign', answer: 'text/html, title "Not Acceptable!"' },
    ],
    [
      '400 JSON naming bad elements',
      400,
      { 'content-type': 'application/json' },
      '{"errors":[]}',
      { kind: 'split-rejected' },
    ],
    ['400 empty body', 400, html, '', { kind: 'split-rejected' }],
    ['403 HTML stays auth', 403, html, page, { kind: 'auth' }],
    [
      '413 HTML stays too-large',
      413,
      html,
      '<title>413 Request Entity Too Large</title>',
      { kind: 'too-large' },
    ],
    ['502 HTML stays retry', 502, html, '<title>502 Bad Gateway</title>', retry(false)],
  ])('%s with its body', (_name, status, headers, text, expected) => {
    expect(classify(status, headers, now, text)).toEqual(expected);
  });

  it('reads the first value of a repeated header', () => {
    expect(classify(429, { 'retry-after': ['3', '9'] }, now)).toEqual(retry(true, 3000));
  });
});

describe('serverMessage', () => {
  it.each([
    [
      422,
      '{"error":"invalid elements","details":[{"index":0,"message":"bad currency"}]}',
      'HTTP 422: invalid elements: bad currency',
    ],
    [400, '{"message":"conversionValue must be a number"}', 'HTTP 400: conversionValue must be a number'],
    [400, '{"errors":["a","b"]}', 'HTTP 400: a; b'],
    [404, '<html>\n  Not   Found </html>', 'HTTP 404: <html> Not Found </html>'],
    [410, '', 'HTTP 410'],
    [400, '{}', 'HTTP 400: {}'],
  ])('%i %j -> %j', (status, text, expected) => {
    expect(serverMessage(status, text)).toBe(expected);
  });

  it('cuts long bodies to 500 characters', () => {
    const message = serverMessage(500, 'x'.repeat(10_000));
    expect(message.length).toBe('HTTP 500: '.length + 500);
    expect(message.endsWith('…')).toBe(true);
  });
});
