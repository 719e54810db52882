// The guard's per-currency values (issue 23): exact up to exactValues, then binned within relativeError,
// so a run of millions keeps a few thousand bins instead of 8 bytes a record.
import { describe, expect, it } from 'vitest';
import { exactValues, relativeError, ValueSketch } from '../../../src/pipeline/guard/value-sketch.js';
import { valueStats } from '../../../src/pipeline/guard/value-stats.js';

/** Deterministic values with two decimals, some zeros and, with `negative`, some refunds. */
function values(n: number, negative = false): number[] {
  let seed = 7;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  return Array.from({ length: n }, () => {
    const r = next();
    if (r < 0.05) return 0;
    const value = Math.round(next() * next() * 500_000) / 100;
    return negative && r < 0.2 ? -value : value;
  });
}

const sketchOf = (list: number[]) => {
  const sketch = new ValueSketch();
  for (const value of list) sketch.add(value);
  return sketch;
};

describe('ValueSketch', () => {
  it('gives the exact figures up to exactValues', () => {
    const list = values(exactValues);
    const sketch = sketchOf(list);
    expect(sketch.exact).toBe(true);
    expect(sketch.stats()).toEqual(valueStats(list));
    expect(sketchOf([5, 0, 1, 3, 0, 2, 4, 0, 9, 7]).stats()).toEqual(
      valueStats([5, 0, 1, 3, 0, 2, 4, 0, 9, 7]),
    );
    expect(new ValueSketch().stats()).toEqual(valueStats([]));
  });

  it.each([
    ['positive', false],
    ['with refunds', true],
  ])(
    'past exactValues (%s): count and zero share exact, percentiles within the relative error',
    (_, negative) => {
      const list = values(exactValues * 3 + 17, negative);
      const sketch = sketchOf(list);
      expect(sketch.exact).toBe(false);
      const got = sketch.stats();
      const want = valueStats(list);
      expect(got.count).toBe(want.count);
      expect(got.zeroShare).toBe(want.zeroShare);
      for (const key of ['median', 'p90', 'p99'] as const) {
        expect(Math.abs(got[key] - want[key])).toBeLessThanOrEqual(
          Math.abs(want[key]) * relativeError + 1e-9,
        );
      }
    },
  );
});

describe('ValueSketch bins', () => {
  it('keeps values far past its window (tiny, huge, both signs) within the relative error', () => {
    // 0.01 first opens the window there; the rest lie far below and above it (and past it: 1e-30, 1e40, 1e300).
    const spread = [0.01, 5, 1e-30, 1e40, 1e300, 5e-324, -1e-30, -1e40, -7.5, 123_456.78, 1e26, 1e-12];
    const list = [
      ...values(exactValues + 1, true),
      ...Array.from({ length: 2001 }, (_, i) => spread[i % spread.length]!),
    ];
    const got = sketchOf(list).stats();
    const want = valueStats(list);
    expect(got.count).toBe(want.count);
    expect(got.zeroShare).toBe(want.zeroShare);
    for (const key of ['median', 'p90', 'p99'] as const) {
      expect(Math.abs(got[key] - want[key])).toBeLessThanOrEqual(Math.abs(want[key]) * relativeError + 1e-9);
    }
  });

  it('ranks a run of only far values as the exact figures do, within the relative error', () => {
    // Every value past the first window: the ranks then come from the bins outside it alone.
    const far = Array.from(
      { length: exactValues + 999 },
      (_, i) => (i % 3 === 0 ? 1e200 : i % 3 === 1 ? 3e-200 : -2e150) * (1 + (i % 7) / 10),
    );
    const sketch = new ValueSketch();
    sketch.add(1);
    for (const value of far) sketch.add(value);
    const got = sketch.stats();
    const want = valueStats([1, ...far]);
    for (const key of ['median', 'p90', 'p99'] as const) {
      expect(Math.abs(got[key] - want[key])).toBeLessThanOrEqual(
        Math.abs(want[key]) * relativeError * 1.0001,
      );
    }
  });
});
