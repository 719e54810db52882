// A ledger written by the schema before the batch journal (test/fixtures/ledger-v2: a push killed
// mid-run by revimport 19b249b) is migrated by the next push and loses nothing: the body in flight at the
// crash is resent as the same body under the same Idempotency-Key, the failed one is resent, and what was
// delivered (merged or only staged) is never sent again (the file's copies of all six are found sent);
// a push after that sends nothing at all.
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { pushEnv } from '../helpers/exports.js';
import { crashedLedger, fixtureKey, writeFixtureExport } from '../helpers/ledger-v2.js';
import { keep, retain } from '../helpers/native.js';

const key = fixtureKey;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

it('migrates a crashed schema-2 ledger: pending resent with its body and key, delivered never resent', async () => {
  const work = tempDir('revimport-migration-');
  receiver = await startReceiver({ apiKey: key });
  // The fixture's target is the default receiver address; this receiver listens elsewhere.
  const { state, stored, schema } = crashedLedger(work, receiver.url);
  expect(schema).toBe(2);
  expect(stored.map((row) => row.key)).toEqual(['id:P-1', 'id:P-2']);
  const { file, config } = writeFixtureExport(work);
  const env = pushEnv(receiver.url, key, state);

  const first = await runCli(['push', file, '-c', config, '--json'], { cwd: work, env });
  expect(first.code, first.stderr).toBe(0);
  expect(JSON.parse(first.stdout)).toMatchObject({
    retried: 3,
    retriedSent: 3,
    sent: 1,
    alreadySent: 6,
    changed: 0,
  });
  const sentIds = receiver.accepted.map((a) => a.record.conversionId);
  expect(sentIds.sort()).toEqual(['F-1', 'N-1', 'P-1', 'P-2']);
  // The body in flight at the crash: the same records in the same order, under the key it went out with.
  const pending = receiver.requests.find((q) => q.body.includes('"P-1"'))!;
  expect(pending.idempotencyKey).toBe(stored[0]!.k);
  expect(JSON.parse(pending.body).map((r: { conversionId: string }) => r.conversionId)).toEqual([
    'P-1',
    'P-2',
  ]);

  const check = retain(new Database(state, { readonly: true }));
  expect(keep(check).prepare('PRAGMA user_version').pluck().get()).toBe(11);
  // Its records got their key filter at the run's open (migration v7); the run again below looks up through it.
  expect(keep(check).prepare("SELECT value FROM meta WHERE name = 'key_filter_complete'").pluck().get()).toBe(
    1,
  );
  check.close();

  const again = await runCli(['push', file, '-c', config, '--json'], { cwd: work, env });
  expect(again.code, again.stderr).toBe(0);
  expect(JSON.parse(again.stdout)).toMatchObject({ retried: 0, sent: 0, alreadySent: 7 });
  expect(receiver.accepted).toHaveLength(4);
});
