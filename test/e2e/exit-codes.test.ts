// Every exit code of README "Exit codes", each from a real run of bin/revimport.js against the receiver:
// 0, 1, 2 (config, flag, commander, mapping), 3, 4 (then recovered), 5 (and --wait), help and version.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Receiver } from '../../src/testing/receiver.js';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import {
  acceptedIds,
  expectedRecord,
  exportConfig,
  pushEnv,
  range,
  writeExport,
} from '../helpers/exports.js';
import { startCli } from '../helpers/spawn.js';

const key = 'e2e-exit-key-77aa';

const e2e = useE2E({ key });
const { start } = e2e;

const push = (r: Receiver, args: string[], apiKey = key) =>
  runCli(['push', ...args], { cwd: e2e.work, env: pushEnv(r.url, apiKey, e2e.state) });

describe('exit 0 and 1', () => {
  it('0: every row delivered, field by field', async () => {
    const r = await start();
    const file = writeExport(e2e.work, 'a.csv', { to: 30 });
    const result = await push(r, [file, '-c', e2e.config, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ rowsRead: 30, valid: 30, invalid: 0, sent: 30 });
    expect(r.accepted.map((a) => a.record)).toEqual(range(1, 30).map((id) => expectedRecord(id)));
  });

  it('1: some rows invalid, the rest delivered', async () => {
    const r = await start();
    const file = writeExport(e2e.work, 'a.csv', { to: 30, invalid: [3, 4] });
    const result = await push(r, [file, '-c', e2e.config, '--json']);
    expect(result.code).toBe(1);
    const s = JSON.parse(result.stdout);
    expect([s.valid, s.invalid, s.sent]).toEqual([28, 2, 28]);
    expect(s.errors).toEqual([
      {
        reason: 'negative value',
        count: 2,
        examples: [4, 5].map((line) => ({
          file,
          line,
          column: 'Amount',
          value: '-5.00',
          message: 'negative value -5.00: refunds are not imported unless allowNegative is set',
        })),
      },
    ]);
    expect(acceptedIds(r.accepted)).toEqual(range(1, 30).filter((id) => id !== 3 && id !== 4));
  });
});

describe('exit 2: usage and config errors, nothing sent', () => {
  it('an unknown config key: the message names the key and the file', async () => {
    const r = await start();
    const bad = path.join(e2e.work, 'bad.config.json');
    writeFileSync(bad, JSON.stringify({ ...exportConfig, batchsize: 5 }));
    const result = await push(r, [writeExport(e2e.work, 'a.csv', { to: 3 }), '-c', bad]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(bad);
    expect(result.stderr).toContain('unknown key batchsize');
    expect(result.stdout).toBe('');
    expect(r.requests).toHaveLength(0);
  });

  it.each([
    {
      name: '--batch-size x',
      args: ['--batch-size', 'x'],
      message: '--batch-size must be a whole number, not "x"',
    },
    {
      name: '--retries -1',
      args: ['--retries', '-1'],
      message: '--retries must be a whole number, not "-1"',
    },
    { name: "commander's unknown option", args: ['--bogus'], message: "error: unknown option '--bogus'" },
    { name: '--max-invalid junk', args: ['--max-invalid', 'lots'], message: '--max-invalid must be a count' },
  ])('a bad flag: $name', async ({ args, message }) => {
    const r = await start();
    const result = await push(r, [writeExport(e2e.work, 'a.csv', { to: 3 }), '-c', e2e.config, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
    expect(r.requests).toHaveLength(0);
  });

  it('a column named in the mapping is missing from the file', async () => {
    const r = await start();
    const missing = path.join(e2e.work, 'missing.config.json');
    const fields = { ...exportConfig.mapping.fields, conversionDatetime: 'Zeit' };
    writeFileSync(missing, JSON.stringify({ ...exportConfig, mapping: { fields } }));
    const file = writeExport(e2e.work, 'a.csv', { to: 3 });
    const result = await push(r, [file, '-c', missing]);
    expect(result.code).toBe(2);
    // The config that expects the column is named (issue 20).
    expect(result.stderr).toContain(
      `${file}:1: the config ./missing.config.json expects columns the header lacks: no column "Zeit" (mapped to conversionDatetime)`,
    );
    expect(result.stderr).not.toContain('no header row found');
    expect(r.requests).toHaveLength(0);
  });

  it('a bare `revimport` (no command) prints the help on stderr and exits 2', async () => {
    const result = await runCli([], { cwd: e2e.work });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: revimport');
    expect(result.stdout).toBe('');
  });
});

describe('exit 0 for help and version, on stdout', () => {
  it.each([
    { args: ['--help'] },
    { args: ['push', '--help'] },
    { args: ['help'] },
    { args: ['retry', '--help'] },
  ])('$args', async ({ args }) => {
    const result = await runCli(args, { cwd: e2e.work });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: revimport/);
    expect(result.stderr).toBe('');
  });

  it('--version', async () => {
    const result = await runCli(['--version'], { cwd: e2e.work });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe('exit 3: the key is refused', () => {
  it('stops after exactly one request, says so on stderr, never prints the key', async () => {
    const r = await start();
    const wrongKey = 'wrong-key-0d15ea5e';
    const file = writeExport(e2e.work, 'a.csv', { to: 500 });
    const result = await push(r, [file, '-c', e2e.config, '--batch-size', '50', '--json', '-v'], wrongKey);
    expect(result.code).toBe(3);
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0]!.status).toBe(401);
    expect(r.accepted).toHaveLength(0);
    expect(result.stderr).toContain('the server refused the API key (HTTP 401)');
    for (const text of [result.stdout, result.stderr]) {
      expect(text).not.toContain(wrongKey);
      expect(text).not.toContain(key);
    }
  });
});

describe('exit 4: delivery failed, then the next run resends', () => {
  it('an always-failing server ends the run quickly; a healthy one later gets everything', async () => {
    const failing = await start({ faults: { seed: 3, error5xx: 1 } });
    const file = writeExport(e2e.work, 'a.csv', { to: 120 });
    const flags = [
      '-c',
      e2e.config,
      '--json',
      '--batch-size',
      '50',
      '--retries',
      '1',
      '--max-retry-time',
      '1',
    ];
    const first = await push(failing, [file, ...flags]);
    expect(first.code).toBe(4);
    const s = JSON.parse(first.stdout);
    expect([s.sent, s.failed, s.pending]).toEqual([0, 120, 0]);
    expect(s.errors.map((g: { reason: string; count: number }) => [g.reason, g.count])).toEqual([
      ['delivery failed', 120],
    ]);
    expect(failing.accepted).toHaveLength(0);
    expect(failing.requests.every((q) => q.status >= 500)).toBe(true);

    // The same target (base URL and key), healthy now: the ledger's failed records go first.
    const port = Number(new URL(failing.url).port);
    await failing.close();
    const healthy = await start({ port });
    const second = await push(healthy, [file, ...flags]);
    expect(second.code).toBe(0);
    const t = JSON.parse(second.stdout);
    expect([t.retried, t.retriedSent, t.sent, t.alreadySent, t.failed]).toEqual([120, 120, 0, 120, 0]);
    expect(acceptedIds(healthy.accepted)).toEqual(range(1, 120));
    expect(
      healthy.accepted.map((a) => a.record).sort((a, b) => Number(a.conversionId) - Number(b.conversionId)),
    ).toEqual(range(1, 120).map((id) => expectedRecord(id)));
  });
});

describe('exit 5: one run at a time per ledger', () => {
  it('a second push exits 5 while the first holds the ledger; with --wait it waits, then succeeds', async () => {
    const r = await start();
    let release!: () => void;
    r.script({ until: new Promise<void>((resolve) => (release = resolve)) });
    const first = startCli(['push', writeExport(e2e.work, 'a.csv', { to: 40 }), '-c', e2e.config, '--json'], {
      cwd: e2e.work,
      env: pushEnv(r.url, key, e2e.state),
    });
    while (r.held === 0) await delay(10);

    const refused = await push(r, [writeExport(e2e.work, 'b.csv', { from: 41, to: 80 }), '-c', e2e.config]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(`another run is active on ${e2e.state}`);
    expect(refused.stdout).toBe('');

    const waiting = startCli(
      ['push', path.join(e2e.work, 'b.csv'), '-c', e2e.config, '--json', '--wait', '30'],
      {
        cwd: e2e.work,
        env: pushEnv(r.url, key, e2e.state),
      },
    );
    let waitedOut = false;
    void waiting.done.then(() => {
      waitedOut = true;
    });
    // Several lock polls (200 ms) later it is still waiting, and has sent nothing.
    await delay(700);
    expect(waitedOut).toBe(false);
    expect(r.requests).toHaveLength(0);
    release();

    const [a, b] = await Promise.all([first.done, waiting.done]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(JSON.parse(a.stdout).sent).toBe(40);
    expect(JSON.parse(b.stdout).sent).toBe(40);
    expect(acceptedIds(r.accepted)).toEqual(range(1, 80));
  });

  it('Ctrl-C while waiting with --wait ends the wait at once (130), not after the wait', async () => {
    const r = await start();
    let release!: () => void;
    r.script({ until: new Promise<void>((resolve) => (release = resolve)) });
    const first = startCli(['push', writeExport(e2e.work, 'a.csv', { to: 40 }), '-c', e2e.config], {
      cwd: e2e.work,
      env: pushEnv(r.url, key, e2e.state),
    });
    while (r.held === 0) await delay(10);
    const waiting = startCli(
      ['push', writeExport(e2e.work, 'b.csv', { from: 41, to: 80 }), '-c', e2e.config, '--wait', '600'],
      {
        cwd: e2e.work,
        env: pushEnv(r.url, key, e2e.state),
      },
    );
    // Ctrl-C once the run says it waits: a signal sent before its handlers exist (a fixed 500 ms under load
    // was not always enough) would kill it outright.
    while (!/waiting up to 600 s/.test(waiting.stderr)) await delay(20);
    waiting.child.kill('SIGINT');
    const stopped = await waiting.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/stopped while waiting for another run/);
    expect(stopped.stderr).not.toMatch(/internal error/);
    release();
    expect((await first.done).code).toBe(0);
    expect(acceptedIds(r.accepted)).toEqual(range(1, 40));
  });
});
