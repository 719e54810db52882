// One push or retry holding the ledger: take the run lock, open the ledger, record the run, release. The
// SQLite file's lock is a lock file renewed as a lease (ledger/lock.ts); a PostgreSQL ledger's is an advisory
// lock per target (ledger/postgres/advisory-lock.ts), so runs on several hosts take turns on one target.

import { setTimeout as delay } from 'node:timers/promises';
import type { Settings } from '../../config/settings.js';
import { LockError, UsageError } from '../../errors.js';
import { openLedger } from '../../ledger/ledger.js';
import type { LedgerStore } from '../../ledger/ledger-store.js';
import { acquireLock, defaultStaleMs, describeReplaced } from '../../ledger/lock.js';
import { type ConnectionSource, isPostgresUrl, maskUrl } from '../../ledger/postgres/connection.js';
import { ledgerStorageError } from '../../ledger/storage-error.js';
import { targetOf } from '../../ledger/target.js';
import { WorkerLedger } from '../../ledger/worker-ledger.js';
import type { GuardHistory } from '../../pipeline/guard/guard-history.js';
import { KnownProblems } from '../../pipeline/known-problems.js';
import type { ErrorWithSummary, RunDeps } from '../../pipeline/types.js';
import { recordedCounts, type Summary } from '../../report/summary.js';
import { ExitCode, exitCodeFor, exitCodeForError } from '../exit-codes.js';
import type { ReportFacts } from '../report-facts.js';

type LedgerHandle = NonNullable<RunDeps['ledger']>;
type RunInfo = {
  command: 'push' | 'retry';
  files: string[];
  /** What the run report is built from: saved with the run when it finishes (issue 25). */
  report?: ReportFacts;
};

/** What a run learns on taking the ledger, before it sends anything (issue 19). */
export interface LedgerFacts {
  /** The ledger: its file, or its URL with the password masked. */
  readonly location: string;
  /**
   * The ledger holds no record of this target: it cannot know what another ledger (another user's, another
   * host's) delivered there, so the run must say so rather than resend silently.
   */
  readonly firstRun: boolean;
  /** Problems earlier runs reported to this target, read once; this run's new ones are recorded at its end. */
  readonly known: KnownProblems;
  /** The target's history for the value guard (issue 25), read from this ledger when the guard asks. */
  readonly history: GuardHistory;
}

export async function withLedger(
  settings: Settings,
  run: RunInfo,
  wait: string | undefined,
  body: (ledger: LedgerHandle, facts: LedgerFacts) => Promise<Summary>,
  exitCode: (summary: Summary) => number = exitCodeFor,
  signal: AbortSignal = new AbortController().signal,
  /** Notes for stderr (a stale lock taken over). */
  notify: (message: string) => void = () => {},
): Promise<Summary> {
  const waitSeconds = wait === undefined ? 0 : Number(wait);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
    throw new UsageError(`--wait must be a number of seconds, not "${wait}"`);
  }
  const session = { settings, run, body, exitCode, signal, notify, waitMs: waitSeconds * 1000 };
  return isPostgresUrl(settings.statePath) ? withPostgresLedger(session) : withSqliteLedger(session);
}

interface Session {
  readonly settings: Settings;
  readonly run: RunInfo;
  readonly body: (ledger: LedgerHandle, facts: LedgerFacts) => Promise<Summary>;
  readonly exitCode: (summary: Summary) => number;
  readonly signal: AbortSignal;
  readonly notify: (message: string) => void;
  readonly waitMs: number;
}

/**
 * REVIMPORT_LOCK_STALE_SECONDS: how long an SQLite ledger's lock may go unrenewed before another run takes it
 * over (default 60). Every host sharing the ledger should agree; a holder's own longer period wins anyway.
 */
export function lockStaleMs(env: Record<string, string | undefined>): number {
  const raw = env.REVIMPORT_LOCK_STALE_SECONDS;
  if (raw === undefined || raw === '') return defaultStaleMs;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 1) {
    throw new UsageError(
      `REVIMPORT_LOCK_STALE_SECONDS must be a number of seconds, at least 1, not "${raw}"`,
    );
  }
  return seconds * 1000;
}

/**
 * The lock's sleep between two tries: Ctrl-C or SIGTERM ends it at once, and the first one says why the run
 * is waiting (a person at a terminal would otherwise see nothing for up to --wait seconds).
 */
function waitingSleep(session: Session, ledger: string): (ms: number) => Promise<void> {
  let said = false;
  return (ms) => {
    if (!said) {
      said = true;
      session.notify(
        `another run holds the ledger ${ledger}: waiting up to ${session.waitMs / 1000} s for it to finish (Ctrl-C stops)`,
      );
    }
    return delay(ms, undefined, { signal: session.signal });
  };
}

/** A run's times as history records them: durationMs is exactly finishedAt - startedAt (issue 20). */
interface RunTimes {
  startedAt: number;
  finishedAt: number;
  durationMs: number;
}

function refused(session: Session, waited: number, note: (code: number, times: RunTimes) => Promise<void>) {
  const { signal } = session;
  return async (error: unknown): Promise<never> => {
    const failure = signal.aborted ? new LockError('stopped while waiting for another run to finish') : error;
    const code =
      signal.aborted && typeof signal.reason === 'number' ? signal.reason : exitCodeForError(failure);
    // Best effort: the refusal is what the user must see, not a failure to note it. Only a run refused the
    // lock (or stopped waiting for it) is noted: a ledger that could not be reached cannot be written either,
    // and trying again to a server that closes every connection kept the process alive.
    const finishedAt = Date.now();
    const times = { startedAt: waited, finishedAt, durationMs: finishedAt - waited };
    if (failure instanceof LockError) await note(code, times).catch(() => undefined);
    throw failure;
  };
}

async function withSqliteLedger(session: Session): Promise<Summary> {
  const { settings, run } = session;
  // Ctrl-C or SIGTERM while waiting for another run must end the wait, not be ignored for --wait seconds.
  const lock = await acquireLock(settings.statePath, {
    waitMs: session.waitMs,
    sleep: waitingSleep(session, settings.statePath),
    staleMs: lockStaleMs(process.env),
    // Its renewal thread starts while the ledger opens and its writer thread starts: `holding` waits for both.
    awaitThread: false,
  }).catch(
    refused(session, Date.now(), async (code, times) => {
      // Another run holds the lock: no migration, no merge (openLedger's withoutLock).
      const ledger = openLedger(settings.statePath, { withoutLock: true });
      try {
        ledger.recordRun({ command: run.command, files: run.files, counts: {}, exitCode: code, ...times });
      } finally {
        ledger.close();
      }
    }),
  );
  if (lock.replaced) session.notify(describeReplaced(lock.replaced, settings.statePath, Date.now()));
  let failed = false;
  try {
    // Every write checks the lock first: a run presumed dead (suspended past the stale period) whose lock was
    // taken over stops there, on this thread and on the writer's.
    const ledger = openLedger(settings.statePath, { guard: lock.check });
    try {
      // The run's ledger writes on a worker thread (issue 14), lookups on this one: the split that measured
      // best (bench/README.md). REVIMPORT_LEDGER_WORKER, for measurements: 0 keeps every write on this
      // thread, `lookups` also moves the lookups to a second worker.
      const split = process.env.REVIMPORT_LEDGER_WORKER;
      return await holding(
        session,
        ledger,
        (opened) =>
          split === '0'
            ? undefined
            : new WorkerLedger(opened, { lookups: split === 'lookups' ? 'worker' : 'main', lock }),
        lock.started,
      );
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // A close failing the same way after the run's own error (a full disk) must not hide that error.
      closeAfter(() => ledger.close(), failed);
    }
  } finally {
    lock.release();
  }
}

async function withPostgresLedger(session: Session): Promise<Summary> {
  // Loaded for a PostgreSQL ledger only: the postgres client was ~5 MiB of every SQLite push's memory.
  const [{ acquireAdvisoryLock }, { PostgresLedger }] = await Promise.all([
    import('../../ledger/postgres/advisory-lock.js'),
    import('../../ledger/postgres/postgres-ledger.js'),
  ]);
  const { settings, run } = session;
  const source: ConnectionSource = {
    url: settings.statePath,
    passwordFile: settings.statePasswordFile,
    env: process.env,
  };
  const target = targetOf(settings.baseUrl!, settings.apiKey!, settings.account);
  const lock = await acquireAdvisoryLock(source, target, {
    waitMs: session.waitMs,
    sleep: waitingSleep(session, maskUrl(settings.statePath)),
  }).catch(
    refused(session, Date.now(), async (code, times) => {
      const ledger = await PostgresLedger.open(source, { merges: false });
      try {
        await ledger.recordRun({
          command: run.command,
          files: run.files,
          counts: {},
          exitCode: code,
          ...times,
        });
      } finally {
        await ledger.close();
      }
    }),
  );
  let failed = false;
  try {
    const ledger = await PostgresLedger.open(source, { guard: () => lock.check() });
    try {
      return await holding(session, ledger, () => undefined);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // A close that fails after the run's own error (the database is gone) must not hide that error.
      await ledger.close().catch((error: unknown) => {
        if (!failed) throw error;
      });
    }
  } finally {
    await lock.release();
  }
}

/** Runs `close`; a failure is thrown only when nothing failed before it. */
function closeAfter(close: () => void, failed: boolean): void {
  try {
    close();
  } catch (error) {
    if (!failed) throw error;
  }
}

/** The run itself, on an open ledger whose lock is held. */
async function holding<L extends LedgerStore>(
  session: Session,
  ledger: L,
  worker: (ledger: L) => WorkerLedger | undefined,
  /** The lock's renewal thread starting: waited for with the writer's, before the run reads rows. */
  leaseStarted: Promise<void> = Promise.resolve(),
): Promise<Summary> {
  const { settings, run, body, exitCode } = session;
  // Lookups read the records table, not the journal: what earlier runs settled there must be merged
  // before any key is looked up. This run holds the lock, so any other unfinished run is dead, even
  // one whose pid a live process now has (openLedger's merge-if-idle would skip for it).
  await ledger.merge();
  const target = targetOf(settings.baseUrl!, settings.apiKey!, settings.account);
  const targetId = await ledger.target(target);
  const known = new KnownProblems(await ledger.knownProblems(targetId), settings.reportKnown);
  const firstRun = !(await ledger.hasRecords(targetId));
  const facts = { location: ledger.location, firstRun, known, history: guardHistory(ledger, targetId) };
  // One clock for both ends: history's durationMs is exactly finishedAt - startedAt (issue 20).
  const started = Date.now();
  const runId = await ledger.beginRun({
    command: run.command,
    files: run.files,
    targetId,
    keyFingerprint: target.keyFingerprint,
    startedAt: started,
  });
  if (run.report) run.report.runId = runId;
  const finish = async (summary: Summary | undefined, code: number) => {
    const finishedAt = Date.now();
    await ledger.finishRun(runId, {
      counts: summary ? countsOf(summary) : {},
      exitCode: code,
      durationMs: finishedAt - started,
      finishedAt,
      reported: { targetId, fingerprints: remembers(summary, code) ? known.fresh : [] },
    });
    await saveReport(session, ledger, runId, summary, code, finishedAt);
  };
  const thread = worker(ledger);
  await Promise.all([thread?.started(), leaseStarted]);
  thread?.renewInWriter();
  try {
    const summary = await body({ ledger: thread ?? ledger, targetId, runId }, facts).then(
      async (done) => {
        // What the run delivered is in the journal even if the final merge fails: keep its summary.
        await thread?.close().catch((error: unknown) => {
          throw Object.assign(error as Error, { summary: done });
        });
        return done;
      },
      async (error: unknown) => {
        // The run's own error is the one to report; a failed close after it is secondary.
        await thread?.close().catch(() => undefined);
        throw error;
      },
    );
    await finish(summary, exitCode(summary));
    return summary;
  } catch (error) {
    // A run ended by an error still records what it did and the code it exits with (when the ledger can
    // still be written: a PostgreSQL ledger that went away cannot, and its error is the one to report).
    await finish((error as ErrorWithSummary).summary, exitCodeForError(ledgerStorageError(error))).catch(
      () => undefined,
    );
    throw error;
  }
}

/**
 * The value guard's view of the target's history, read on the ledger the run opened (not its worker thread:
 * a read, which in WAL waits for no write), when the guard decides: a sample of `historySample` records.
 */
function guardHistory(ledger: LedgerStore, targetId: number): GuardHistory {
  return {
    values: async (currencies) =>
      (await ledger.deliveredValues(targetId, { limit: historySample, currencies })).values,
    // The local days the target's earlier runs delivered revenue on, from their reports (runs.report).
    days: async () =>
      (await ledger.targetReports(targetId, reportsRead)).flatMap((report) =>
        report.revenue.map((r) => r.day),
      ),
  };
}

/** Delivered records the guard compares a run with: medians and percentiles of 20,000 are stable to ~1%. */
const historySample = 20_000;
/** Earlier runs whose reports give the target's delivered days (a daily export: three months). */
const reportsRead = 90;

/**
 * The run's report kept with it (`revimport report` reads it), stopped runs included: best effort, a report
 * that cannot be saved is said and does not change how the run ended.
 */
async function saveReport(
  session: Session,
  ledger: LedgerStore,
  runId: number,
  summary: Summary | undefined,
  code: number,
  finishedAt: number,
): Promise<void> {
  const facts = session.run.report;
  if (!facts) return;
  try {
    await ledger.saveRunReport(runId, facts.report(summary, code, new Date(finishedAt)));
  } catch (error) {
    session.notify(`the run report could not be saved in the ledger: ${(error as Error).message}`);
  }
}

/**
 * Whether a run's new problems become known (issue 20): only when its exit code could say them, 0 (within
 * --max-invalid) or 1. A run that ended with 3, 4, 5 or a signal, crashed, or was stopped by --max-invalid
 * (nothing sent: the same export must stop the next run too) remembers none: the next run reports them again,
 * so no invalid row goes without one exit 1.
 */
function remembers(summary: Summary | undefined, code: number): boolean {
  if (!summary || summary.aborted !== undefined) return false;
  return code === ExitCode.ok || code === ExitCode.partial;
}

function countsOf(summary: Summary): Record<string, number> {
  return Object.fromEntries(recordedCounts.map((key) => [key, summary[key]]));
}
