// Cron and logs (issue 13): every run prints one --json line, early usage errors included; runs that
// resolved their target are in history; output paths are checked before anything is sent; empty exports
// are a successful run of 0 rows; --max-invalid N accepts up to N invalid rows.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { acceptedIds, header, pushEnv, range, writeExport } from '../helpers/exports.js';

const key = 'cron-log-secret-key-7d1f0';
const e2e = useE2E({ key, startFirst: true, ledger: 'state/ledger.db' });

const push = (
  args: string[],
  env: Record<string, string | undefined> = pushEnv(e2e.receiver.url, key, e2e.state),
) => runCli(['push', ...args, '-c', e2e.config], { cwd: e2e.work, env });

/** The one line a --json run prints: stdout holds it and nothing else. */
function onlyLine(result: CliResult): Record<string, unknown> {
  expect(result.stdout.endsWith('\n')).toBe(true);
  expect(result.stdout.slice(0, -1)).not.toContain('\n');
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

async function history(): Promise<{ command: string; files: string[]; exitCode: number | null }[]> {
  const result = await runCli(['history', '--json', '--state', e2e.state], { cwd: e2e.work });
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

describe('--json: one line per run, also when a usage or config error ends it early', () => {
  it('a missing file, no key, a bad URL, a bad flag: exit 2, a parseable object with the error', async () => {
    const file = writeExport(e2e.work, 'a.csv', { to: 5 });
    const log = path.join(e2e.work, 'revimport.jsonl');
    const runs: [string, Promise<CliResult>, string, string][] = [
      ['missing file', push([path.join(e2e.work, 'missing.csv'), '--json']), 'config', 'missing.csv'],
      [
        'no key',
        push([file, '--json'], { REVIMPORT_BASE_URL: e2e.receiver.url, REVIMPORT_STATE: e2e.state }),
        'config',
        'no API key',
      ],
      [
        'bad URL',
        push([file, '--json', '--base-url', 'https://user:pw@crm.example.com/?token=x']),
        'usage',
        'must not contain credentials',
      ],
      ['unknown flag', push([file, '--json', '--bogus']), 'usage', "unknown option '--bogus'"],
    ];
    for (const [name, running, kind, message] of runs) {
      const result = await running;
      expect(result.code, name).toBe(2);
      appendFileSync(log, result.stdout);
      const line = onlyLine(result);
      expect(line, name).toMatchObject({ exitCode: 2, error: { kind }, rowsRead: 0, sent: 0, check: false });
      expect((line.error as { message: string }).message, name).toContain(message);
      expect(line.runId, name).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(line.finishedAt as string), name).toBeGreaterThanOrEqual(
        Date.parse(line.startedAt as string),
      );
      expect(line.version, name).toMatch(/^\d+\.\d+\.\d+/);
      expect(result.stdout, name).not.toContain(key);
    }
    expect(e2e.receiver.requests).toHaveLength(0);
    // A week of cron runs read back line by line: one object per run, each with its own id.
    const lines = readFileSync(log, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.exitCode)).toEqual([2, 2, 2, 2]);
    expect(new Set(lines.map((l) => l.runId)).size).toBe(4);
    // The target is the base URL alone: never the key, a password or a query string.
    expect(lines.map((l) => l.target)).toEqual([
      e2e.receiver.url,
      e2e.receiver.url,
      'https://crm.example.com',
      null,
    ]);
    expect(readFileSync(log, 'utf8')).not.toMatch(/pw@|token=x/);
  });

  it('a successful run carries the same run facts, and exitCode 0', async () => {
    const result = await push([writeExport(e2e.work, 'a.csv', { to: 5 }), '--json']);
    expect(result.code).toBe(0);
    const line = onlyLine(result);
    expect(line).toMatchObject({ exitCode: 0, target: e2e.receiver.url, sent: 5 });
    expect(line).not.toHaveProperty('error');
  });
});

describe('history: every push or retry that resolved its target', () => {
  it('lists a run refused the ledger (exit 5), a refused key (exit 3) and a --max-invalid stop (exit 1)', async () => {
    const file = writeExport(e2e.work, 'a.csv', { to: 10, invalid: [2, 3] });
    // Another live run holds the ledger: this very process, on this host.
    mkdirSync(path.dirname(e2e.state), { recursive: true });
    const lock = `${e2e.state}.lock`;
    writeFileSync(
      lock,
      JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString(), host: hostname() }),
    );
    const locked = await push([file, '--json']);
    expect(locked.code).toBe(5);
    expect(onlyLine(locked)).toMatchObject({ exitCode: 5, error: { kind: 'lock' } });
    rmSync(lock);

    const refused = await push([file, '--json'], pushEnv(e2e.receiver.url, 'wrong-key', e2e.state));
    expect(refused.code).toBe(3);
    expect(onlyLine(refused)).toMatchObject({ exitCode: 3, error: { kind: 'auth' } });

    const over = await push([file, '--json', '--max-invalid', '1']);
    expect(over.code).toBe(1);
    expect(onlyLine(over)).toMatchObject({ exitCode: 1, sent: 0 });

    const runs = await history();
    expect(runs.map((r) => [r.command, r.exitCode])).toEqual([
      ['push', 1],
      ['push', 3],
      ['push', 5],
    ]);
    expect(runs.every((r) => r.files[0] === file)).toBe(true);
    expect(e2e.receiver.accepted).toHaveLength(0);
  });
});

describe('output paths are checked before anything is read or sent', () => {
  it('a --rejects path in a missing folder: exit 2 with a plain message, no request, no ledger', async () => {
    const file = writeExport(e2e.work, 'a.csv', { to: 2000, invalid: [1500] });
    const rejects = path.join(e2e.work, 'no-such-folder', 'rejects.csv');
    const result = await push([file, '--rejects', rejects, '--json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `cannot write the rejects file ${rejects}: the folder ${path.dirname(rejects)} does not exist`,
    );
    expect(result.stderr).not.toContain('internal error');
    expect(onlyLine(result)).toMatchObject({ exitCode: 2, error: { kind: 'usage' } });
    expect(e2e.receiver.requests).toHaveLength(0);
    expect(existsSync(e2e.state)).toBe(false);
  });

  it('a ledger whose folder cannot be created (a file is in the way): exit 2, no request', async () => {
    const blocker = path.join(e2e.work, 'not-a-folder');
    writeFileSync(blocker, 'x');
    const ledger = path.join(blocker, 'state', 'ledger.db');
    const result = await push(
      [writeExport(e2e.work, 'a.csv', { to: 20 })],
      pushEnv(e2e.receiver.url, key, ledger),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot create the ledger ${ledger}: ${blocker} is a file, not a folder`);
    expect(e2e.receiver.requests).toHaveLength(0);
  });
});

describe('empty input: "no conversions today" is a successful run of 0 rows, with a warning', () => {
  it.each([
    ['a 0-byte CSV', 'empty.csv', '', 'the file is empty'],
    ['an empty JSON-lines file', 'empty.jsonl', '', 'the file is empty'],
    ['a header-only CSV', 'header.csv', `${header}\n`, 'only a header'],
    ['a 0-byte file of no known extension (format cannot be sniffed)', 'export.dat', '', 'the file is empty'],
  ])('%s: exit 0, 0 rows, a warning naming the file', async (_name, name, content, what) => {
    const file = path.join(e2e.work, name);
    writeFileSync(file, content);
    for (const args of [['--json'], ['--json', '--check']]) {
      const result = await push([file, ...args]);
      expect(result.code, args.join(' ')).toBe(0);
      const line = onlyLine(result);
      expect(line).toMatchObject({ exitCode: 0, rowsRead: 0, valid: 0, invalid: 0, sent: 0 });
      const warning = `${file}: no data rows (${what}): nothing to import from it`;
      expect(line.warnings).toEqual([warning]);
      expect(result.stderr).toContain(`warning: ${warning}`);
    }
    expect(e2e.receiver.requests).toHaveLength(0);
  });

  it('a header-only file whose header is no preset exactly is still a config error (exit 2)', async () => {
    const detecting = path.join(e2e.work, 'detect.config.json');
    writeFileSync(detecting, JSON.stringify({ timezone: 'UTC' }));
    const stripe = readFileSync(
      path.resolve(import.meta.dirname, '../../fixtures/presets/stripe/unified_payments.csv'),
      'utf8',
    ).split('\n')[0]!;
    const good = path.join(e2e.work, 'stripe.csv');
    writeFileSync(good, `${stripe}\n`);
    const ok = await runCli(['push', good, '-c', detecting, '--json'], {
      cwd: e2e.work,
      env: pushEnv(e2e.receiver.url, key, e2e.state),
    });
    expect(ok.code).toBe(0);
    expect(onlyLine(ok)).toMatchObject({ rowsRead: 0, presets: { [good]: 'stripe' } });

    const near = path.join(e2e.work, 'near.csv');
    writeFileSync(near, `${stripe.replace('Amount', 'Amt')}\n`);
    const bad = await runCli(['push', near, '-c', detecting, '--json'], {
      cwd: e2e.work,
      env: pushEnv(e2e.receiver.url, key, e2e.state),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('matches no preset exactly; nearly: stripe (no "Amount")');
  });
});

describe('--max-invalid N accepts up to N invalid rows', () => {
  it('2 invalid rows within --max-invalid 2: exit 0 and the valid rows sent; 3: exit 1 and nothing sent', async () => {
    const within = writeExport(e2e.work, 'within.csv', { to: 30, invalid: [4, 17] });
    const ok = await push([within, '--max-invalid', '2', '--json']);
    expect(ok.code).toBe(0);
    expect(onlyLine(ok)).toMatchObject({ exitCode: 0, valid: 28, invalid: 2, sent: 28 });
    expect(acceptedIds(e2e.receiver.accepted)).toEqual(range(1, 30).filter((id) => id !== 4 && id !== 17));

    const over = writeExport(e2e.work, 'over.csv', { from: 31, to: 60, invalid: [33, 44, 55] });
    const stopped = await push([over, '--max-invalid', '2', '--json']);
    expect(stopped.code).toBe(1);
    expect(onlyLine(stopped)).toMatchObject({ exitCode: 1, invalid: 3, sent: 0 });
    expect(e2e.receiver.accepted).toHaveLength(28);

    // Without --max-invalid any invalid row is still exit 1 (the rest delivered).
    const plain = await push([
      writeExport(e2e.work, 'plain.csv', { from: 61, to: 70, invalid: [62] }),
      '--json',
    ]);
    expect(plain.code).toBe(1);
    expect(e2e.receiver.accepted).toHaveLength(37);
  });
});
