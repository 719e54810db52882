// A target is the CRM account, not the key (issue 19). Against a receiver that stores every element it gets
// (it does not honour Idempotency-Key, as a CRM may not), through the real CLI, on a real SQLite file and on
// the real PostgreSQL of the tests: a rotated key resends nothing, a key once refused resends nothing when it
// becomes the account's key, two keys of one account on two "hosts" store every record once, and `history`
// shows which key each run used.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/ledger/target.js';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { acceptedIds, pushEnv, range, repeats, writeConfig, writeExport } from '../helpers/exports.js';
import { createDatabase, dropDatabase, skipPostgres } from '../helpers/postgres.js';

const flags = ['--json', '--batch-size', '40', '--concurrency', '2', '--retries', '1'];
const backends = [
  { name: 'sqlite', skip: false },
  { name: 'postgres', skip: skipPostgres() },
] as const;

describe.each(backends)('the account as the target, on $name', ({ name, skip }) => {
  let receivers: Receiver[];
  let work: string;
  let state: string;
  /** Every element stored by every receiver started in the test (one CRM, restarted on its port). */
  const stored = () => receivers.flatMap((r) => r.accepted);

  beforeEach(async () => {
    if (skip) return;
    receivers = [await startReceiver({ honourIdempotencyKey: false })];
    work = tempDir('revimport-accounts-');
    writeConfig(work);
    state = name === 'sqlite' ? path.join(work, 'ledger.db') : await createDatabase();
  });
  afterEach(async () => {
    if (skip) return;
    await Promise.all(receivers.map((r) => r.close()));
    if (name === 'postgres') await dropDatabase(state);
  });

  const push = (file: string, key: string, extra: string[] = [], url = receivers[0]!.url) =>
    runCli(['push', file, '-c', path.join(work, 'revimport.config.json'), ...flags, ...extra], {
      cwd: work,
      env: pushEnv(url, key, state),
    });

  it.skipIf(skip)('a rotated key continues the account: A -> B -> A resends nothing', async () => {
    const file = writeExport(work, 'export.csv', { to: 300 });
    for (const key of ['key-a', 'key-a', 'key-b', 'key-a']) {
      const run = await push(file, key);
      expect(run.code, run.stderr).toBe(0);
    }
    expect(acceptedIds(stored())).toEqual(range(1, 300));
    expect(repeats(stored()).size).toBe(0);

    // New rows with the rotated key go out once; history names each run's key by its fingerprint.
    const more = writeExport(work, 'more.csv', { to: 350 });
    const run = await push(more, 'key-b', ['--verbose']);
    expect(run.stderr).toContain(`target: ${receivers[0]!.url}, key ${keyFingerprint('key-b')}`);
    expect(JSON.parse(run.stdout)).toMatchObject({ sent: 50, alreadySent: 300 });
    expect(acceptedIds(stored())).toEqual(range(1, 350));
    const history = await runCli(['history', '--json', '--state', state], { cwd: work });
    const keys = JSON.parse(history.stdout).map((r: { keyFingerprint: string }) => r.keyFingerprint);
    const [a, b] = [keyFingerprint('key-a'), keyFingerprint('key-b')];
    expect(keys).toEqual([b, a, b, a, a]);
    const text = await runCli(['history', '--state', state], { cwd: work });
    expect(text.stdout).toContain(b);
    expect(`${text.stdout}${history.stdout}${run.stderr}`).not.toContain('key-b');
  });

  it.skipIf(skip)('a key once refused resends nothing when it later becomes the account key', async () => {
    await receivers[0]!.close();
    const port = new URL(receivers[0]!.url).port;
    const crm = (apiKey: string) =>
      startReceiver({ port: Number(port), apiKey, honourIdempotencyKey: false });
    receivers = [await crm('key-a')];
    const file = writeExport(work, 'export.csv', { to: 200 });
    expect((await push(file, 'key-a')).code).toBe(0);
    // Key B, not yet the account's, is refused on the first batch of new rows (201-210).
    const refused = await push(writeExport(work, 'next.csv', { to: 210 }), 'key-b');
    expect(refused.code, refused.stderr).toBe(3);
    // The CRM rotates the account's key to B.
    await receivers[0]!.close();
    receivers.push(await crm('key-b'));
    const later = await push(writeExport(work, 'later.csv', { to: 220 }), 'key-b');
    expect(later.code, later.stderr).toBe(0);
    expect(acceptedIds(stored())).toEqual(range(1, 220));
    expect(repeats(stored()).size).toBe(0);
  });

  it.skipIf(skip)('two keys of one account on two hosts at once: every record stored once', async () => {
    const hostB = tempDir('revimport-accounts-b-');
    writeConfig(hostB);
    const fileA = writeExport(work, 'a.csv', { to: 400 });
    const fileB = writeExport(hostB, 'b.csv', { from: 201, to: 600 });
    const [a, b] = await Promise.all([
      push(fileA, 'key-a', ['--wait', '60']),
      runCli(['push', fileB, '-c', path.join(hostB, 'revimport.config.json'), ...flags, '--wait', '60'], {
        cwd: hostB,
        env: pushEnv(receivers[0]!.url, 'key-b', name === 'sqlite' ? state : state),
      }),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(acceptedIds(stored())).toEqual(range(1, 600));
  });

  it.skipIf(skip)('`account` separates two accounts behind one URL', async () => {
    const file = writeExport(work, 'export.csv', { to: 100 });
    expect((await push(file, 'key-eu', ['--account', 'eu'])).code).toBe(0);
    const us = await push(file, 'key-us', [], undefined);
    expect(us.code).toBe(0);
    expect(JSON.parse(us.stdout)).toMatchObject({ sent: 100 });
    const again = await runCli(['push', file, '-c', path.join(work, 'revimport.config.json'), ...flags], {
      cwd: work,
      env: { ...pushEnv(receivers[0]!.url, 'key-eu2', state), REVIMPORT_ACCOUNT: 'eu' },
    });
    expect(JSON.parse(again.stdout)).toMatchObject({ sent: 0, alreadySent: 100 });
    expect(stored()).toHaveLength(200);
    const accounts = await runCli(['ledger', 'accounts', '--state', state], { cwd: work });
    expect(accounts.code, accounts.stderr).toBe(0);
    expect(accounts.stdout).toContain(`${receivers[0]!.url}: 100 delivered`);
    expect(accounts.stdout).toContain(`${receivers[0]!.url} (account eu): 100 delivered`);
  });
});
