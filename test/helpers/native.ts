// Tests that open SQLite files directly keep every Database and Statement alive for the worker's
// lifetime, as src/ledger/native.ts does: on Node 24 a collected one aborts the process. rawRows and
// tableCount read a ledger file that way for the SQLite-only ledger tests.
import Database from 'better-sqlite3';
import { retain } from '../../src/ledger/native.js';

export { retain };

/** `keep(db).prepare(sql)` prepares a statement that is never garbage. */
export function keep(db: Database.Database): { prepare: (sql: string) => Database.Statement } {
  return { prepare: (sql) => retain(db.prepare(sql)) };
}

/** Reads the file the way another process would (its own read-only connection): proves what is on disk, not in a cache. */
export function rawRows(path: string, sql: string, ...params: unknown[]): unknown[] {
  const db = retain(new Database(path, { readonly: true }));
  try {
    return keep(db)
      .prepare(sql)
      .all(...params);
  } finally {
    db.close();
  }
}

/** The number of rows in `table` of the SQLite file at `path`, read as rawRows reads. */
export function tableCount(path: string, table: string): number {
  return (rawRows(path, `SELECT count(*) AS n FROM ${table}`)[0] as { n: number }).n;
}
