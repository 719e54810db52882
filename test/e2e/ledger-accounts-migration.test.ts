// Ledgers written by the release before accounts (test/fixtures/ledger-v3: a target was a URL plus a key)
// carried over (issue 19), on SQLite and on PostgreSQL, through the real CLI and a receiver that stores
// duplicates: one delivering key becomes the account (a refused key's batch joins it without resending what
// was delivered); two delivering keys stop the push (exit 2, both listed, nothing sent) until `ledger assign`
// merges them into one account or names them as two.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/ledger/target.js';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { acceptedIds, pushEnv, range, repeats, writeConfig, writeExport } from '../helpers/exports.js';
import { postgresV3, sqliteV3, type V3Fixture } from '../helpers/ledger-v3.js';
import { createDatabase, dropDatabase, skipPostgres } from '../helpers/postgres.js';

const backends = [
  { name: 'sqlite', skip: false },
  { name: 'postgres', skip: skipPostgres() },
] as const;
const [a, b, c] = ['key-a', 'key-b', 'key-c'].map(keyFingerprint);

describe.each(backends)('a ledger from before accounts, on $name', ({ name, skip }) => {
  let receiver: Receiver;
  let work: string;
  let state: string;

  beforeEach(async () => {
    if (skip) return;
    receiver = await startReceiver({ honourIdempotencyKey: false });
    work = tempDir('revimport-v3-');
    writeConfig(work);
  });
  afterEach(async () => {
    if (skip) return;
    await receiver.close();
    if (name === 'postgres') await dropDatabase(state);
  });

  const open = async (fixture: V3Fixture) => {
    if (name === 'sqlite') state = sqliteV3(work, fixture, receiver.url);
    else {
      state = await createDatabase();
      await postgresV3(state, fixture, receiver.url);
    }
  };
  const push = (to: number, key: string, extra: string[] = []) =>
    runCli(
      [
        'push',
        writeExport(work, `e${to}.csv`, { to }),
        '-c',
        path.join(work, 'revimport.config.json'),
        '--json',
        ...extra,
      ],
      {
        cwd: work,
        env: pushEnv(receiver.url, key, state),
      },
    );

  it.skipIf(skip)(
    'one delivering key: the account, and a refused key joins it without resending',
    async () => {
      await open('one-key');
      // key-c is now the account's key: rows 1-4 were delivered with key-a, 5-6 wait in key-c's batch.
      const run = await push(8, 'key-c');
      expect(run.code, run.stderr).toBe(0);
      expect(acceptedIds(receiver.accepted)).toEqual(range(5, 8));
      expect(repeats(receiver.accepted).size).toBe(0);
      const again = await push(8, 'key-a');
      expect(JSON.parse(again.stdout)).toMatchObject({ sent: 0, alreadySent: 8 });
      const accounts = await runCli(['ledger', 'accounts', '--state', state], { cwd: work });
      expect(accounts.stdout.trim()).toBe(
        `${receiver.url}: 8 delivered, 0 outstanding, last used ${today()}`,
      );
      expect(accounts.stdout).not.toContain(c);
    },
  );

  it.skipIf(skip)('two delivering keys stop the push until `ledger assign` merges them', async () => {
    await open('two-keys');
    const stopped = await push(8, 'key-a');
    expect(stopped.code).toBe(2);
    expect(receiver.accepted).toHaveLength(0);
    expect(stopped.stderr).toContain(`key ${a}: 4 delivered, 0 outstanding`);
    expect(stopped.stderr).toContain(`key ${b}: 4 delivered, 0 outstanding`);
    expect(stopped.stderr).toContain(`revimport ledger assign ${receiver.url} ${a} ${b}`);

    const assign = await runCli(['ledger', 'assign', receiver.url, a!, b!, '--state', state], { cwd: work });
    expect(assign.code, assign.stderr).toBe(0);
    const run = await push(8, 'key-b');
    expect(run.code, run.stderr).toBe(0);
    expect(acceptedIds(receiver.accepted)).toEqual([7, 8]);
  });

  it.skipIf(skip)('two delivering keys named as two accounts keep two histories', async () => {
    await open('two-keys');
    for (const [key, account] of [
      [a, 'shop-a'],
      [b, 'shop-b'],
    ] as const) {
      const assign = await runCli(
        ['ledger', 'assign', receiver.url, key!, '--account', account, '--state', state],
        {
          cwd: work,
        },
      );
      expect(assign.code, assign.stderr).toBe(0);
    }
    const runA = await push(8, 'key-new-a', ['--account', 'shop-a']);
    expect(runA.code, runA.stderr).toBe(0);
    expect(acceptedIds(receiver.accepted)).toEqual(range(5, 8));
    const runB = await push(8, 'key-b', ['--account', 'shop-b']);
    expect(JSON.parse(runB.stdout)).toMatchObject({ sent: 4, alreadySent: 4 });
    expect(acceptedIds(receiver.accepted)).toEqual([1, 2, 5, 6, 7, 7, 8, 8]);
  });
});

function today(): string {
  return new Date().toISOString().slice(0, 10);
}
