// The whole ledger as a run and `history` use it, for both backends: the SQLite file (ledger.ts, every call
// synchronous) and PostgreSQL (postgres/postgres-ledger.ts, every call a promise). Callers await each result.
import type { RunReport } from '../report/run-report.js';
import type { Awaitable, LedgerPort } from './ledger-port.js';
import type { Target } from './target.js';
import type {
  AccountRow,
  AssignResult,
  BeginRunInput,
  FinishRunInput,
  ReportedIn,
  RunRow,
  StateCounts,
} from './types.js';

export interface LedgerStore extends LedgerPort {
  /** Where the ledger is, for messages: the file path, or the URL with its password masked. */
  readonly location: string;
  /**
   * Upserts the target (base URL and account); returns its id. Throws ConfigError (exit 2) when the URL has
   * targets carried over from before schema 4 that are not resolved to an account (accounts.ts).
   */
  target(target: Target): Awaitable<number>;
  /** Every target, by base URL and account (unresolved ones last). */
  accounts(): Awaitable<AccountRow[]>;
  /**
   * Resolves the unresolved targets of `baseUrl` keyed by `fingerprints` to `account`: one is named, the
   * others (and an existing target of that account) are merged into it. Throws ConfigError for a
   * fingerprint that is not an unresolved target of the URL.
   */
  assign(baseUrl: string, fingerprints: readonly string[], account: string): Awaitable<AssignResult>;
  beginRun(input: BeginRunInput): Awaitable<number>;
  /** Records the run's outcome and the problems it reported first (`reported`), and merges what it delivered. */
  finishRun(runId: number, input: FinishRunInput): Awaitable<void>;
  /**
   * Every problem earlier runs reported for this target, by fingerprint (issue 20): read once per run, so
   * the row path asks a Map, never the ledger.
   */
  knownProblems(targetId: number): Awaitable<Map<string, ReportedIn>>;
  /** A run refused the ledger (another run held it): recorded already finished. */
  recordRun(input: BeginRunInput & FinishRunInput): Awaitable<number>;
  /** Newest first. */
  history(options: { limit: number }): Awaitable<RunRow[]>;
  /** Keeps the run's report with it (issue 25), replacing any saved before. */
  saveRunReport(runId: number, report: RunReport): Awaitable<void>;
  /** The report saved with the run; null for a run without one (older revimport, or a run that never ended). */
  runReport(runId: number): Awaitable<RunReport | null>;
  /** The reports of the target's runs that have one, newest first. */
  targetReports(targetId: number, limit: number): Awaitable<RunReport[]>;
  /** Records per state for this target (zero for absent states). */
  counts(targetId: number): Awaitable<StateCounts>;
  /**
   * Whether the ledger holds any record of this target, in any state: `counts` without counting (that
   * scans the target's records, half a second per 2 million), asked at the start of every run (issue 19).
   */
  hasRecords(targetId: number): Awaitable<boolean>;
  close(): Awaitable<void>;
}
