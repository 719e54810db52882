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
