// Whole-run behaviour found in review: ids repeated across the files of one run, a later file that
// cannot be read, the target's URL spelling, and a run ended by a refused key still reporting.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { acceptedIds, pushEnv, range, writeExport } from '../helpers/exports.js';

const key = 'runs-key-93aa';
const e2e = useE2E({ key, startFirst: true });

describe('one run over several files', () => {
  it('treats a conversionId repeated in a later file as a duplicate, in --check and in push', async () => {
    const day1 = writeExport(e2e.work, 'day1.csv', { from: 1, to: 300 });
    const day2 = writeExport(e2e.work, 'day2.csv', { from: 201, to: 400 });
    const check = await runCli(['push', day1, day2, '-c', e2e.config, '--check', '--json'], {
      cwd: e2e.work,
    });
    expect(JSON.parse(check.stdout)).toMatchObject({
      rowsRead: 500,
      valid: 400,
      invalid: 100,
      duplicates: 100,
    });
    const push = await runCli(['push', day1, day2, '-c', e2e.config, '--json'], {
      cwd: e2e.work,
      env: pushEnv(e2e.receiver.url, key, e2e.state),
    });
    expect(JSON.parse(push.stdout)).toMatchObject({ sent: 400, duplicates: 100 });
    expect(acceptedIds(e2e.receiver.accepted)).toEqual(range(1, 400));
  });

  it('refuses an unreadable file before sending anything (exit 2, no request)', async () => {
    const good = writeExport(e2e.work, 'good.csv', { to: 50 });
    const result = await runCli(['push', good, path.join(e2e.work, 'missing.csv'), '-c', e2e.config], {
      cwd: e2e.work,
      env: pushEnv(e2e.receiver.url, key, e2e.state),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot read .*missing\.csv: the file does not exist \(ENOENT\)/);
    expect(e2e.receiver.requests).toHaveLength(0);
  });

  it('records what was delivered when a later file fails, so the next run does not send it again', async () => {
    const good = writeExport(e2e.work, 'good.csv', { to: 600 });
    const broken = path.join(e2e.work, 'broken.csv');
    writeFileSync(broken, 'no,header,here\n1,2,3\n');
    const first = await runCli(['push', good, broken, '-c', e2e.config, '--json'], {
      cwd: e2e.work,
      env: pushEnv(e2e.receiver.url, key, e2e.state),
    });
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/broken\.csv: no header row found/);
    const partial = JSON.parse(first.stdout);
    expect(partial.error.message).toMatch(/no header row found/);
    const stored = e2e.receiver.accepted.length;
    expect(partial.sent).toBe(stored);
    const again = await runCli(['push', good, '-c', e2e.config, '--json'], {
      cwd: e2e.work,
      env: pushEnv(e2e.receiver.url, key, e2e.state),
    });
    expect(again.code).toBe(0);
    const summary = JSON.parse(again.stdout);
    // Records the failed run had read but not delivered come back first (retried, counted apart), then
    // the file's rows find them delivered.
    expect(summary.alreadySent + summary.sent).toBe(600);
    expect(summary.retriedSent).toBe(summary.retried);
    expect(summary.alreadySent).toBe(stored + summary.retried);
    expect(acceptedIds(e2e.receiver.accepted)).toEqual(range(1, 600));
    const history = JSON.parse(
      (await runCli(['history', '--json', '--state', e2e.state], { cwd: e2e.work })).stdout,
    );
    expect(history[1]).toMatchObject({ exitCode: 2, counts: { sent: stored } });
  });
});

describe('the target', () => {
  it('is the same however the base URL is spelled', async () => {
    const file = writeExport(e2e.work, 'a.csv', { to: 30 });
    const port = new URL(e2e.receiver.url).port;
    await runCli(['push', file, '-c', e2e.config], {
      cwd: e2e.work,
      env: pushEnv(`http://127.0.0.1:${port}`, key, e2e.state),
    });
    const again = await runCli(['push', file, '-c', e2e.config, '--json'], {
      cwd: e2e.work,
      env: pushEnv(`HTTP://127.0.0.1:${port}/`, key, e2e.state),
    });
    expect(JSON.parse(again.stdout)).toMatchObject({ alreadySent: 30, sent: 0 });
    expect(e2e.receiver.accepted).toHaveLength(30);
  });
});

describe('a refused key', () => {
  it('still prints the --json summary and records exit 3 in the history', async () => {
    const file = writeExport(e2e.work, 'a.csv', { to: 30 });
    const result = await runCli(['push', file, '-c', e2e.config, '--json'], {
      cwd: e2e.work,
      env: pushEnv(e2e.receiver.url, 'wrong-key-1234', e2e.state),
    });
    expect(result.code).toBe(3);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ sent: 0, requests: 1, valid: 30 });
    expect(summary.error.message).toMatch(/401/);
    expect(result.stdout + result.stderr).not.toContain('wrong-key-1234');
    const history = JSON.parse(
      (await runCli(['history', '--json', '--state', e2e.state], { cwd: e2e.work })).stdout,
    );
    expect(history[0]).toMatchObject({ exitCode: 3 });
  });
});
