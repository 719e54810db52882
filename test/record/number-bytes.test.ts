import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberBytesMax, writeNumber } from '../../src/record/number-bytes.js';

/** What writeNumber wrote for `value`, as text. */
function written(value: number, at = 0): string {
  const out = new Uint8Array(at + numberBytesMax);
  const end = writeNumber(out, at, value);
  return Buffer.from(out.subarray(at, end)).toString('latin1');
}

/** Whole cents up to 10^16 in magnitude: both sides of the 10^14 bound, and every count of decimals. */
const cents = fc.oneof(
  fc.integer({ min: -100_000, max: 100_000 }),
  fc.integer({ min: -(2 ** 53 - 1), max: 2 ** 53 - 1 }),
  fc.integer({ min: 99_999_999_990_000, max: 100_000_000_010_000 }).map((c) => (c % 2 === 0 ? c : -c)),
);

describe('writeNumber', () => {
  it('writes String(value) for any double, the non-finite ones included (property)', () => {
    fc.assert(
      fc.property(fc.double(), fc.nat(8), (value, at) => {
        expect(written(value, at)).toBe(String(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('writes String(value) for amounts of whole cents, where it takes its own path (property)', () => {
    fc.assert(
      fc.property(cents, (count) => {
        const value = count / 100;
        expect(written(value)).toBe(String(value));
      }),
      { numRuns: 50_000 },
    );
  });

  it.each([
    0,
    -0,
    0.01,
    -0.01,
    0.1,
    0.5,
    1,
    10,
    100.5,
    313.36,
    -313.3,
    12_345_678.9,
    999_999_999_999.99,
    1_000_000_000_000.01,
    1e21,
    1e-7,
    0.1 + 0.2,
    2 ** 53,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ])('writes %d as String() does', (value) => {
    expect(written(value)).toBe(String(value));
  });

  it('returns where its bytes end, past `at`, within numberBytesMax', () => {
    const out = new Uint8Array(40).fill(0x21);
    const end = writeNumber(out, 5, -1.2345678901234567e-308);
    expect(end - 5).toBe(String(-1.2345678901234567e-308).length);
    expect(end - 5).toBeLessThanOrEqual(numberBytesMax);
    expect(out[4]).toBe(0x21);
    expect(out[end]).toBe(0x21);
  });
});
