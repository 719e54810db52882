// A ledger that cannot be written mid-run (a full disk, an I/O error, a file made read-only or damaged, a
// ledger worker that died, a run lock another run took over) is not a bug in revimport: the run stops with
// what it did recorded, and the records it did not deliver are sent by the next run (exit 4, as a delivery
// that could not go on).
// SQLite errors reach the CLI from the ledger on this thread (better-sqlite3's SqliteError, `code`
// SQLITE_*) or from a ledger worker (the same name and code, carried across the thread).
import { DeliveryError, isRevimportError } from '../errors.js';

const causes: readonly [RegExp, string][] = [
  [/^SQLITE_FULL$/, 'the disk is full'],
  [/^SQLITE_IOERR/, 'a read or write on its disk failed'],
  [/^SQLITE_READONLY/, 'it can no longer be written (read-only file, folder or disk)'],
  [/^SQLITE_CANTOPEN/, 'its file could not be opened'],
  [/^SQLITE_CORRUPT/, 'its file is damaged'],
  [/^SQLITE_(BUSY|LOCKED)/, 'another process kept it busy'],
  [/^SQLITE_NOMEM$/, 'SQLite ran out of memory'],
];

/** The run-ending error to report for `error`: a DeliveryError for a ledger storage failure, else `error`. */
export function ledgerStorageError(error: unknown, ledgerPath?: string): unknown {
  if (isRevimportError(error) || !(error instanceof Error)) return error;
  const where = ledgerPath ? ` (${ledgerPath})` : '';
  const code = (error as { code?: unknown }).code;
  const cause = typeof code === 'string' ? causes.find(([pattern]) => pattern.test(code))?.[1] : undefined;
  if (cause) {
    return new DeliveryError(
      `the ledger${where} could not be written: ${cause} (${code}: ${error.message})`,
      {
        hint: 'fix that and run the same push again: what was delivered is recorded, the rest is sent then',
        cause: error,
      },
    );
  }
  if (error.name === 'LedgerLockLost') {
    // Another run may hold the ledger now (lease.ts): this one stopped before its next write.
    return new DeliveryError(error.message, {
      hint: 'What was not recorded as delivered stays outstanding: run the same command again.',
      cause: error,
    });
  }
  if (error.name === 'LedgerWorkerExit') {
    return new DeliveryError(`the ledger${where} stopped: ${error.message}`, {
      hint: 'run the same push again: what was delivered is recorded, the rest is sent then',
      cause: error,
    });
  }
  return error;
}
