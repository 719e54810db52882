import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  exactAmountLimit,
  fromMinorUnits,
  isExactAmount,
  parseAmount,
  roundToMinor,
  toMinorUnits,
} from '../../src/record/money.js';

describe('parseAmount, decimal inferred', () => {
  it.each([
    ['12', 12],
    ['12.50', 12.5],
    ['1,249.00', 1249],
    ['1.149,00', 1149],
    ['14,9', 14.9],
    ['1 234,56', 1234.56],
    ['1\u00a0234,56', 1234.56],
    ['1\u202f234,56', 1234.56],
    ["1'234.50", 1234.5],
    ['1\u2019234.50', 1234.5],
    ['1,234,567', 1234567],
    ['1.234.567', 1234567],
    ['1.234.567,89', 1234567.89],
    ['1,23,456.78', 123456.78],
    ['12.5000', 12.5],
    ['1,2345', 1.2345],
    ['0,125', 0.125],
    ['0.125', 0.125],
    ['1234,567', 1234.567],
    ['1 234,567', 1234.567],
    ['.5', 0.5],
    ['  7.25  ', 7.25],
    ['-12.50', -12.5],
    ['\u221212.50', -12.5],
    ['+12.50', 12.5],
    ['12.50-', -12.5],
    ['-0', 0],
    ['0.1', 0.1],
    ['123456789012345678', Number('123456789012345678')],
    ['0.30000000000000004', 0.30000000000000004],
  ])('%j -> %d', (raw, value) => {
    expect(parseAmount(raw)).toEqual({ ok: true, value });
  });

  it.each([
    ['€12.50', 12.5, 'EUR'],
    ['12.50 EUR', 12.5, 'EUR'],
    ['EUR 12,50', 12.5, 'EUR'],
    ['12,50 €', 12.5, 'EUR'],
    ['12,50€', 12.5, 'EUR'],
    ['eur 12,50', 12.5, 'EUR'],
    ['-€12.50', -12.5, 'EUR'],
    ['€-12.50', -12.5, 'EUR'],
    ['EUR -12,50', -12.5, 'EUR'],
    ['£1,249.00', 1249, 'GBP'],
    ['R$ 1.234,56', 1234.56, 'BRL'],
    ['1 234,56 zł', 1234.56, 'PLN'],
    ['₹1,23,456.00', 123456, 'INR'],
    ["CHF 1'234.50", 1234.5, 'CHF'],
    ['US$5', 5, 'USD'],
    ['€12.50 EUR', 12.5, 'EUR'],
  ])('%j -> %d %s', (raw, value, currency) => {
    expect(parseAmount(raw)).toEqual({ ok: true, value, currency });
  });

  it.each([
    ['$1,249.00', 1249],
    ['1,249.00 $', 1249],
    ['¥1235', 1235],
    ['kr 12,50', 12.5],
  ])('%j parses without a currency (ambiguous symbol)', (raw, value) => {
    expect(parseAmount(raw)).toEqual({ ok: true, value });
  });

  it.each(['1,234', '1.234', '12,345', '999.999', '-1,234', '€1.234'])('%j is ambiguous', (raw) => {
    const result = parseAmount(raw);
    expect(result).toMatchObject({ ok: false, reason: 'ambiguous number' });
    expect(!result.ok && result.message).toContain('decimal: "." or decimal: ","');
  });

  it('explains both readings of an ambiguous value', () => {
    const result = parseAmount('1,234');
    expect(!result.ok && result.message).toBe(
      '"1,234" is ambiguous: it is 1234 if "," groups thousands but 1.234 if "," is the decimal separator; ' +
        'set decimal: "." or decimal: "," for this field in the mapping.',
    );
  });

  it.each([
    '',
    '   ',
    '--',
    '-',
    'NaN',
    'nan',
    'n/a',
    'abc',
    '12abc',
    '(12.50)',
    '1.2.3',
    '1,2,3',
    '12.',
    '1,234.567.89',
    '12,34,56',
    '1,2345,678',
    '12 34',
    '1..2',
    '€5 USD',
    'EURO 5',
    '5 EURO',
    '--5',
    '- 5 -',
    'Infinity',
    '1e5',
    '0x10',
  ])('%j is an invalid number', (raw) => {
    expect(parseAmount(raw)).toMatchObject({ ok: false, reason: 'invalid number' });
  });
});

describe('parseAmount, decimal set', () => {
  it.each([
    ['1,234', '.', 1234],
    ['1,234', ',', 1.234],
    ['1.234', '.', 1.234],
    ['1.234', ',', 1234],
    ['1.234.567,8', ',', 1234567.8],
    ['1,234,567.8', '.', 1234567.8],
    ['1 234', ',', 1234],
    ['12', '.', 12],
    ['0,5', ',', 0.5],
  ] as const)('%j with decimal %j -> %d', (raw, decimal, value) => {
    expect(parseAmount(raw, { decimal })).toEqual({ ok: true, value });
  });

  it.each([
    ['1,2.5', '.'],
    ['1.234,56', '.'],
    ['1,234.56', ','],
    ['1.2.3', '.'],
    ['12,34', '.'],
  ] as const)('%j with decimal %j is invalid', (raw, decimal) => {
    expect(parseAmount(raw, { decimal })).toMatchObject({ ok: false, reason: 'invalid number' });
  });
});

describe('parseAmount, JSON numbers', () => {
  it.each([12.5, 0, -3, 1e21])('%d passes through', (value) => {
    expect(parseAmount(value)).toEqual({ ok: true, value });
  });

  it('NaN is invalid', () => {
    expect(parseAmount(Number.NaN)).toMatchObject({ ok: false, reason: 'invalid number' });
  });

  it('Infinity (a JSON 1e400) is too large', () => {
    expect(parseAmount(JSON.parse('1e400'))).toMatchObject({ ok: false, reason: 'amount too large' });
  });
});

describe('amounts past what a double holds (issue 24)', () => {
  it.each([`1${'0'.repeat(309)}`, `-1${'0'.repeat(400)}.50`, `€1${'0'.repeat(309)}`])(
    'a string that parses to Infinity is too large, not an amount',
    (raw) => {
      const result = parseAmount(raw);
      expect(result).toMatchObject({ ok: false, reason: 'amount too large' });
      expect(result.ok === false && result.message).toMatch(
        /^"-?€?10{70,}…" is too large to be an amount\.$/,
      );
    },
  );

  it.each([
    ['EUR', '90071992547409.91'],
    ['JPY', '9007199254740991'],
    ['KWD', '9007199254740.991'],
  ])('%s is exact in minor units up to %s', (currency, text) => {
    expect(exactAmountLimit(currency)).toBe(text);
    const limit = Number(text);
    expect(isExactAmount(limit, currency)).toBe(true);
    expect(isExactAmount(-limit, currency)).toBe(true);
    expect(isExactAmount(limit * 1.001, currency)).toBe(false);
  });

  it.each([1e307, -1e307, Number.POSITIVE_INFINITY, Number.NaN])(
    '%d EUR is not an amount to send',
    (value) => {
      expect(isExactAmount(value, 'EUR')).toBe(false);
    },
  );
});

describe('roundToMinor / toMinorUnits / fromMinorUnits', () => {
  it.each([
    [1.005, 'EUR', 1.01, 101],
    [2.675, 'EUR', 2.68, 268],
    [1.015, 'EUR', 1.02, 102],
    [0.125, 'EUR', 0.13, 13],
    [12.344999, 'EUR', 12.34, 1234],
    [-1.005, 'EUR', -1.01, -101],
    [-0.001, 'EUR', 0, 0],
    [1234.5, 'JPY', 1235, 1235],
    [1234.4999, 'JPY', 1234, 1234],
    [-1234.5, 'JPY', -1235, -1235],
    [1.2345, 'KWD', 1.235, 1235],
    [1.2344, 'KWD', 1.234, 1234],
    [1e-7, 'EUR', 0, 0],
    [1e21, 'JPY', 1e21, 1e21],
    [123456.785, 'EUR', 123456.79, 12345679],
    [0.1 + 0.2, 'EUR', 0.3, 30],
    // ISO 4217 minor units, not Intl's display digits (0 for HUF, COP and IQD).
    [739.35, 'HUF', 739.35, 73935],
    [162.45, 'COP', 162.45, 16245],
    [1.2345, 'IQD', 1.235, 1235],
    [1.2345, 'CLF', 1.2345, 12345],
    [1.23456, 'CLF', 1.2346, 12346],
  ])('%d %s -> %d (%d minor)', (value, currency, rounded, minor) => {
    expect(roundToMinor(value, currency)).toBe(rounded);
    expect(toMinorUnits(value, currency)).toBe(minor);
    expect(Object.is(toMinorUnits(value, currency), -0)).toBe(false);
  });

  it('converts minor units back', () => {
    expect(fromMinorUnits(1235, 'EUR')).toBe(12.35);
    expect(fromMinorUnits(1235, 'JPY')).toBe(1235);
    expect(fromMinorUnits(1235, 'KWD')).toBe(1.235);
  });

  it('rounds every 3-decimal EUR amount half up, as decimal arithmetic does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), (thousandths) => {
        const value = Number((thousandths / 1000).toFixed(3));
        const magnitude = Math.abs(thousandths);
        const expected = Math.floor(magnitude / 10) + (magnitude % 10 >= 5 ? 1 : 0);
        expect(toMinorUnits(value, 'EUR')).toBe(thousandths < 0 && expected !== 0 ? -expected : expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('throws RangeError for a non-finite value', () => {
    expect(() => toMinorUnits(Number.NaN, 'EUR')).toThrow(RangeError);
  });
});
