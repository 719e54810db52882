// The value guard's checks (issue 25): a run's figures per currency against the target's history. A
// median off by a factor either way, a currency the target never had, a jump in the share of zero values.
// A currency with too little history is not judged; a target with none at all is not judged. Pure.
import type { GuardSettings } from '../../config/settings.js';
import { groupedNumber } from '../../grouped-number.js';
import type { GuardComparison, GuardFinding, ValueStats } from '../../report/run-report.js';

export type GuardThresholds = Pick<GuardSettings, 'medianFactor' | 'zeroShareJump' | 'minHistory' | 'minRun'>;

/** Figures per currency. */
export type StatsByCurrency = Record<string, ValueStats>;

/**
 * The run (`run`) against the history (`history`, what the target was delivered before), per currency of
 * the run. Verdict `no-history` when no currency of the history has `minHistory` records (nothing is said
 * then), else `passed` or `stopped` by whether anything was found: the caller turns `stopped` into
 * `accepted` under --accept-shift. `missingDays` is left empty (missing-days.ts fills it).
 */
export function compareValues(
  run: StatsByCurrency,
  history: StatsByCurrency,
  thresholds: GuardThresholds,
): GuardComparison {
  const currencies = Object.keys(run)
    .sort()
    .map((currency) => {
      const past = history[currency];
      return past ? { currency, run: run[currency]!, history: past } : { currency, run: run[currency]! };
    });
  const known = Object.entries(history).filter(([, stats]) => stats.count >= thresholds.minHistory);
  if (known.length === 0) return { verdict: 'no-history', currencies, findings: [], missingDays: [] };
  const findings = currencies.flatMap(({ currency, run: now, history: past }) =>
    past ? shifts(currency, now, past, thresholds) : [newCurrency(currency, now, known)],
  );
  return { verdict: findings.length > 0 ? 'stopped' : 'passed', currencies, findings, missingDays: [] };
}

/** A currency the target has history in: its median and its zero share. */
function shifts(currency: string, run: ValueStats, past: ValueStats, t: GuardThresholds): GuardFinding[] {
  if (past.count < t.minHistory || run.count < t.minRun) return [];
  const findings: GuardFinding[] = [];
  const ratio = medianRatio(run, past);
  if (ratio !== undefined && ratio < 0) {
    findings.push({ kind: 'median-shift', currency, message: signMessage(currency, run, past) });
  } else if (ratio !== undefined && (ratio >= t.medianFactor || ratio <= 1 / t.medianFactor)) {
    findings.push({ kind: 'median-shift', currency, message: medianMessage(currency, run, past, ratio) });
  }
  // A small tolerance: 0.3 - 0.1 is 0.19999999999999998 in binary.
  if (run.zeroShare - past.zeroShare >= t.zeroShareJump - 1e-9) {
    findings.push({ kind: 'zero-share', currency, message: zeroMessage(currency, run, past) });
  }
  return findings;
}

/**
 * run median / history median, negative when their signs differ (refunds sent as revenue: with
 * `allowNegative`, a run of refunds against a history of sales); undefined when either is 0 (a zero median is
 * the zero share's to judge).
 */
export function medianRatio(run: ValueStats, past: ValueStats): number | undefined {
  if (run.median === 0 || past.median === 0) return undefined;
  return run.median / past.median;
}

function newCurrency(currency: string, run: ValueStats, known: [string, ValueStats][]): GuardFinding {
  const had = known.map(([code, stats]) => `${code} (${count(stats.count)} records)`).join(', ');
  return {
    kind: 'new-currency',
    currency,
    message: `${currency}: ${count(run.count)} records in a currency this target was never delivered before (it has ${had})`,
  };
}

function medianMessage(currency: string, run: ValueStats, past: ValueStats, ratio: number): string {
  const how = ratio >= 1 ? `${times(ratio)} times` : `1/${times(1 / ratio)} of`;
  return (
    `${currency}: the median value of this run's ${count(run.count)} records is ${amount(run.median)}, ` +
    `${how} the median ${amount(past.median)} of ${count(past.count)} records delivered to this target before ` +
    `(90th percentile ${amount(run.p90)} against ${amount(past.p90)})`
  );
}

function signMessage(currency: string, run: ValueStats, past: ValueStats): string {
  return (
    `${currency}: the median value of this run's ${count(run.count)} records is ${amount(run.median)}, ` +
    `of the other sign than the median ${amount(past.median)} of ${count(past.count)} records delivered to this ` +
    'target before'
  );
}

function zeroMessage(currency: string, run: ValueStats, past: ValueStats): string {
  return (
    `${currency}: ${percent(run.zeroShare)} of this run's ${count(run.count)} values are 0, against ` +
    `${percent(past.zeroShare)} of ${count(past.count)} records delivered to this target before`
  );
}

const count = (n: number) => groupedNumber(n);
const amount = (n: number) => groupedNumber(n, 2);
const percent = (share: number) => `${Math.round(share * 100)}%`;
const times = (ratio: number) => (ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(1));
