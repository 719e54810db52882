// A run's values of one currency for the value guard (issue 23, "memory flat"): kept exactly up to
// `exactValues` (the guard's decision over its 20,000 held records is exact), then as a histogram with
// logarithmic bins, so a currency costs at most 512 KiB plus its bins (two 32 KiB windows, and any bin far
// outside them in a Map) however long the run.
//
// Accuracy past `exactValues`: count and zero share stay exact; a median, p90 or p99 is the middle of the
// bin holding the nearest-rank value, within `relativeError` (0.5 %) of it (bins are [g^(i-1), g^i) with
// g = (1 + e) / (1 - e), and 2 g^i / (g + 1) is within e of every value in the bin); an even count's median
// is the mean of two such values. The guard's thresholds are factors (10x) and shares, far from 0.5 %.
import { doubled } from '../../grown-array.js';
import type { ValueStats } from '../../report/run-report.js';
import { valueStats } from './value-stats.js';

/** Values kept as they are before the histogram takes over (8 bytes each). */
export const exactValues = 65_536;
/** Largest relative error of a percentile once binned. */
export const relativeError = 0.005;
const gamma = (1 + relativeError) / (1 - relativeError);
const logGamma = Math.log(gamma);

export class ValueSketch {
  #exact: Float64Array | undefined = new Float64Array(1024);
  #count = 0;
  #zeros = 0;
  /** Counts by bin index, of positive values and of the magnitudes of negative ones. */
  readonly #positive = new BinCounts();
  readonly #negative = new BinCounts();

  add(value: number): void {
    this.#count++;
    const exact = this.#exact;
    if (exact !== undefined && this.#count > exact.length && exact.length >= exactValues) this.#toBins(exact);
    if (this.#exact === undefined) {
      this.#bin(value);
      return;
    }
    if (this.#count > this.#exact.length) this.#exact = doubled(this.#exact);
    this.#exact[this.#count - 1] = value;
  }

  get count(): number {
    return this.#count;
  }

  /** Whether the figures are exact (no more than `exactValues` values so far). */
  get exact(): boolean {
    return this.#exact !== undefined;
  }

  stats(): ValueStats {
    if (this.#exact !== undefined) return valueStats(this.#exact.subarray(0, this.#count));
    // The bins in rank order, gathered once for the four ranks read.
    const negative = this.#negative.ascending().reverse();
    const positive = this.#positive.ascending();
    const at = (rank: number) => this.#valueAt(rank, negative, positive);
    const n = this.#count;
    const middle = n >> 1;
    return {
      count: n,
      median: n % 2 === 1 ? at(middle) : (at(middle - 1) + at(middle)) / 2,
      p90: at(nearestRank(n, 0.9)),
      p99: at(nearestRank(n, 0.99)),
      zeroShare: this.#zeros / n,
    };
  }

  #toBins(exact: Float64Array): void {
    this.#exact = undefined;
    for (const value of exact) this.#bin(value);
  }

  #bin(value: number): void {
    if (value === 0) {
      this.#zeros++;
      return;
    }
    const bins = value > 0 ? this.#positive : this.#negative;
    bins.add(Math.ceil(Math.log(Math.abs(value)) / logGamma));
  }

  /**
   * The value at 0-based `rank` in ascending order: negatives (`negative`, largest magnitude first), zeros, positives
   * (`positive`, smallest first).
   */
  #valueAt(rank: number, negative: Array<[number, number]>, positive: Array<[number, number]>): number {
    let left = rank;
    for (const [index, count] of negative) {
      if (left < count) return -middleOf(index);
      left -= count;
    }
    if (left < this.#zeros) return 0;
    left -= this.#zeros;
    for (const [index, count] of positive) {
      if (left < count) return middleOf(index);
      left -= count;
    }
    return middleOf(positive.at(-1)![0]);
  }
}

/** Bins a window counts (32 KiB): a factor of e^82 (~10^35), from 10^-9 of the first value met to 10^26 times it. */
const windowBins = 8192;

/**
 * Counts by bin index: a window of indexes around the first one met, in a typed array (a Map's get and set were
 * ~half of a value's binning), and a Map for any index past the window (a currency's values span a few thousand
 * bins; the window bounds what a freak value costs).
 */
class BinCounts {
  #low = 0;
  #window: Uint32Array | undefined;
  readonly #outside = new Map<number, number>();

  add(index: number): void {
    this.#window ??= this.#open(index);
    const at = index - this.#low;
    if (at >= 0 && at < windowBins) this.#window[at]! += 1;
    else this.#outside.set(index, (this.#outside.get(index) ?? 0) + 1);
  }

  /** [bin index, count] of every bin holding values, by index ascending. */
  ascending(): Array<[number, number]> {
    const bins: Array<[number, number]> = [...this.#outside];
    const window = this.#window;
    if (window !== undefined) {
      for (let at = 0; at < windowBins; at++) if (window[at] !== 0) bins.push([this.#low + at, window[at]!]);
    }
    return bins.sort((a, b) => a[0] - b[0]);
  }

  /** The window, centred a quarter below the first index (values run up from a currency's first more than down). */
  #open(index: number): Uint32Array {
    this.#low = index - windowBins / 4;
    return new Uint32Array(windowBins);
  }
}

/** 0-based nearest rank of percentile `p` (0..1) among `n` values, as value-stats.ts takes it. */
function nearestRank(n: number, p: number): number {
  return Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1));
}

/** The value within `relativeError` of every value in bin `index`. */
function middleOf(index: number): number {
  return (2 * gamma ** index) / (gamma + 1);
}
