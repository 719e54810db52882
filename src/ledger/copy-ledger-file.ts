// Copies an SQLite ledger file whole into a new file that must not exist yet: how a config without `state`
// takes over the user's ledger of earlier versions (issue 19). The caller holds the source's run lock.
import { closeSync, fsyncSync, linkSync, openSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../errors.js';
import { retain } from './native.js';

/**
 * Writes a consistent snapshot of `from` (its WAL included) to `to`, owner-only, and returns true; returns
 * false when `to` appeared meanwhile (another run created or copied it first), leaving it as it is.
 * `from` is read as it is: not migrated, not merged (the copy is, when a run next opens it).
 */
export function copyLedgerFile(from: string, to: string): boolean {
  // VACUUM INTO writes into an empty file: created here first with owner-only access, as openLedger does.
  // It writes under a temporary name and appears under `to` at once (a link fails if `to` exists), so no run
  // ever opens a half-written copy, and a run that created `to` meanwhile keeps its file.
  const partial = `${to}.copy-${process.pid}`;
  closeSync(openSync(partial, 'w', 0o600));
  try {
    const db = retain(new Database(from, { fileMustExist: true }));
    try {
      db.exec('PRAGMA busy_timeout = 5000');
      retain(db.prepare('VACUUM INTO ?')).run(partial);
    } finally {
      db.close();
    }
    // SQLite does not sync what VACUUM INTO writes: the copy must be on disk before it replaces nothing.
    syncFile(partial);
    try {
      linkSync(partial, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    syncFile(dirname(to));
    return true;
  } catch (error) {
    if (error instanceof Database.SqliteError) {
      throw new ConfigError(`cannot copy the ledger ${from} to ${to}: ${error.message}`, {
        hint: `set state in the config: to ${from} to keep using that ledger, or to a new file`,
        cause: error,
      });
    }
    throw error;
  } finally {
    unlinkSync(partial);
  }
}

function syncFile(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
