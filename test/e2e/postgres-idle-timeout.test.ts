// A database with idle_session_timeout (often set on managed PostgreSQL services) must not end a long run
// (review of issue 15): the run lock's connection is idle while the run sends, and the server closing it
// stopped every run longer than the timeout with exit 4, "lost the run lock".
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { acceptedIds, pushEnv, range, repeats, writeConfig, writeExport } from '../helpers/exports.js';
import { createDatabase, dropDatabase, query, skipPostgres } from '../helpers/postgres.js';

const key = 'pg-idle-key-41d2';
let receiver: Receiver;
let url: string;

describe.skipIf(skipPostgres())('a ledger database with idle_session_timeout', () => {
  beforeEach(async () => {
    receiver = await startReceiver({ apiKey: key });
    receiver.setDelay(150);
    url = await createDatabase();
    const name = new URL(url).pathname.slice(1);
    await query(url, `ALTER DATABASE ${name} SET idle_session_timeout = '1s'`);
  });
  afterEach(async () => {
    await receiver.close();
    await dropDatabase(url);
  });

  it('a run longer than the timeout delivers everything once (exit 0)', async () => {
    const work = tempDir();
    const config = writeConfig(work);
    const file = writeExport(work, 'orders.csv', { to: 1500 });
    const flags = ['--json', '--batch-size', '50', '--concurrency', '1'];
    const result = await runCli(['push', file, '-c', config, ...flags], {
      cwd: work,
      env: pushEnv(receiver.url, key, url),
    });
    // 30 requests answered 150 ms late, one at a time: ~4.5 s, past the 1 s timeout several times over.
    expect(result.stderr).not.toMatch(/lost the run lock/);
    expect(JSON.parse(result.stdout)).toMatchObject({ exitCode: 0, sent: 1500 });
    expect(result.code).toBe(0);
    expect(acceptedIds(receiver.accepted)).toEqual(range(1, 1500));
    expect(repeats(receiver.accepted).size).toBe(0);
  });
});
