// `revimport ledger copy` run twice (issue 15, found by review): the pending body of a crashed run and its
// per-record outstanding rows are copied once. Before the fix the second copy added the journal row again,
// and the next run sent that body twice under one Idempotency-Key: a receiver that does not deduplicate
// keys stored its records twice.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/ledger.js';
import { targetOf } from '../../src/ledger/target.js';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { idempotencyKey } from '../../src/transport/idempotency.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { pushEnv } from '../helpers/exports.js';
import { createDatabase, dropDatabase, query, skipPostgres } from '../helpers/postgres.js';

const key = 'copy-twice-key';
const record = (id: string) => ({
  conversionId: id,
  conversionDatetime: '2026-11-01T11:00:00+01:00',
  conversionValue: 10,
  conversionCurrency: 'EUR',
  conversionName: 'purchase',
});

describe.skipIf(skipPostgres())('ledger copy, twice', () => {
  let receiver: Receiver;
  let url: string;
  beforeEach(async () => {
    receiver = await startReceiver({ apiKey: key, honourIdempotencyKey: false });
    url = await createDatabase();
  });
  afterEach(async () => {
    await receiver.close();
    await dropDatabase(url);
  });

  it('copies a pending batch and outstanding records once: the next run sends every record once', async () => {
    const work = tempDir('revimport-copy-twice-');
    const state = path.join(work, 'ledger.db');
    // What a push killed mid-run leaves: one journal row in flight, two records pending per record.
    const ledger = openLedger(state);
    try {
      const target = ledger.target(targetOf(receiver.url, key));
      const run = ledger.beginRun({ command: 'push', files: ['orders.csv'] });
      const ids = ['J-1', 'J-2', 'J-3'];
      const body = JSON.stringify(ids.map(record));
      const entries = ids.map((id) => ({
        key: `id:${id}`,
        contentHash: `hash-${id}`,
        currency: 'EUR',
        value: 10,
      }));
      ledger.journalBatch(target, run, idempotencyKey(body), entries, body);
      const perRecord = ['P-1', 'P-2'].map(record);
      const perRecordKey = idempotencyKey(JSON.stringify(perRecord));
      ledger.markPending(
        target,
        run,
        perRecord.map((r) => ({
          key: `id:${r.conversionId}`,
          contentHash: `hash-${r.conversionId}`,
          payload: JSON.stringify(r),
          idempotencyKey: perRecordKey,
        })),
      );
    } finally {
      ledger.close();
    }

    const first = await runCli(['ledger', 'copy', '--state', state, '--to', url, '--json'], { cwd: work });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ outstanding: 2, batches: 1 });
    const second = await runCli(['ledger', 'copy', '--state', state, '--to', url, '--json'], { cwd: work });
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ outstanding: 0, batches: 0 });
    expect(await query(url, 'SELECT count(*)::integer AS n FROM revimport.batches')).toEqual([{ n: 1 }]);

    const elsewhere = tempDir('revimport-copy-twice-host-');
    const retry = await runCli(['retry', '--json'], { cwd: elsewhere, env: pushEnv(receiver.url, key, url) });
    expect(retry.code, retry.stderr).toBe(0);
    expect(JSON.parse(retry.stdout)).toMatchObject({ retried: 5, retriedSent: 5, sent: 0 });
    const sent = receiver.accepted.map((a) => a.record.conversionId).sort();
    expect(sent).toEqual(['J-1', 'J-2', 'J-3', 'P-1', 'P-2']);

    // Copied a third time after that run: what it delivered is not outstanding again.
    const third = await runCli(['ledger', 'copy', '--state', state, '--to', url, '--json'], { cwd: work });
    expect(third.code, third.stderr).toBe(0);
    expect(JSON.parse(third.stdout)).toMatchObject({ outstanding: 0, batches: 0 });
    const again = await runCli(['retry', '--json'], { cwd: elsewhere, env: pushEnv(receiver.url, key, url) });
    expect(again.code, again.stderr).toBe(0);
    expect(receiver.accepted).toHaveLength(5);
  });
});
