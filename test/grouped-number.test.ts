import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupedNumber } from '../src/grouped-number.js';
import { byCodeUnits } from '../src/text-order.js';

const intl = (n: number, digits: number) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

describe('groupedNumber', () => {
  it.each([
    [0, 3, '0'],
    [-0, 3, '-0'],
    [1234567, 3, '1,234,567'],
    [1234.5678, 2, '1,234.57'],
    [1.005, 2, '1.01'],
    [0.0005, 3, '0.001'],
    [-0.0001, 3, '-0'],
    [9.9996, 3, '10'],
    [999.9999, 3, '1,000'],
    [1e-7, 3, '0'],
    [5e-7, 6, '0.000001'],
    [1.5e21, 3, '1,500,000,000,000,000,000,000'],
    [Number.NaN, 3, 'NaN'],
    [Number.NEGATIVE_INFINITY, 3, '-∞'],
  ])('%d with at most %d decimals -> %s, as Intl writes it', (n, digits, text) => {
    expect(groupedNumber(n, digits)).toBe(text);
    expect(intl(n, digits)).toBe(text);
  });

  it("writes any number as toLocaleString('en-US') does", () => {
    const numbers = fc.oneof(
      fc.double({ noNaN: true }),
      fc.integer().map((n) => n / 1000),
      fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 200 + 0.005),
      fc.constantFrom(0.5, 1.5, 2.5, 0.05, 0.045, 1e21, 123456789.125, 2 ** 53, -(2 ** 60)),
    );
    fc.assert(
      fc.property(numbers, fc.integer({ min: 0, max: 6 }), (n, digits) => {
        expect(groupedNumber(n, digits)).toBe(intl(n, digits));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('byCodeUnits', () => {
  it('orders as < does, the same in every locale', () => {
    expect(['b', 'B', 'a', 'ä', 'A', 'b'].sort(byCodeUnits)).toEqual(['A', 'B', 'a', 'b', 'b', 'ä']);
  });
});
