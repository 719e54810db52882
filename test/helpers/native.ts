// Tests that open SQLite files directly keep every Database and Statement alive for the worker's
// lifetime, as src/ledger/native.ts does: on Node 24 a collected one aborts the process.
import type Database from 'better-sqlite3';
import { retain } from '../../src/ledger/native.js';

export { retain };

/** `keep(db).prepare(sql)` prepares a statement that is never garbage. */
export function keep(db: Database.Database): { prepare: (sql: string) => Database.Statement } {
  return { prepare: (sql) => retain(db.prepare(sql)) };
}
