// One push or retry holding the ledger: take the run lock, open the ledger, record the run, release.

import { setTimeout as delay } from 'node:timers/promises';
import type { Settings } from '../../config/settings.js';
import { LockError, UsageError } from '../../errors.js';
import { openLedger } from '../../ledger/ledger.js';
import { acquireLock } from '../../ledger/lock.js';
import { ledgerStorageError } from '../../ledger/storage-error.js';
import { targetOf } from '../../ledger/target.js';
import { WorkerLedger } from '../../ledger/worker-ledger.js';
import type { ErrorWithSummary, RunDeps } from '../../pipeline/run.js';
import type { Summary } from '../../report/summary.js';
import { exitCodeFor, exitCodeForError } from '../exit-codes.js';

type LedgerHandle = NonNullable<RunDeps['ledger']>;

export async function withLedger(
  settings: Settings,
  run: { command: 'push' | 'retry'; files: string[] },
  wait: string | undefined,
  body: (ledger: LedgerHandle) => Promise<Summary>,
  exitCode: (summary: Summary) => number = exitCodeFor,
  signal: AbortSignal = new AbortController().signal,
): Promise<Summary> {
  const waitSeconds = wait === undefined ? 0 : Number(wait);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
    throw new UsageError(`--wait must be a number of seconds, not "${wait}"`);
  }
  // Ctrl-C or SIGTERM while waiting for another run must end the wait, not be ignored for --wait seconds.
  const waited = Date.now();
  const release = await acquireLock(settings.statePath, {
    waitMs: waitSeconds * 1000,
    sleep: (ms) => delay(ms, undefined, { signal }),
  }).catch((error: unknown) => {
    const failure = signal.aborted ? new LockError('stopped while waiting for another run to finish') : error;
    const code =
      signal.aborted && typeof signal.reason === 'number' ? signal.reason : exitCodeForError(failure);
    recordRefusedRun(settings.statePath, run, code, Date.now() - waited);
    throw failure;
  });
  try {
    const ledger = openLedger(settings.statePath);
    try {
      // Lookups read the records table, not the journal: what earlier runs settled there must be merged
      // before any key is looked up. This run holds the lock, so any other unfinished run is dead, even
      // one whose pid a live process now has (openLedger's merge-if-idle would skip for it).
      ledger.merge();
      const targetId = ledger.target(targetOf(settings.baseUrl!, settings.apiKey!));
      const runId = ledger.beginRun({ command: run.command, files: run.files });
      const started = Date.now();
      const finish = (summary: Summary | undefined, exitCode: number) =>
        ledger.finishRun(runId, {
          counts: summary ? countsOf(summary) : {},
          exitCode,
          durationMs: Date.now() - started,
        });
      // The run's ledger writes on a worker thread (issue 14), lookups on this one: the split that measured
      // best (bench/README.md). REVIMPORT_LEDGER_WORKER, for measurements: 0 keeps every write on this
      // thread, `lookups` also moves the lookups to a second worker.
      const split = process.env.REVIMPORT_LEDGER_WORKER;
      const worker =
        split === '0'
          ? undefined
          : new WorkerLedger(ledger, { lookups: split === 'lookups' ? 'worker' : 'main' });
      try {
        const summary = await body({ ledger: worker ?? ledger, targetId, runId }).then(
          async (done) => {
            // What the run delivered is in the journal even if the final merge fails: keep its summary.
            await worker?.close().catch((error: unknown) => {
              throw Object.assign(error as Error, { summary: done });
            });
            return done;
          },
          async (error: unknown) => {
            // The run's own error is the one to report; a failed close after it is secondary.
            await worker?.close().catch(() => undefined);
            throw error;
          },
        );
        finish(summary, exitCode(summary));
        return summary;
      } catch (error) {
        // A run ended by an error still records what it did and the code it exits with. A ledger that
        // cannot be written (a full disk) cannot record it either: the run's own error is what to report.
        // Closed here, so that a close failing the same way does not replace the run's error either.
        try {
          finish((error as ErrorWithSummary).summary, exitCodeForError(ledgerStorageError(error)));
        } catch {}
        try {
          ledger.close();
        } catch {}
        throw error;
      }
    } finally {
      ledger.close(); // a no-op once closed
    }
  } finally {
    release();
  }
}

/**
 * A run refused the ledger (another run holds it) is in `history` too, with its exit code: otherwise a
 * cron job failing with 5 every hour leaves no trace there. Best effort: the refusal is what the user
 * must see, not a failure to note it.
 */
function recordRefusedRun(
  statePath: string,
  run: { command: 'push' | 'retry'; files: string[] },
  exitCode: number,
  durationMs: number,
): void {
  try {
    // Another run holds the lock: no migration, no merge (openLedger's withoutLock).
    const ledger = openLedger(statePath, { withoutLock: true });
    try {
      ledger.recordRun({ command: run.command, files: run.files, counts: {}, exitCode, durationMs });
    } finally {
      ledger.close();
    }
  } catch {
    // The ledger is busy or unreadable: the lock error below says what happened.
  }
}

/** The counts a run records in the ledger's runs table (`revimport history`). */
const countKeys = [
  'rowsRead',
  'valid',
  'invalid',
  'skipped',
  'sent',
  'rejected',
  'duplicates',
  'alreadySent',
  'changed',
  'retried',
  'failed',
  'pending',
] as const;

function countsOf(summary: Summary): Record<string, number> {
  return Object.fromEntries(countKeys.map((key) => [key, summary[key]]));
}
