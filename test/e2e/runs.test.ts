// Whole-run behaviour found in review: ids repeated across the files of one run, a later file that
// cannot be read, the target's URL spelling, and a run ended by a refused key still reporting.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { acceptedIds, pushEnv, range, writeConfig, writeExport } from '../helpers/exports.js';

const key = 'runs-key-93aa';
let receiver: Receiver;
let work: string;
let state: string;
let config: string;

beforeEach(async () => {
  receiver = await startReceiver({ apiKey: key });
  work = tempDir();
  state = path.join(work, 'ledger.db');
  config = writeConfig(work);
});
afterEach(async () => {
  await receiver.close();
});

describe('one run over several files', () => {
  it('treats a conversionId repeated in a later file as a duplicate, in --check and in push', async () => {
    const day1 = writeExport(work, 'day1.csv', { from: 1, to: 300 });
    const day2 = writeExport(work, 'day2.csv', { from: 201, to: 400 });
    const check = await runCli(['push', day1, day2, '-c', config, '--check', '--json'], { cwd: work });
    expect(JSON.parse(check.stdout)).toMatchObject({
      rowsRead: 500,
      valid: 400,
      invalid: 100,
      duplicates: 100,
    });
    const push = await runCli(['push', day1, day2, '-c', config, '--json'], {
      cwd: work,
      env: pushEnv(receiver.url, key, state),
    });
    expect(JSON.parse(push.stdout)).toMatchObject({ sent: 400, duplicates: 100 });
    expect(acceptedIds(receiver.accepted)).toEqual(range(1, 400));
  });

  it('refuses an unreadable file before sending anything (exit 2, no request)', async () => {
    const good = writeExport(work, 'good.csv', { to: 50 });
    const result = await runCli(['push', good, path.join(work, 'missing.csv'), '-c', config], {
      cwd: work,
      env: pushEnv(receiver.url, key, state),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot read .*missing\.csv: the file does not exist \(ENOENT\)/);
    expect(receiver.requests).toHaveLength(0);
  });

  it('records what was delivered when a later file fails, so the next run does not send it again', async () => {
    const good = writeExport(work, 'good.csv', { to: 600 });
    const broken = path.join(work, 'broken.csv');
    writeFileSync(broken, 'no,header,here\n1,2,3\n');
    const first = await runCli(['push', good, broken, '-c', config, '--json'], {
      cwd: work,
      env: pushEnv(receiver.url, key, state),
    });
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/broken\.csv: no header row found/);
    const partial = JSON.parse(first.stdout);
    expect(partial.error.message).toMatch(/no header row found/);
    const stored = receiver.accepted.length;
    expect(partial.sent).toBe(stored);
    const again = await runCli(['push', good, '-c', config, '--json'], {
      cwd: work,
      env: pushEnv(receiver.url, key, state),
    });
    expect(again.code).toBe(0);
    const summary = JSON.parse(again.stdout);
    // Records the failed run had read but not delivered come back first (retried, counted apart), then
    // the file's rows find them delivered.
    expect(summary.alreadySent + summary.sent).toBe(600);
    expect(summary.retriedSent).toBe(summary.retried);
    expect(summary.alreadySent).toBe(stored + summary.retried);
    expect(acceptedIds(receiver.accepted)).toEqual(range(1, 600));
    const history = JSON.parse((await runCli(['history', '--json', '--state', state], { cwd: work })).stdout);
    expect(history[1]).toMatchObject({ exitCode: 2, counts: { sent: stored } });
  });
});

describe('the target', () => {
  it('is the same however the base URL is spelled', async () => {
    const file = writeExport(work, 'a.csv', { to: 30 });
    const port = new URL(receiver.url).port;
    await runCli(['push', file, '-c', config], {
      cwd: work,
      env: pushEnv(`http://127.0.0.1:${port}`, key, state),
    });
    const again = await runCli(['push', file, '-c', config, '--json'], {
      cwd: work,
      env: pushEnv(`HTTP://127.0.0.1:${port}/`, key, state),
    });
    expect(JSON.parse(again.stdout)).toMatchObject({ alreadySent: 30, sent: 0 });
    expect(receiver.accepted).toHaveLength(30);
  });
});

describe('a refused key', () => {
  it('still prints the --json summary and records exit 3 in the history', async () => {
    const file = writeExport(work, 'a.csv', { to: 30 });
    const result = await runCli(['push', file, '-c', config, '--json'], {
      cwd: work,
      env: pushEnv(receiver.url, 'wrong-key-1234', state),
    });
    expect(result.code).toBe(3);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ sent: 0, requests: 1, valid: 30 });
    expect(summary.error.message).toMatch(/401/);
    expect(result.stdout + result.stderr).not.toContain('wrong-key-1234');
    const history = JSON.parse((await runCli(['history', '--json', '--state', state], { cwd: work })).stdout);
    expect(history[0]).toMatchObject({ exitCode: 3 });
  });
});
