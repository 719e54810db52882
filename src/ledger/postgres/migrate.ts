// The PostgreSQL ledger's schema brought up to date when a ledger is opened (schema.ts holds the migrations).
import { ConfigError } from '../../errors.js';
import type { Sql, TransactionSql } from './client.js';
import { bootstrap, postgresMigrations } from './schema.js';

/**
 * Creates the schema on first use and applies the migrations not applied yet, each with its version row in
 * one transaction, under a transaction-level advisory lock (two hosts opening a new ledger at once).
 * A ledger already up to date is only read: `CREATE SCHEMA IF NOT EXISTS` checks the CREATE right on the
 * database even when the schema exists, and a runtime role given only USAGE and DML on an existing
 * `revimport` schema (CREATE revoked from PUBLIC) was refused on every open.
 */
export async function migrate(sql: Sql, location: string): Promise<void> {
  if ((await schemaVersion(sql, location)) === postgresMigrations.length) return;
  await sql.begin(async (tx) => {
    await tx.unsafe(`SELECT pg_advisory_xact_lock(hashtext('revimport migrations'))`);
    // Read again under the lock: another host may have migrated meanwhile.
    let version = await schemaVersion(tx, location);
    if (version === postgresMigrations.length) return;
    if (version === undefined) {
      await tx.unsafe(bootstrap);
      version = 0;
    }
    for (let next = version; next < postgresMigrations.length; next++) {
      await tx.unsafe(postgresMigrations[next]!);
      await tx.unsafe('INSERT INTO revimport.migrations (version) VALUES ($1)', [next + 1]);
    }
  });
}

/**
 * The schema version applied, read without creating anything: undefined when there is no
 * `revimport.migrations` table yet. A version newer than this revimport knows is refused.
 */
async function schemaVersion(sql: Sql | TransactionSql, location: string): Promise<number | undefined> {
  const [found] = await sql.unsafe(`SELECT to_regclass('revimport.migrations') IS NOT NULL AS present`);
  if (found!.present !== true) return undefined;
  const rows = await sql.unsafe(
    'SELECT coalesce(max(version), 0)::integer AS version FROM revimport.migrations',
  );
  const version = rows[0]!.version as number;
  if (version > postgresMigrations.length) {
    throw new ConfigError(
      `the ledger ${location} has schema version ${version}, newer than this revimport supports (${postgresMigrations.length})`,
      {
        hint: 'Upgrade revimport on this host too: every host sharing a ledger needs a version that knows its schema.',
      },
    );
  }
  return version;
}
