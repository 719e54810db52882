// A runtime role that may not create (issue 15, found by review): an administrator migrates the ledger once,
// and the hosts connect as a role with USAGE on the `revimport` schema and DML on its tables, CREATE on the
// database revoked from PUBLIC. Opening such a ledger reads its version and creates nothing; it was refused
// ("no right to create the ledger's tables") because CREATE SCHEMA IF NOT EXISTS checks CREATE every time.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresLedger } from '../../src/ledger/postgres/postgres-ledger.js';
import { targetOf } from '../../src/ledger/target.js';
import { createDatabase, dropDatabase, query, skipPostgres } from '../helpers/postgres.js';

describe.skipIf(skipPostgres())('a PostgreSQL ledger opened by a role without CREATE', () => {
  let url: string;
  let role: string;
  let appUrl: string;
  beforeEach(async () => {
    url = await createDatabase();
    role = `app_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const database = new URL(url).pathname.slice(1);
    await query(url, `CREATE ROLE ${role} LOGIN PASSWORD 'app-secret'`);
    await query(url, `REVOKE CREATE ON DATABASE ${database} FROM PUBLIC`);
    await query(url, `REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    await query(url, `GRANT CONNECT ON DATABASE ${database} TO ${role}`);
    const app = new URL(url);
    app.username = role;
    app.password = 'app-secret';
    appUrl = app.toString();
  });
  afterEach(async () => {
    await dropDatabase(url);
    await query(url.replace(/\/[^/]*$/, '/postgres'), `DROP ROLE IF EXISTS ${role}`);
  });

  const grantDml = async () => {
    await query(url, `GRANT USAGE ON SCHEMA revimport TO ${role}`);
    await query(url, `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA revimport TO ${role}`);
    await query(url, `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA revimport TO ${role}`);
  };

  it('opens a ledger already migrated, and writes and reads it', async () => {
    await (await PostgresLedger.open({ url, env: {} }, { merges: false })).close();
    await grantDml();
    const ledger = await PostgresLedger.open({ url: appUrl, env: {} });
    try {
      const target = await ledger.target(targetOf('https://crm.example', 'k'));
      const run = await ledger.beginRun({ command: 'push', files: ['a.csv'] });
      const entry = { key: 'id:1', contentHash: 'h', payload: '{}', idempotencyKey: 'k1' };
      expect(await ledger.markPending(target, run, [entry])).toBe(1);
      expect(await ledger.markDelivered(target, ['id:1'], 'k1')).toBe(1);
      const reported = { targetId: target, fingerprints: ['fp-1'] };
      await ledger.finishRun(run, { counts: {}, exitCode: 0, durationMs: 1, reported });
      expect(await ledger.counts(target)).toEqual({ pending: 0, delivered: 1, rejected: 0, failed: 0 });
      expect([...(await ledger.knownProblems(target)).keys()]).toEqual(['fp-1']);
    } finally {
      await ledger.close();
    }
  });

  it('creates its tables in a schema it was given, without CREATE on the database', async () => {
    await query(url, `CREATE SCHEMA revimport AUTHORIZATION ${role}`);
    const ledger = await PostgresLedger.open({ url: appUrl, env: {} });
    try {
      const target = await ledger.target(targetOf('https://crm.example', 'k'));
      expect(await ledger.counts(target)).toEqual({ pending: 0, delivered: 0, rejected: 0, failed: 0 });
    } finally {
      await ledger.close();
    }
    const versions = await query(url, 'SELECT version FROM revimport.migrations ORDER BY version');
    expect(versions.map((row) => row.version)).toEqual([1, 2, 3, 4]);
  });

  it('is still refused, with the reason, when there is no ledger and it may not create one', async () => {
    await expect(PostgresLedger.open({ url: appUrl, env: {} })).rejects.toThrow(
      /no right to create the ledger's tables/,
    );
  });
});
