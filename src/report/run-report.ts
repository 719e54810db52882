// What one run's report shows (issue 25), kept with the run in the ledger (runs.report) so that
// `revimport report` can draw it later: revenue per day and currency, counts by outcome, the value guard.

/** The value figures of one currency: of a run's valid records, or of what a target was delivered before. */
export interface ValueStats {
  /** Records (rows with a value) the figures are taken over. */
  count: number;
  median: number;
  p90: number;
  p99: number;
  /** Share of records whose value is 0, 0..1. */
  zeroShare: number;
}

/** One thing the value guard found wrong with a run, against the target's history. */
export interface GuardFinding {
  kind: 'median-shift' | 'new-currency' | 'zero-share';
  currency: string;
  /** One sentence naming the figure and the history it was compared with. */
  message: string;
}

/** The value guard's comparison of a run with what the ledger holds for the same target. */
export interface GuardComparison {
  /**
   * no-history: nothing to compare with (no check made); passed: nothing found; stopped: the run stopped
   * before sending; accepted: something found, sent anyway with --accept-shift.
   */
  verdict: 'no-history' | 'passed' | 'stopped' | 'accepted';
  currencies: { currency: string; run: ValueStats; history?: ValueStats }[];
  findings: GuardFinding[];
  /** Days missing inside the range the run covers, where the target's deliveries cover consecutive days. */
  missingDays: string[];
}

/** Revenue of one local day (the record's own zone) in one currency. */
export interface DayRevenue {
  /** yyyy-MM-dd */
  day: string;
  currency: string;
  records: number;
  /** Sum of the records' values, in the currency's units. */
  value: number;
}

/** Everything `revimport report` draws for one run. E-mails masked, never a key or a password. */
export interface RunReport {
  version: 1;
  runId: number | null;
  startedAt: string;
  finishedAt: string;
  command: string;
  files: string[];
  /** The run's Summary counts (sent, alreadySent, skipped, invalid, rejected, pending, ...). */
  counts: Record<string, number>;
  skippedReasons: Record<string, number>;
  invalidReasons: Record<string, number>;
  /** Revenue delivered by this run (check: of its valid records), per local day and currency. */
  revenue: DayRevenue[];
  guard: GuardComparison | null;
  /** The rejects file written by the run, when one was. */
  rejectsFile: string | null;
  exitCode: number | null;
}
