// The ledgers of test/fixtures/ledger-v3 (see its README): written by the release before accounts, where a
// target was a URL plus a key. As an SQLite file (the release's own file), or the same rows in a PostgreSQL
// ledger at that release's schema (migration 1, the text it ran), for the carry-over tests of issue 19.
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import postgres from 'postgres';
import { bootstrap, postgresMigrations } from '../../src/ledger/postgres/schema.js';
import { root } from './cli.js';
import { keep, retain } from './native.js';

export type V3Fixture = 'one-key' | 'two-keys';

/** Copies the fixture into `work` as ledger.db, its targets pointed at `receiverUrl`; returns its path. */
export function sqliteV3(work: string, fixture: V3Fixture, receiverUrl: string): string {
  const state = path.join(work, 'ledger.db');
  copyFileSync(path.join(root, `test/fixtures/ledger-v3/${fixture}.db`), state);
  const db = retain(new Database(state));
  try {
    keep(db).prepare('UPDATE targets SET base_url = ?').run(receiverUrl);
  } finally {
    db.close();
  }
  return state;
}

/** Writes the fixture's targets, runs, records and unanswered batches into `databaseUrl` at schema 1. */
export async function postgresV3(
  databaseUrl: string,
  fixture: V3Fixture,
  receiverUrl: string,
): Promise<void> {
  const source = retain(
    new Database(path.join(root, `test/fixtures/ledger-v3/${fixture}.db`), { readonly: true }),
  );
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.begin(async (tx) => {
      await tx.unsafe(bootstrap);
      await tx.unsafe(postgresMigrations[0]!);
      await tx.unsafe('INSERT INTO revimport.migrations (version) VALUES (1)');
      for (const t of keep(source).prepare('SELECT * FROM targets').all() as Record<string, unknown>[]) {
        await tx.unsafe(
          'INSERT INTO revimport.targets (id, base_url, key_fingerprint, created_at) VALUES ($1, $2, $3, $4)',
          [t.id, receiverUrl, t.key_fingerprint, t.created_at] as never[],
        );
      }
      for (const r of keep(source).prepare('SELECT * FROM runs').all() as Record<string, unknown>[]) {
        await tx.unsafe(
          `INSERT INTO revimport.runs (id, command, files, started_at, finished_at, counts, exit_code, duration_ms, pid)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            r.id,
            r.command,
            r.files,
            r.started_at,
            r.finished_at,
            r.counts,
            r.exit_code,
            r.duration_ms,
            r.pid,
          ] as never[],
        );
      }
      for (const r of keep(source).prepare('SELECT * FROM records').all() as Record<string, unknown>[]) {
        const [currency, value] = JSON.parse(String(r.amount)) as [string, number];
        await tx.unsafe(
          `INSERT INTO revimport.records (target_id, key, content_hash, state, idempotency_key, run_id, first_seen,
            updated_at, currency, value) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            r.target_id,
            r.key,
            r.content_hash,
            r.state,
            r.idempotency_key,
            r.run_id,
            r.first_seen,
            r.updated_at,
            currency,
            value,
          ] as never[],
        );
      }
      const batches = keep(source)
        .prepare('SELECT b.*, bb.body FROM batches AS b JOIN batch_bodies AS bb ON bb.batch_id = b.id')
        .all() as Record<string, unknown>[];
      for (const b of batches) {
        const keys = JSON.parse(String(b.keys)) as [string, string, string, number][];
        await tx.unsafe(
          `INSERT INTO revimport.batches (target_id, run_id, seq, size, idempotency_key, state, keys, hashes,
            currencies, amounts, body, created_at, updated_at)
          VALUES ($1, $2, nextval('revimport.seq'), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
          [
            b.target_id,
            b.run_id,
            b.size,
            b.idempotency_key,
            b.state,
            keys.map((k) => k[0]),
            keys.map((k) => k[1]),
            keys.map((k) => k[2]),
            keys.map((k) => k[3]),
            b.body,
            b.created_at,
            b.updated_at,
          ] as never[],
        );
      }
      for (const table of ['targets', 'runs']) {
        await tx.unsafe(
          `SELECT setval(pg_get_serial_sequence('revimport.${table}', 'id'), (SELECT max(id) FROM revimport.${table}))`,
        );
      }
    });
  } finally {
    await sql.end();
    source.close();
  }
}
