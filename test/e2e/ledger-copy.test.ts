// `revimport ledger copy --to postgres://...` (issue 15): a crashed SQLite ledger (test/fixtures/ledger-v2,
// as in ledger-migration.test.ts) moved into PostgreSQL loses nothing: the next push from the PostgreSQL
// ledger resends the body in flight at the crash as the same body under the same key, resends the failed
// record, never sends what was delivered, and history shows the copied runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/ledger.js';
import { targetOf } from '../../src/ledger/target.js';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { pushEnv } from '../helpers/exports.js';
import { crashedLedger, fixtureKey, writeFixtureExport } from '../helpers/ledger-v2.js';
import { createDatabase, dropDatabase, query, skipPostgres } from '../helpers/postgres.js';

const key = fixtureKey;

describe.skipIf(skipPostgres())('ledger copy', () => {
  let receiver: Receiver;
  let url: string;
  beforeEach(async () => {
    receiver = await startReceiver({ apiKey: key });
    url = await createDatabase();
  });
  afterEach(async () => {
    await receiver.close();
    await dropDatabase(url);
  });

  it('moves a crashed SQLite ledger into PostgreSQL: delivered never resent, outstanding resent as it was', async () => {
    const work = tempDir('revimport-copy-');
    const { state, stored, runs } = crashedLedger(work, receiver.url);
    const password = new URL(url).password;
    const copy = await runCli(['ledger', 'copy', '--state', state, '--to', url, '--json'], { cwd: work });
    expect(copy.code, copy.stderr).toBe(0);
    const counts = JSON.parse(copy.stdout);
    expect(counts).toMatchObject({ targets: 1, runs, records: 3, outstanding: 3, batches: 0 });
    expect(copy.stdout).not.toContain(password);
    // Copied again: the runs are not doubled.
    const twice = await runCli(['ledger', 'copy', '--state', state, '--to', url, '--json'], { cwd: work });
    expect(twice.code, twice.stderr).toBe(0);
    const history = await runCli(['history', '--json', '--state', url], { cwd: work });
    expect(JSON.parse(history.stdout)).toHaveLength(runs);

    const { file, config } = writeFixtureExport(work);
    // From another folder: the SQLite file is not there, only the database.
    const elsewhere = tempDir('revimport-copy-host-');
    const env = pushEnv(receiver.url, key, url);
    const first = await runCli(['push', file, '-c', config, '--json'], { cwd: elsewhere, env });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      retried: 3,
      retriedSent: 3,
      sent: 1,
      alreadySent: 6,
      changed: 0,
    });
    expect(receiver.accepted.map((a) => a.record.conversionId).sort()).toEqual(['F-1', 'N-1', 'P-1', 'P-2']);
    const pending = receiver.requests.find((q) => q.body.includes('"P-1"'))!;
    expect(pending.idempotencyKey).toBe(stored[0]!.k);
    const again = await runCli(['push', file, '-c', config, '--json'], { cwd: elsewhere, env });
    expect(JSON.parse(again.stdout)).toMatchObject({ retried: 0, sent: 0, alreadySent: 7 });
    expect(receiver.accepted).toHaveLength(4);
  });

  it("carries each run's report over, under the run's id in PostgreSQL (revimport report reads it there)", async () => {
    const work = tempDir('revimport-copy-');
    const state = path.join(work, 'ledger.db');
    const { file, config } = writeFixtureExport(work);
    const push = await runCli(['push', file, '-c', config, '--json'], {
      cwd: work,
      env: pushEnv(receiver.url, key, state),
    });
    expect(push.code, push.stderr).toBe(0);
    const copy = await runCli(['ledger', 'copy', '--state', state, '--to', url, '--json'], { cwd: work });
    expect(copy.code, copy.stderr).toBe(0);
    const [run] = JSON.parse((await runCli(['history', '--json', '--state', url], { cwd: work })).stdout);
    const out = path.join(work, 'copied.html');
    const report = await runCli(['report', '--state', url, '--run', String(run.id), '--out', out], {
      cwd: work,
    });
    expect(report.code, report.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain(`revimport run ${run.id}`);
    expect(html).toContain(path.basename(file));
  });

  it('copies every record of a ledger read in more than one page, each once, over two targets', async () => {
    const work = tempDir('revimport-copy-');
    const state = path.join(work, 'ledger.db');
    const ledger = openLedger(state);
    // 2 targets x 12,500 delivered records: the copy reads 10,000 a page, so pages end inside each target.
    const perTarget = 12_500;
    for (const account of ['a', 'b']) {
      const target = ledger.target(targetOf(`https://${account}.crm.example`, key));
      const run = ledger.beginRun({ command: 'push', files: ['orders.csv'] });
      const entries = Array.from({ length: perTarget }, (_, n) => ({
        key: `id:${account}-${n}`,
        contentHash: `h${n}`,
        currency: 'EUR',
        value: n,
      }));
      ledger.settleBatch(ledger.journalBatch(target, run, `b-${account}`, entries, '[]'));
    }
    ledger.merge();
    ledger.close();
    const copy = await runCli(['ledger', 'copy', '--state', state, '--to', url, '--json'], { cwd: work });
    expect(copy.code, copy.stderr).toBe(0);
    expect(JSON.parse(copy.stdout)).toMatchObject({ targets: 2, records: 2 * perTarget });
    const rows = await query(
      url,
      `SELECT count(*)::integer AS n, count(DISTINCT (target_id, key))::integer AS keys,
        sum(value)::float8 AS total FROM revimport.records`,
    );
    expect(rows).toEqual([{ n: 2 * perTarget, keys: 2 * perTarget, total: perTarget * (perTarget - 1) }]);
  });

  it('refuses a --to that is not a PostgreSQL URL, and a missing file (exit 2)', async () => {
    const work = tempDir('revimport-copy-');
    const notUrl = await runCli(['ledger', 'copy', '--state', path.join(work, 'x.db'), '--to', 'other.db'], {
      cwd: work,
    });
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toContain('--to must be a PostgreSQL URL');
    const missing = await runCli(['ledger', 'copy', '--state', path.join(work, 'x.db'), '--to', url], {
      cwd: work,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('there is no ledger file');
    expect(missing.stderr).not.toContain(new URL(url).password);
  });
});
