// A run's report (issue 25) from its Summary and what the run gathered beside it: pure. Every text that
// came from the data or the user (file names, reasons, the guard's sentences) goes through `hide`, which
// masks e-mails here and, from the CLI, a URL's password and the API key too.
import { maskEmail } from './rejection.js';
import type { DayRevenue, GuardComparison, RunReport } from './run-report.js';
import { recordedCounts, type Summary } from './summary.js';

export interface RunFacts {
  runId: number | null;
  startedAt: Date;
  finishedAt: Date;
  /** `push`, `push --check`, `retry`. */
  command: string;
  files: readonly string[];
  summary: Summary;
  revenue: readonly DayRevenue[];
  rejectsFile: string | null;
  exitCode: number | null;
}

/** The Summary's counts the report shows: those a run records in the ledger, and the adjustments sent. */
const countKeys = [...recordedCounts, 'adjusted'] as const;

export function buildRunReport(facts: RunFacts, hide: (text: string) => string = maskEmails): RunReport {
  const { summary } = facts;
  return {
    version: 1,
    runId: facts.runId,
    startedAt: facts.startedAt.toISOString(),
    finishedAt: facts.finishedAt.toISOString(),
    command: facts.command,
    files: facts.files.map(hide),
    counts: Object.fromEntries(countKeys.map((key) => [key, summary[key]])),
    skippedReasons: hiddenKeys(summary.skippedReasons, hide),
    invalidReasons: hiddenKeys(
      Object.fromEntries(summary.errors.map((group) => [group.reason, group.count])),
      hide,
    ),
    revenue: facts.revenue.map((day) => ({ ...day })),
    guard: guardOf(summary) && hiddenGuard(guardOf(summary)!, hide),
    rejectsFile: facts.rejectsFile === null ? null : hide(facts.rejectsFile),
    exitCode: facts.exitCode,
  };
}

/** Two reasons that differ only in a masked address are one reason: their counts add up. */
function hiddenKeys(counts: Record<string, number>, hide: (text: string) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, count] of Object.entries(counts)) {
    const shown = hide(key);
    out[shown] = (out[shown] ?? 0) + count;
  }
  return out;
}

/**
 * The value guard's comparison: the Summary carries it once the guard is in (issue 25, Summary.guard); a
 * Summary without one (the guard off, --check, a run ended before it decided) has none.
 */
function guardOf(summary: Summary): GuardComparison | null {
  return (summary as { guard?: GuardComparison | null }).guard ?? null;
}

function hiddenGuard(guard: GuardComparison, hide: (text: string) => string): GuardComparison {
  return {
    ...guard,
    currencies: guard.currencies.map((c) => ({ ...c })),
    findings: guard.findings.map((f) => ({ ...f, message: hide(f.message) })),
    missingDays: [...guard.missingDays],
  };
}

/** Every e-mail address in a text masked as everywhere else (`j***@example.com`). */
export function maskEmails(text: string): string {
  return text.includes('@') ? text.replace(/[^\s@<>"'`(),;:/\\[\]]+@[^\s@<>"'`(),;:[\]]+/g, maskEmail) : text;
}
