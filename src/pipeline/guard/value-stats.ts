// The value figures of one currency (issue 25): count, median, upper percentiles and the share of zeros,
// of a run's valid records or of what a target was delivered before. Pure.
import type { ValueStats } from '../../report/run-report.js';

/** The figures of `values` (any order; not changed). Percentiles by nearest rank; all 0 when empty. */
export function valueStats(values: ArrayLike<number>): ValueStats {
  const count = values.length;
  if (count === 0) return { count: 0, median: 0, p90: 0, p99: 0, zeroShare: 0 };
  // A typed copy sorts numerically and in place, without a comparator call per pair.
  const sorted = Float64Array.from(values).sort();
  let zeros = 0;
  for (const value of sorted) if (value === 0) zeros++;
  return {
    count,
    median: median(sorted),
    p90: rank(sorted, 0.9),
    p99: rank(sorted, 0.99),
    zeroShare: zeros / count,
  };
}

/** The middle value, or the mean of the two middle ones. */
function median(sorted: Float64Array): number {
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The nearest-rank percentile `p` (0..1) of sorted values. */
function rank(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}
