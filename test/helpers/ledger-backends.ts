// The two ledger backends behind one factory, for the conformance suite (test/ledger/conformance.test.ts):
// each test gets a fresh ledger (a new SQLite file, or a new PostgreSQL database) and may reopen it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '../../src/ledger/ledger.js';
import type { LedgerStore } from '../../src/ledger/ledger-store.js';
import { PostgresLedger } from '../../src/ledger/postgres/postgres-ledger.js';
import { createDatabase, dropDatabase } from './postgres.js';

export interface BackendHandle {
  /** Opens (again) the same ledger. */
  open(options?: { now?: () => number }): Promise<LedgerStore>;
  /** Removes the ledger (file or database). */
  remove(): Promise<void>;
}

export interface Backend {
  readonly name: 'sqlite' | 'postgres';
  /** A new, empty ledger. */
  create(): Promise<BackendHandle>;
}

export const sqliteBackend: Backend = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'revimport-conformance-'));
    const path = join(dir, 'ledger.db');
    return {
      open: async (options) => openLedger(path, options),
      remove: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

export const postgresBackend: Backend = {
  name: 'postgres',
  async create() {
    const url = await createDatabase();
    return {
      open: (options) => PostgresLedger.open({ url, env: {} }, options),
      remove: () => dropDatabase(url),
    };
  },
};
