// The ledger on PostgreSQL through the real CLI (issue 15): selected by --state / REVIMPORT_STATE, the
// password never shown, the per-target advisory lock (exit 5), and runs on two "hosts" (separate working
// folders, nothing shared but the database) pushing overlapping exports to one receiver: each record
// arrives once, a SIGKILLed run loses nothing, and only unacknowledged batches are resent under their key.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import postgres from 'postgres';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockKeys } from '../../src/ledger/postgres/advisory-lock.js';
import { targetOf } from '../../src/ledger/target.js';
import { type Receiver, type RecordedRequest, startReceiver } from '../../src/testing/receiver.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { acceptedIds, pushEnv, range, repeats, writeConfig, writeExport } from '../helpers/exports.js';
import { createDatabase, dropDatabase, query, skipPostgres } from '../helpers/postgres.js';
import { type RunningCli, startCli } from '../helpers/spawn.js';

const key = 'pg-e2e-key-7c21';
const flags = ['--json', '--batch-size', '50', '--concurrency', '2', '--retries', '2'];

let receiver: Receiver;
let url: string;
/** Two hosts: each its own working folder and config, nothing on disk shared. */
let hostA: string;
let hostB: string;

describe.skipIf(skipPostgres())('the ledger on PostgreSQL', () => {
  beforeEach(async () => {
    receiver = await startReceiver({ apiKey: key });
    url = await createDatabase();
    hostA = tempDir('revimport-host-a-');
    hostB = tempDir('revimport-host-b-');
    writeConfig(hostA);
    writeConfig(hostB);
  });
  afterEach(async () => {
    await receiver.close();
    await dropDatabase(url);
  });

  const push = (host: string, file: string, extra: string[] = [], env: Record<string, string> = {}) =>
    runCli(['push', file, '-c', path.join(host, 'revimport.config.json'), ...flags, ...extra], {
      cwd: host,
      env: { ...pushEnv(receiver.url, key, url), ...env },
    });

  it('pushes into the database, skips what it delivered on the next run, and lists both in history', async () => {
    const file = writeExport(hostA, 'a.csv', { to: 400 });
    const first = await push(hostA, file, ['--verbose']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ sent: 400 });
    const password = new URL(url).password;
    expect(first.stderr).toContain(`ledger: ${url.replace(password, '***')}`);

    // Another host, same database: nothing is sent again.
    const fileB = writeExport(hostB, 'a.csv', { to: 400 });
    const second = await push(hostB, fileB);
    expect(JSON.parse(second.stdout)).toMatchObject({ sent: 0, alreadySent: 400 });
    expect(receiver.accepted).toHaveLength(400);

    const history = await runCli(['history', '--json', '--state', url], { cwd: hostB });
    expect(history.code).toBe(0);
    const runs = JSON.parse(history.stdout);
    expect(
      runs.map((r: { exitCode: number; counts: { sent: number } }) => [r.exitCode, r.counts.sent]),
    ).toEqual([
      [0, 0],
      [0, 400],
    ]);
    const text = await runCli(['history', '--state', url.replace(`:${password}@`, '@')], {
      cwd: hostB,
      env: { PGPASSWORD: password },
    });
    expect(text.stdout).toContain('sent=400');
    for (const output of [
      first.stdout,
      first.stderr,
      second.stdout,
      second.stderr,
      history.stdout,
      text.stdout,
    ]) {
      expect(output).not.toContain(password);
    }
    // What the database holds never includes the API key (only its fingerprint).
    const dump = await query(
      url,
      `SELECT (SELECT string_agg(t::text, '') FROM revimport.targets AS t) || (SELECT string_agg(r::text, '')
        FROM revimport.records AS r) || (SELECT string_agg(r::text, '') FROM revimport.runs AS r) AS text`,
    );
    expect(dump[0]!.text).toContain(receiver.url);
    expect(dump[0]!.text).not.toContain(key);
  });

  it('takes the password from PGPASSWORD or statePasswordFile, and refuses a wrong one with exit 2, masked', async () => {
    const password = new URL(url).password;
    const bare = url.replace(`:${password}@`, '@');
    const file = writeExport(hostA, 'a.csv', { to: 60 });
    const viaEnv = await push(hostA, file, [], { REVIMPORT_STATE: bare, PGPASSWORD: password });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);

    writeFileSync(path.join(hostB, 'pg-password'), `${password}\n`, { mode: 0o600 });
    writeConfig(hostB, { state: bare, statePasswordFile: 'pg-password' });
    const fileB = writeExport(hostB, 'b.csv', { from: 41, to: 100 });
    const viaFile = await runCli(['push', fileB, '-c', path.join(hostB, 'revimport.config.json'), ...flags], {
      cwd: hostB,
      env: { REVIMPORT_BASE_URL: receiver.url, REVIMPORT_API_KEY: key },
    });
    expect(viaFile.code, viaFile.stderr).toBe(0);
    expect(JSON.parse(viaFile.stdout)).toMatchObject({ sent: 40, alreadySent: 20 });

    const wrong = url.replace(`:${password}@`, ':not-the-password@');
    const refused = await push(hostA, file, [], { REVIMPORT_STATE: wrong });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /the ledger database postgres:\/\/revimport:\*\*\*@127\.0\.0\.1:\d+\/\w+ refused the login/,
    );
    expect(refused.stderr + refused.stdout).not.toContain('not-the-password');
    expect(acceptedIds(receiver.accepted)).toEqual(range(1, 100));
  });

  it("waits for another host's run on the same target, then refuses with exit 5 and names it", async () => {
    const file = writeExport(hostA, 'a.csv', { to: 30 });
    const holder = postgres(url, {
      max: 1,
      onnotice: () => {},
      connection: { application_name: 'revimport lock 99@host-b' },
    });
    try {
      const [namespace, target] = lockKeys(targetOf(receiver.url, key));
      const reserved = await holder.reserve();
      await reserved.unsafe('SELECT pg_advisory_lock($1, $2)', [namespace, target]);
      const started = Date.now();
      const locked = await push(hostA, file, ['--wait', '1']);
      expect(locked.code).toBe(5);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(locked.stderr).toContain(`another run is active for ${receiver.url} on the ledger`);
      expect(locked.stderr).toContain('99@host-b');
      expect(receiver.requests).toHaveLength(0);
      // Another key of the same account waits its turn too (issue 19: the lock is the account's).
      const rotated = await push(hostA, file, [], { REVIMPORT_API_KEY: 'another-key' });
      expect(rotated.code).toBe(5);
      // Another target (another account) is not held up.
      const other = await push(hostA, file, [], {
        REVIMPORT_API_KEY: 'another-key',
        REVIMPORT_ACCOUNT: 'other',
      });
      expect(other.code).toBe(3);
      reserved.release();
    } finally {
      await holder.end();
    }
    const after = await push(hostA, file);
    expect(after.code, after.stderr).toBe(0);
    const history = JSON.parse((await runCli(['history', '--json', '--state', url], { cwd: hostA })).stdout);
    expect(history.map((r: { exitCode: number }) => r.exitCode)).toEqual([0, 3, 5, 5]);
  });

  it('two hosts pushing overlapping exports at once: each record arrives once', async () => {
    const fileA = writeExport(hostA, 'day.csv', { from: 1, to: 1500 });
    const fileB = writeExport(hostB, 'day.csv', { from: 1001, to: 2500 });
    receiver.setDelay(2);
    const [a, b] = await Promise.all([
      push(hostA, fileA, ['--wait', '60']),
      push(hostB, fileB, ['--wait', '60']),
    ]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    const sa = JSON.parse(a.stdout);
    const sb = JSON.parse(b.stdout);
    expect(sa.sent + sb.sent).toBe(2500);
    expect(sa.alreadySent + sb.alreadySent).toBe(500);
    expect(acceptedIds(receiver.accepted)).toEqual(range(1, 2500));
  });

  it('a host SIGKILLed mid-run loses nothing: the other host resends only its unanswered batches, same key', async () => {
    const rows = 3000;
    const fileA = writeExport(hostA, 'big.csv', { to: rows });
    const fileB = writeExport(hostB, 'big.csv', { to: rows });
    const target: { cli?: RunningCli; killedAt?: number } = {};
    await receiver.close();
    receiver = await startReceiver({
      apiKey: key,
      onRequest: () => {
        if (target.killedAt === undefined && target.cli && receiver.accepted.length >= 1000) {
          target.killedAt = receiver.requests.length;
          target.cli.child.kill('SIGKILL');
        }
      },
    });
    receiver.setDelay(20);
    target.cli = startCli(['push', fileA, '-c', path.join(hostA, 'revimport.config.json'), ...flags], {
      cwd: hostA,
      env: pushEnv(receiver.url, key, url),
    });
    const killed = await target.cli.done;
    expect(killed.signal).toBe('SIGKILL');
    while (receiver.held > 0) await delay(10);
    const firstRun: RecordedRequest[] = receiver.requests.slice();
    const keysOfFirstRun = new Set(firstRun.map((q) => q.idempotencyKey));
    expect(receiver.accepted.length).toBeLessThan(rows);
    // The killed run's connections are gone, and its lock with them: the other host does not wait.
    receiver.setDelay(0);
    const again = await push(hostB, fileB, ['--batch-size', '20']);
    expect(again.code, again.stderr).toBe(0);
    const s = JSON.parse(again.stdout);
    expect([s.valid, s.failed, s.pending]).toEqual([rows, 0, 0]);
    expect(s.retried).toBeGreaterThan(0);
    expect([...new Set(acceptedIds(receiver.accepted))]).toEqual(range(1, rows));
    // The receiver honours Idempotency-Key: nothing stored twice; what was resent went under its first key.
    expect(repeats(receiver.accepted).size).toBe(0);
    const resent = receiver.requests
      .slice(firstRun.length)
      .filter((q) => keysOfFirstRun.has(q.idempotencyKey));
    expect(resent.length).toBeGreaterThan(0);
    expect(resent.length).toBeLessThanOrEqual(2);
    for (const q of resent)
      expect(q.body).toBe(firstRun.find((f) => f.idempotencyKey === q.idempotencyKey)!.body);
  });
});
