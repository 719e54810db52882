// The PostgreSQL ledger going away mid-run (issue 15): the database stopped, or the run's connections cut,
// ends the run with exit 4 and its records outstanding; the next run, once the database is back, finishes
// them without storing any twice. A server of this file's own (the shared one must not be stopped).
import { setTimeout as delay } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { acceptedIds, pushEnv, range, repeats, writeConfig, writeExport } from '../helpers/exports.js';
import { skipPostgres } from '../helpers/postgres.js';
import { type PostgresServer, startPostgres } from '../helpers/postgres-server.js';
import { startCli } from '../helpers/spawn.js';

const key = 'pg-outage-key-0b3e';
const rows = 2000;
const flags = ['--json', '--batch-size', '50', '--concurrency', '2', '--retries', '1'];

let server: PostgresServer;
let work: string;
let config: string;
let file: string;

describe.skipIf(skipPostgres())('the PostgreSQL ledger going away mid-run', () => {
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    work = tempDir();
    config = writeConfig(work);
    file = writeExport(work, 'big.csv', { to: rows });
    if (!(await isUp())) await server.start();
    // A fresh ledger for each case: the schema dropped.
    const sql = postgres(server.url, { max: 1, onnotice: () => {} });
    await sql.unsafe('DROP SCHEMA IF EXISTS revimport CASCADE');
    await sql.end();
  });

  // The cut happens while a request is held at the receiver: every request read from the 500th accepted record
  // on waits until the cut is done and its connection closes have reached the CLI. Such a request's body was
  // recorded as pending before it was sent, and its answer can no longer be recorded, so the next run must
  // resend it (retried > 0) with the same Idempotency-Key. Without the hold, a cut landing between two bodies
  // left nothing pending, and the second run had nothing to resend (a fresh-clone CI run saw that once).
  async function outage(stop: () => Promise<unknown>): Promise<void> {
    let cut: Promise<unknown> | undefined;
    const receiver: Receiver = await startReceiver({
      apiKey: key,
      intercept: () => {
        if (cut === undefined && receiver.accepted.length >= 500) {
          cut = stop()
            .catch(() => undefined)
            .then(() => delay(500));
        }
        return cut === undefined ? undefined : { until: cut };
      },
    });
    try {
      receiver.setDelay(10);
      const env = pushEnv(receiver.url, key, server.url);
      const run = startCli(['push', file, '-c', config, ...flags], { cwd: work, env });
      const first = await run.done;
      expect(first.code, first.stderr).toBe(4);
      expect(first.stderr).toMatch(
        /(lost the connection to the ledger database|lost the run lock on the ledger) postgres:\/\/revimport:\*\*\*@127\.0\.0\.1:\d+\/postgres/,
      );
      expect(first.stderr).not.toContain(server.password);
      expect(receiver.accepted.length).toBeLessThan(rows);
      const keysOfFirstRun = new Set(receiver.requests.map((q) => q.idempotencyKey));
      const firstRequests = receiver.requests.length;

      if (!(await isUp())) await server.start();
      receiver.setDelay(0);
      const again = await runCli(['push', file, '-c', config, ...flags], { cwd: work, env });
      expect(again.code, again.stderr).toBe(0);
      const summary = JSON.parse(again.stdout);
      expect(summary.retried).toBeGreaterThan(0);
      expect([...new Set(acceptedIds(receiver.accepted))]).toEqual(range(1, rows));
      // The receiver honours Idempotency-Key: nothing was stored twice.
      expect(repeats(receiver.accepted).size).toBe(0);
      const resent = receiver.requests
        .slice(firstRequests)
        .filter((q) => keysOfFirstRun.has(q.idempotencyKey));
      expect(resent.length).toBeGreaterThan(0);
      // What the summary calls resent from earlier runs is what the receiver saw come again under an old key.
      expect(summary.retried).toBe(resent.reduce((sum, q) => sum + q.elements, 0));
    } finally {
      await receiver.close();
    }
  }

  async function isUp(): Promise<boolean> {
    const sql = postgres(server.url, { max: 1, onnotice: () => {}, connect_timeout: 2 });
    try {
      await sql.unsafe('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await sql.end({ timeout: 1 });
    }
  }

  it('the database stopped: exit 4, and the next run finishes the records', async () => {
    // Stopped at once (immediate shutdown), from inside a request: the CLI's next ledger write fails.
    await outage(() => server.halt());
  }, 90_000);

  it("the run's connections cut (pg_terminate_backend): exit 4, and the next run finishes the records", async () => {
    await outage(() => {
      const sql = postgres(server.url, { max: 1, onnotice: () => {} });
      return sql
        .unsafe(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name LIKE 'revimport %' AND pid <> pg_backend_pid()`,
        )
        .finally(() => sql.end());
    });
  }, 90_000);
});
