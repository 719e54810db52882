import { describe, expect, it } from 'vitest';
import { describeBody, isForeignBody, pageTitle } from '../../src/transport/answer-body.js';

const html = { 'content-type': 'text/html; charset=utf-8' };
const json = { 'content-type': 'application/json' };

describe('isForeignBody', () => {
  it.each<[string, Record<string, string>, string, boolean]>([
    ['empty', {}, '', false],
    ['whitespace only', html, ' \r\n ', false],
    ['JSON object, labelled', json, '{"accepted":2}', false],
    ['JSON, unlabelled', {}, '{"accepted":2}', false],
    ['JSON array under text/plain', { 'content-type': 'text/plain' }, '[]', false],
    ['problem+json', { 'content-type': 'application/problem+json' }, '{"title":"bad"}', false],
    // Only 64 KiB of a body is read: a long JSON answer cut at that bound is still JSON by its label...
    ['cut JSON, labelled', json, `{"ids":[${'"a",'.repeat(20_000)}`, false],
    // ...but a short one must parse: a gateway's `200 application/json` "OK" is no proof of delivery.
    ['short non-JSON labelled as JSON', json, 'Login required', true],
    ['broken short JSON, labelled', json, '{"ids":["a","b",', true],
    ['HTML page', html, '<!doctype html><html><title>Sign in</title></html>', true],
    ['HTML labelled as JSON', json, '<html><title>Blocked</title></html>', true],
    ['plain text', { 'content-type': 'text/plain' }, 'OK', true],
    ['text without Content-Type', {}, 'Forbidden', true],
  ])('%s', (_name, headers, text, expected) => {
    expect(isForeignBody(headers, text)).toBe(expected);
  });
});

describe('pageTitle', () => {
  it.each<[string, string, string | undefined]>([
    ['plain', '<html><head><title>Guest Wi-Fi</title></head></html>', 'Guest Wi-Fi'],
    [
      'attributes, case, spread over lines',
      '<TITLE lang="en">\n  Request\n  Rejected\n</TITLE >',
      'Request Rejected',
    ],
    [
      'entities',
      '<title>AT&amp;T &lt;Portal&gt; &#8211; &#x2F;login &quot;x&quot; &nbsp;&apos;y&apos;</title>',
      'AT&T <Portal> – /login "x" \'y\'',
    ],
    ['unknown entity kept', '<title>&bogus; page</title>', '&bogus; page'],
    ['escape sequences dropped', '<title>\u001b[31mred\u001b[0m\u202e!</title>', '[31mred [0m !'],
    ['no title', '<html><body><h1>Hi</h1></body></html>', undefined],
    ['empty title', '<title>  </title>', undefined],
  ])('%s', (_name, page, expected) => {
    expect(pageTitle(page)).toBe(expected);
  });

  it('bounds a long title to 80 characters', () => {
    const title = pageTitle(`<title>${'Access denied '.repeat(30)}</title>`);
    expect(title).toHaveLength(80);
    expect(title?.endsWith('…')).toBe(true);
  });
});

describe('describeBody', () => {
  const page = `<html><head><title>Request Rejected</title></head><body>${'<p>support id 123</p>'.repeat(50)}</body></html>`;

  it.each<[string, Record<string, string>, string, string]>([
    ['HTML page by its title only', html, page, 'text/html, title "Request Rejected"'],
    ['HTML without a title', html, '<html><body>blocked</body></html>', 'text/html, no title'],
    ['markup without Content-Type', {}, '<html><title>Hi</title></html>', 'no Content-Type, title "Hi"'],
    [
      'plain text by its first line',
      { 'content-type': 'text/plain' },
      '\nForbidden\nby policy',
      'text/plain: "Forbidden"',
    ],
  ])('%s', (_name, headers, text, expected) => {
    expect(describeBody(headers, text)).toBe(expected);
  });
});
