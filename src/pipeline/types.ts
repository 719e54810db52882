// What a run is given (its options and its dependencies) and what an error that ended it carries:
// shared by run.ts, the stages it composes and cli/, in a module of their own so no stage imports run.ts.
import type { LedgerPort } from '../ledger/ledger-port.js';
import type { RejectsWriter } from '../report/rejects.js';
import type { Summary } from '../report/summary.js';
import type { DayRevenueTally } from './day-revenue.js';
import type { GuardHistory } from './guard/guard-history.js';
import type { KnownProblems } from './known-problems.js';
import type { ResendMode } from './known-records.js';
import type { RowThreadMode } from './row-thread/messages.js';

export interface RunOptions {
  files: string[];
  check: boolean;
  /** Records already delivered to the target that are sent again (known-records.ts). */
  resend: ResendMode;
}

export interface RunDeps {
  stdin?: NodeJS.ReadableStream;
  /** Open ledger and the run's id, for push; absent for --check. */
  ledger?: RunLedger;
  rejects?: RejectsWriter;
  /**
   * Problems earlier runs reported to this target (issue 20): an invalid row among them is counted
   * `knownInvalid` and not reported again. Absent under --check (no ledger): every invalid row is new.
   */
  known?: KnownProblems;
  /**
   * The target's history for the value guard (issue 25), read from the ledger the push holds. Absent under
   * --check (no ledger: no guard) and in a pass that sends nothing.
   */
  guard?: GuardHistory;
  userAgent: string;
  now: () => number;
  /** The wall clock (epoch ms) for the plausible-instant bound; default Date.now. */
  wallClock?: () => number;
  signal?: AbortSignal;
  /**
   * Told each record the receiver accepted (push) or each valid record (--check): the run report's revenue
   * per local day and currency (issue 25). Absent: not counted.
   */
  revenue?: DayRevenueTally;
  /**
   * Where the rows are read and checked (issue 23): `on` a thread of their own, `off` (default) this thread
   * (row-thread/row-thread.ts `useRowThread`).
   */
  rowThread?: RowThreadMode;
  /**
   * Whether a push may count the rows of a span its ledger noted delivered without checking them (raw-spans.ts;
   * default true where the run allows it: raw-span-run.ts). False: every row is checked (REVIMPORT_RAW_SPANS=0).
   */
  rawSpans?: boolean;
  /**
   * Called once a push has read and looked up every row, with the rows read: a full garbage collection when they
   * were many (cli/heap.ts collectAfterReading), so what only reading held (the duplicate check's tables, 3.6 MiB at
   * 1M ids; the reader's buffers) goes before the ledger's final merge, which set a push's peak. Absent: none (tests).
   */
  collect?: (rowsRead: number) => void;
  /**
   * Called once the run's threads run (the ledger's before the run, the row thread's once it started), before the
   * rows: the main thread's young generation, held at its first size while threads start, may grow to its cap
   * (cli/heap.ts releaseYoungGeneration). Absent: nothing (tests).
   */
  growYoung?: () => void;
  /** For tests: backoff base (ms). */
  baseDelayMs?: number;
}

/** The open ledger of a push and the target and run it writes for. */
export interface RunLedger {
  ledger: LedgerPort;
  targetId: number;
  runId: number;
}

/** An error that ended a run carries what the run did until then, for the summary and the ledger. */
export interface ErrorWithSummary {
  summary?: Summary;
}
