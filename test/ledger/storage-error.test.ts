// Which ledger failures end a run as "could not be written" (exit 4) and which stay bugs (exit 70).
import { describe, expect, it } from 'vitest';
import { DeliveryError, UsageError } from '../../src/errors.js';
import { ledgerStorageError } from '../../src/ledger/storage-error.js';

const sqlite = (code: string, message: string) =>
  Object.assign(new Error(message), { name: 'SqliteError', code });

describe('ledgerStorageError', () => {
  it.each([
    ['SQLITE_FULL', 'the disk is full'],
    ['SQLITE_IOERR_WRITE', 'a read or write on its disk failed'],
    ['SQLITE_READONLY_DBMOVED', 'it can no longer be written'],
    ['SQLITE_CORRUPT', 'its file is damaged'],
    ['SQLITE_BUSY', 'another process kept it busy'],
  ])('%s is a delivery error naming the ledger and the cause', (code, cause) => {
    const error = ledgerStorageError(sqlite(code, 'disk I/O error'), '/var/lib/ledger.db');
    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as Error).message).toBe(
      `the ledger (/var/lib/ledger.db) could not be written: ${cause}${code === 'SQLITE_READONLY_DBMOVED' ? ' (read-only file, folder or disk)' : ''} (${code}: disk I/O error)`,
    );
  });

  it('a ledger worker that ended is a delivery error', () => {
    const ended = Object.assign(new Error('its worker thread ended (exit code 1)'), {
      name: 'LedgerWorkerExit',
    });
    expect((ledgerStorageError(ended) as Error).message).toBe(
      'the ledger stopped: its worker thread ended (exit code 1)',
    );
  });

  it('a run lock another run took over (from a ledger worker: a plain Error by name) is a delivery error', () => {
    const message = 'lost the run lock /l.db.lock: another run took it over (pid 7 on pod-b, started x)';
    const lost = Object.assign(new Error(message), { name: 'LedgerLockLost' });
    const error = ledgerStorageError(lost);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ message, hint: expect.stringContaining('run the same command again') });
  });

  it.each([
    ['an SQL error (a bug)', sqlite('SQLITE_ERROR', 'no such column: x')],
    ['a constraint (a bug)', sqlite('SQLITE_CONSTRAINT_PRIMARYKEY', 'UNIQUE constraint failed')],
    ['a plain error', new Error('boom')],
    ['an error revimport already explains', new UsageError('bad flag')],
    ['not an error at all', 'text'],
  ])('%s is left as it is', (_name, error) => {
    expect(ledgerStorageError(error, '/l.db')).toBe(error);
  });
});
