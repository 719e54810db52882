// The lexing step of parseAmount on its own: where the sign, the currency and the number body are, and
// which shapes are no amount at all (before any decision on the decimal separator).
import { describe, expect, it } from 'vitest';
import { scanAmount } from '../../src/record/amount-scan.js';

describe('scanAmount', () => {
  it.each([
    ['12.50', { negative: false, currency: undefined, body: '12.50', dots: 1, commas: 0 }],
    ['  -1,249.00 ', { negative: true, currency: undefined, body: '1,249.00', dots: 1, commas: 1 }],
    ['12.50-', { negative: true, currency: undefined, body: '12.50', dots: 1, commas: 0 }],
    ['€-12.50', { negative: true, currency: 'EUR', body: '12.50', dots: 1, commas: 0 }],
    ['-€12.50', { negative: true, currency: 'EUR', body: '12.50', dots: 1, commas: 0 }],
    ['12,50 EUR', { negative: false, currency: 'EUR', body: '12,50', dots: 0, commas: 1 }],
    ['$12.50', { negative: false, currency: undefined, body: '12.50', dots: 1, commas: 0 }],
    ['+1 234,56 zł', { negative: false, currency: 'PLN', body: '1 234,56', dots: 0, commas: 1 }],
  ])('%j', (raw, expected) => {
    const scan = scanAmount(raw)!;
    expect(scan).toBeDefined();
    expect({
      negative: scan.negative,
      currency: scan.currency,
      body: raw.slice(scan.bodyStart, scan.bodyEnd),
      dots: scan.dots,
      commas: scan.commas,
    }).toEqual(expected);
  });

  it('marks a body grouped by spaces or apostrophes, and no space outside two digits', () => {
    expect(scanAmount("1'234.50")?.spacedOrApostrophe).toBe(true);
    expect(scanAmount('1 234,567')?.spacedOrApostrophe).toBe(true);
    expect(scanAmount('1234,567 EUR')?.spacedOrApostrophe).toBe(false);
  });

  it.each(['', '   ', 'abc', 'EUR', '12 abc', '--12', '€12 £', 'EUR 12 GBP', '12-3', '(12.50)'])(
    '%j is no amount',
    (raw) => {
      expect(scanAmount(raw)).toBeUndefined();
    },
  );
});
