// The whole ledger as a run and `history` use it, for both backends: the SQLite file (ledger.ts, every call
// synchronous) and PostgreSQL (postgres/postgres-ledger.ts, every call a promise). Callers await each result.
import type { Awaitable, LedgerPort } from './ledger-port.js';
import type { Target } from './target.js';
import type { BeginRunInput, FinishRunInput, RunRow, StateCounts } from './types.js';

export interface LedgerStore extends LedgerPort {
  /** Where the ledger is, for messages: the file path, or the URL with its password masked. */
  readonly location: string;
  /** Upserts the target; returns its id. */
  target(target: Target): Awaitable<number>;
  beginRun(input: BeginRunInput): Awaitable<number>;
  /** Records the run's outcome, and merges what it delivered. */
  finishRun(runId: number, input: FinishRunInput): Awaitable<void>;
  /** A run refused the ledger (another run held it): recorded already finished. */
  recordRun(input: BeginRunInput & FinishRunInput): Awaitable<number>;
  /** Newest first. */
  history(options: { limit: number }): Awaitable<RunRow[]>;
  /** Records per state for this target (zero for absent states). */
  counts(targetId: number): Awaitable<StateCounts>;
  /**
   * Whether the ledger holds any record of this target, in any state: `counts` without counting (that
   * scans the target's records, half a second per 2 million), asked at the start of every run (issue 19).
   */
  hasRecords(targetId: number): Awaitable<boolean>;
  close(): Awaitable<void>;
}
