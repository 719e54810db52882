// The PostgreSQL ledger's schema brought up to date when a ledger is opened (schema.ts holds the migrations).
import { ConfigError } from '../../errors.js';
import type { Sql } from './client.js';
import { bootstrap, postgresMigrations } from './schema.js';

/**
 * Creates the schema on first use and applies the migrations not applied yet, each with its version row in
 * one transaction, under a transaction-level advisory lock (two hosts opening a new ledger at once).
 */
export async function migrate(sql: Sql, location: string): Promise<void> {
  await sql.begin(async (tx) => {
    await tx.unsafe(`SELECT pg_advisory_xact_lock(hashtext('revimport migrations'))`);
    await tx.unsafe(bootstrap);
    const rows = await tx.unsafe(
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
    for (let next = version; next < postgresMigrations.length; next++) {
      await tx.unsafe(postgresMigrations[next]!);
      await tx.unsafe('INSERT INTO revimport.migrations (version) VALUES ($1)', [next + 1]);
    }
  });
}
