import { describe, expect, it } from 'vitest';
import { escapeControls, preview, quote } from '../src/quote.js';
import { hostileCells, unprintableIn } from './helpers/unprintable.js';

describe('quote', () => {
  it.each(hostileCells)('escapes every control character of %j and keeps it readable', (cell) => {
    const shown = quote(cell);
    expect(unprintableIn(shown)).toEqual([]);
    expect(shown).not.toContain('\n');
    // The escapes are JSON's: reading them back gives the cell.
    expect(JSON.parse(shown)).toBe(cell);
  });

  it('quotes plain text as JSON does, and cuts a long cell', () => {
    expect(quote('EURO')).toBe('"EURO"');
    expect(quote('say "hi"')).toBe('"say \\"hi\\""');
    expect(quote(12.5)).toBe('"12.5"');
    expect(quote('x'.repeat(100))).toBe(`"${'x'.repeat(80)}…"`);
  });

  it('shows a non-text value bounded, its controls escaped', () => {
    expect(quote({ a: ['\u001b'] })).toBe('{"a":["\\u001b"]}');
  });
});

describe('escapeControls', () => {
  it('keeps line feeds and tabs when asked (the layout of a message), escapes the rest', () => {
    expect(escapeControls('a\tb\nc\u001bd\re', true)).toBe('a\tb\nc\\u001bd\\u000de');
    expect(escapeControls('a\nb')).toBe('a\\u000ab');
  });

  it('returns text without controls unchanged, so JSON stays the same JSON', () => {
    const json = JSON.stringify({ v: 'Été 😀 "q" \\' });
    expect(escapeControls(json, true)).toBe(json);
    const c1 = JSON.stringify({ v: 'x\u009by' });
    expect(JSON.parse(escapeControls(c1, true))).toEqual({ v: 'x\u009by' });
  });
});

describe('preview', () => {
  it('shows a value nested 5,000 levels deep without recursing into it', () => {
    const text = '['.repeat(5000) + ']'.repeat(5000);
    const deep = JSON.parse(text);
    const shown = preview(deep);
    expect(shown.startsWith('[[[[')).toBe(true);
    expect(shown).toContain('[…]');
    expect(shown.length).toBeLessThan(210);
    let object: unknown = 1;
    for (let i = 0; i < 5000; i++) object = { a: object };
    expect(preview(object)).toContain('{…}');
  });

  it('stops at its bound in a wide value', () => {
    const wide = Array.from({ length: 100_000 }, (_, i) => i);
    expect(preview(wide, 50)).toMatch(/^\[0,1,2,.*…$/);
    expect(preview(wide, 50).length).toBeLessThanOrEqual(51);
  });

  it('shows text as it is, cut', () => {
    expect(preview('abc')).toBe('abc');
    expect(preview('x'.repeat(300))).toBe(`${'x'.repeat(200)}…`);
    expect(preview({ __proto__: null, k: true, n: null })).toBe('{"k":true,"n":null}');
  });
});
