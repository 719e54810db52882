// What a person reads on a failed run: codes as sentences, one line per failed body, no "0 rows read"
// from retry (issue 13, "Messages").
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/testing/receiver.js';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { pushEnv, writeExport } from '../helpers/exports.js';

const key = 'e2e-messages-key-19ad';
const e2e = useE2E({ key });

/** A loopback URL nothing listens on: a receiver's, after it closed. */
async function closedUrl(): Promise<string> {
  const receiver = await startReceiver();
  await receiver.close();
  return receiver.url;
}

describe('messages', () => {
  it('a refused connection is a sentence, one line per failed body; retry prints no rows-read line', async () => {
    const env = pushEnv(await closedUrl(), key, path.join(e2e.work, 'ledger.db'));
    const input = writeExport(e2e.work, 'a.csv', { to: 5 });
    const args = ['-c', e2e.config, '--retries', '1', '--batch-size', '2', '--concurrency', '1'];
    const push = await runCli(['push', input, ...args], { env });
    expect(push.code).toBe(4);
    const failed = push.stdout.split('\n').filter((line) => line.startsWith('  '));
    expect(failed).toEqual([
      `  batch of 2 records from ${input}:2 (first "1"): gave up after 2 attempts: the connection was refused: nothing listens at that address and port (ECONNREFUSED); kept for the next run`,
      `  batch of 2 records from ${input}:4 (first "3"): gave up after 2 attempts: the connection was refused: nothing listens at that address and port (ECONNREFUSED); kept for the next run`,
      `  ${input}:6 [(record)] "5": gave up after 2 attempts: the connection was refused: nothing listens at that address and port (ECONNREFUSED); kept for the next run`,
    ]);
    expect(push.stdout).toContain('delivery failed: 5\n');

    const retry = await runCli(['retry', ...args, '--retries', '0'], { env });
    expect(retry.code).toBe(4);
    expect(retry.stdout).not.toContain('rows read');
    expect(retry.stdout).toContain('resent from earlier runs 5');
    expect(retry.stdout).toContain('gave up after 1 attempt: the connection was refused');
  });

  it('a host name that does not resolve is named so', async () => {
    const input = writeExport(e2e.work, 'a.csv', { to: 1 });
    const env = pushEnv('https://no-such-host.invalid', key, path.join(e2e.work, 'ledger.db'));
    const result = await runCli(['push', input, '-c', e2e.config, '--retries', '0'], { env });
    expect(result.code).toBe(4);
    // Without a DNS server at all the resolver says EAI_AGAIN instead: also a sentence.
    expect(result.stdout).toMatch(
      /the host name (did not resolve \(ENOTFOUND\)|could not be resolved for now: DNS did not answer \(EAI_AGAIN\))/,
    );
    expect(result.stdout).toContain('1 row read, 1 valid, 0 invalid');
    expect(result.stdout).toContain('1 request in 1 batch,');
  });

  it('a missing config file is a sentence with the code', async () => {
    const input = writeExport(e2e.work, 'a.csv', { to: 1 });
    const result = await runCli(['push', input, '-c', path.join(e2e.work, 'nope.json'), '--check']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the file does not exist (ENOENT)');
    expect(result.stderr).not.toContain('no such file or directory');
  });
});
