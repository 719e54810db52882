import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffCap, backoffDelay, parseRetryAfter } from '../../src/transport/backoff.js';

const now = Date.parse('2024-03-01T12:00:00Z');

describe('backoffDelay', () => {
  it.each([
    // attempt, random, expected (base 500, cap 30_000)
    [1, 0.999_999, 499],
    [1, 0, 0],
    [2, 0.5, 500],
    [3, 0.5, 1000],
    [7, 0.5, 15_000],
    [8, 0.999_999, 29_999],
    [60, 0.5, 15_000],
  ])('attempt %i with random %f waits %i ms', (attempt, random, expected) => {
    expect(backoffDelay(attempt, { baseMs: 500, capMs: 30_000 }, () => random)).toBe(expected);
  });

  it('stays within [0, min(cap, base * 2^(attempt-1)))', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, baseMs, capMs, random) => {
          const delay = backoffDelay(attempt, { baseMs, capMs }, () => random);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(Math.min(capMs, baseMs * 2 ** (attempt - 1)));
          expect(Number.isInteger(delay)).toBe(true);
        },
      ),
    );
  });
});

describe('parseRetryAfter', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['soon', undefined],
    ['1', 1000],
    ['0', 0],
    [' 120 ', 120_000],
    ['1.5', 1500],
    ['-3', 0],
    ['Fri, 01 Mar 2024 12:00:30 GMT', 30_000],
    ['Friday, 01-Mar-24 12:01:00 GMT', 60_000],
    ['Fri Mar  1 12:00:10 2024', 10_000],
    ['Thu, 29 Feb 2024 12:00:00 GMT', 0],
    ['Fri, 99 Foo 2024 12:00:00 GMT', undefined],
  ])('%j -> %j ms (asctime read as GMT whatever TZ is)', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('backoffCap', () => {
  it.each([
    [300_000, 30_000],
    [3_600_000, 30_000],
    [60_000, 6_000],
    [4_000, 400],
    [5, 1],
  ])('a retry budget of %i ms waits at most %i ms between tries', (budget, cap) => {
    expect(backoffCap(budget)).toBe(cap);
  });
});
