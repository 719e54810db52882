// The value guard's pure checks (issue 25): figures of a set of values, the comparison with a target's
// history, the stop message, and the days a run leaves out of a daily series.
import { describe, expect, it } from 'vitest';
import { defaults } from '../../../src/config/settings.js';
import { compareValues, type StatsByCurrency } from '../../../src/pipeline/guard/compare-values.js';
import { stopMessage } from '../../../src/pipeline/guard/guard-message.js';
import { missingDays } from '../../../src/pipeline/guard/missing-days.js';
import { valueStats } from '../../../src/pipeline/guard/value-stats.js';
import { dayText, localDayNumber } from '../../../src/record/local-day.js';

const localDayOf = (iso: string, zone: string) => dayText(localDayNumber(iso, zone));

const thresholds = defaults.guard;
/** 50 ordinary orders, 10.00 to 59.00. */
const ordinary = Array.from({ length: 50 }, (_, i) => 10 + i);
const history: StatsByCurrency = { USD: valueStats(ordinary) };

describe('valueStats', () => {
  it('gives count, median, nearest-rank percentiles and the share of zeros', () => {
    expect(valueStats([5, 0, 1, 3, 0, 2, 4, 0, 9, 7])).toEqual({
      count: 10,
      median: 2.5,
      p90: 7,
      p99: 9,
      zeroShare: 0.3,
    });
    expect(valueStats([3, 1, 2])).toMatchObject({ median: 2, p90: 3, p99: 3 });
    expect(valueStats([])).toEqual({ count: 0, median: 0, p90: 0, p99: 0, zeroShare: 0 });
  });
});

describe('compareValues', () => {
  const run = (values: number[], currency = 'USD'): StatsByCurrency => ({ [currency]: valueStats(values) });

  it.each([
    ['an ordinary next day', ordinary.slice(5, 25), 'passed', []],
    ['cents (every value x100)', ordinary.map((v) => v * 100), 'stopped', ['median-shift']],
    ['a shipping column (~1/10)', ordinary.map((v) => v / 10), 'stopped', ['median-shift']],
    ['9 times: under the factor', ordinary.map((v) => v * 9), 'passed', []],
    ['a third zeros', [...ordinary.slice(0, 20), ...Array(10).fill(0)], 'stopped', ['zero-share']],
    // Fewer than minRun (5) records: one large order or one free order is no shift.
    ['one large order (12x the median)', [420], 'passed', []],
    ['one free order', [0], 'passed', []],
    ['a small run of refunds and one sale', [-20, -30, 45, 0], 'passed', []],
    ['five orders in cents', [1200, 2500, 3100, 4000, 5600], 'stopped', ['median-shift']],
    // The other sign: refunds sent as revenue (allowNegative), which no ratio of sizes shows.
    ['refunds as revenue', ordinary.map((v) => -v), 'stopped', ['median-shift']],
  ])('%s: %s', (_name, values, verdict, kinds) => {
    const comparison = compareValues(run(values), history, thresholds);
    expect(comparison.verdict).toBe(verdict);
    expect(comparison.findings.map((f) => f.kind)).toEqual(kinds);
  });

  it('names the figure and the history it was compared with', () => {
    const [finding] = compareValues(run(ordinary.map((v) => v * 100)), history, thresholds).findings;
    expect(finding!.message).toBe(
      "USD: the median value of this run's 50 records is 3,450, 100 times the median 34.5 of 50 records " +
        'delivered to this target before (90th percentile 5,400 against 54)',
    );
  });

  it('finds a currency the target never had, naming what it has', () => {
    const comparison = compareValues(run([1000, 2000], 'JPY'), history, thresholds);
    expect(comparison.verdict).toBe('stopped');
    expect(comparison.findings).toEqual([
      {
        kind: 'new-currency',
        currency: 'JPY',
        message:
          'JPY: 2 records in a currency this target was never delivered before (it has USD (50 records))',
      },
    ]);
  });

  it('says nothing without history: none at all, or too few records of the currency', () => {
    expect(compareValues(run([1, 2, 3]), {}, thresholds)).toMatchObject({
      verdict: 'no-history',
      findings: [],
    });
    const few = { USD: valueStats(ordinary.slice(0, 19)) };
    expect(compareValues(run(ordinary.map((v) => v * 100)), few, thresholds).verdict).toBe('no-history');
    const some = { ...history, EUR: valueStats([1, 2]) };
    expect(compareValues(run([500, 600], 'EUR'), some, thresholds).verdict).toBe('passed');
  });

  it('reads its thresholds from the settings', () => {
    const cents = run(ordinary.map((v) => v * 100));
    expect(compareValues(cents, history, { ...thresholds, medianFactor: 200 }).verdict).toBe('passed');
    const zeros = run([...ordinary.slice(0, 20), ...Array(10).fill(0)]);
    expect(compareValues(zeros, history, { ...thresholds, zeroShareJump: 0.5 }).verdict).toBe('passed');
    expect(compareValues(cents, history, { ...thresholds, minHistory: 51 }).verdict).toBe('no-history');
  });
});

describe('stopMessage', () => {
  it('lists the findings, the likely causes and how to go on', () => {
    const comparison = compareValues({ USD: valueStats(ordinary.map((v) => v * 100)) }, history, thresholds);
    const text = stopMessage(comparison, 50);
    expect(text).toContain('value guard: stopped before sending (50 valid records held, none sent)');
    expect(text).toContain('minor units (cents)');
    expect(text).toContain('--accept-shift');
    const shipping = compareValues({ USD: valueStats(ordinary.map((v) => v / 10)) }, history, thresholds);
    expect(stopMessage(shipping, 50)).toContain('part-of-total column (shipping');
  });
});

describe('missingDays', () => {
  const days = (...list: string[]) => new Set(list);
  const series = days('2026-03-01', '2026-03-02', '2026-03-03');

  it('names the days missing inside the run, where earlier deliveries were daily', () => {
    const run = days('2026-03-04', '2026-03-05', '2026-03-07', '2026-03-10');
    expect(missingDays(run, series)).toEqual(['2026-03-06', '2026-03-08', '2026-03-09']);
  });

  it('counts a day delivered before as covered, and says nothing without a daily series', () => {
    expect(missingDays(days('2026-03-01', '2026-03-04'), series)).toEqual([]);
    expect(missingDays(days('2026-03-04', '2026-03-06'), days('2026-03-01', '2026-03-03'))).toEqual([]);
    expect(missingDays(days('2026-03-04', '2026-03-06'), days())).toEqual([]);
  });

  it("takes a record's day in its own zone", () => {
    expect(localDayOf('2026-03-01T23:30:00.000Z', 'Europe/Berlin')).toBe('2026-03-02');
    expect(localDayOf('2026-03-01T03:30:00.000Z', 'America/New_York')).toBe('2026-02-28');
    expect(localDayOf('2026-03-01T12:00:00.000Z', 'UTC')).toBe('2026-03-01');
  });
});
