// The CLI's contract around a push: --check touches neither ledger nor network, --quiet and --json keep
// stdout to the result, stdin and .gz inputs, the --max-invalid budget, and the API key in no output
// and no file.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import {
  acceptedIds,
  expectedRecord,
  exportCsv,
  range,
  summaryKeys,
  writeExport,
} from '../helpers/exports.js';

const key = 'e2e-cli-secret-key-4b2e9';

const e2e = useE2E({ key, ledger: 'state/ledger.db' });
const { start } = e2e;

const push = (args: string[], stdin?: string | Buffer) =>
  runCli(['push', ...args, '-c', e2e.config], {
    cwd: e2e.work,
    env: e2e.env(),
    ...(stdin === undefined ? {} : { stdin }),
  });

describe('--check', () => {
  it('validates and reports, writes no ledger (not even its folder) and sends nothing', async () => {
    const r = await start();
    const file = writeExport(e2e.work, 'a.csv', { to: 20, invalid: [7] });
    const result = await push([file, '--check', '--json']);
    expect(result.code).toBe(1);
    const s = JSON.parse(result.stdout);
    expect([s.check, s.rowsRead, s.valid, s.invalid, s.sent, s.requests]).toEqual([true, 20, 19, 1, 0, 0]);
    expect(r.requests).toHaveLength(0);
    expect(existsSync(path.dirname(e2e.state))).toBe(false);
  });
});

describe('stdout carries the result only', () => {
  it('--quiet prints nothing on success', async () => {
    const r = await start();
    const result = await push([writeExport(e2e.work, 'a.csv', { to: 20 }), '--quiet']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
    expect(r.accepted).toHaveLength(20);
  });

  it('--quiet with invalid rows: nothing on stdout, the summary on stderr', async () => {
    await start();
    const result = await push([writeExport(e2e.work, 'a.csv', { to: 20, invalid: [2] }), '--quiet']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('20 rows read, 19 valid, 1 invalid');
    expect(result.stderr).toContain('negative value: 1');
  });

  it('--json prints exactly one JSON object holding every summary key', async () => {
    await start();
    const result = await push([writeExport(e2e.work, 'a.csv', { to: 20 }), '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    const s = JSON.parse(result.stdout);
    expect(Object.keys(s).sort()).toEqual([...summaryKeys].sort());
    for (const name of summaryKeys.filter(
      (k) =>
        ![
          'totals',
          'errors',
          'presets',
          'warnings',
          'skippedReasons',
          'changedDifference',
          'check',
          'runId',
          'startedAt',
          'finishedAt',
          'version',
          'target',
          'ledger',
          'firstRunOnLedger',
          'knownReportedIn',
          'guard',
        ].includes(k),
    )) {
      expect(typeof s[name], name).toBe('number');
    }
    const total = range(1, 20).reduce(
      (sum, id) => sum + Math.round(expectedRecord(id).conversionValue * 100),
      0,
    );
    expect(s).toMatchObject({
      rowsRead: 20,
      sent: 20,
      batches: 1,
      requests: 1,
      totals: { EUR: total / 100 },
      // The ledger used, new to this target (issue 19).
      ledger: e2e.state,
      firstRunOnLedger: true,
    });
    expect(s.errors).toEqual([]);
    // Not a TTY: one line per file on stderr, no spinner; first, that the ledger is new to the target.
    expect(result.stderr).toBe(
      `warning: first run for ${s.target} on the ledger ${e2e.state}: it holds no record of deliveries there, ` +
        'so what was delivered through another ledger (another user, HOME or host) is not known and would be sent again\n' +
        `${path.join(e2e.work, 'a.csv')}: 20 rows\n`,
    );
  });

  it('the text summary names what was delivered and the totals', async () => {
    await start();
    const result = await push([writeExport(e2e.work, 'a.csv', { to: 3 })]);
    expect(result.code).toBe(0);
    const text = result.stdout.replace(/\d+\.\d s/, 'N s');
    expect(text).toBe(
      [
        '3 rows read, 3 valid, 0 invalid',
        'delivered 3, rejected 0, failed 0, already sent 0',
        '1 request in 1 batch, N s',
        'delivered totals: EUR 6.06',
        '',
      ].join('\n'),
    );
  });
});

describe('inputs', () => {
  it('reads stdin for -', async () => {
    const r = await start();
    const result = await push(['-', '--json'], exportCsv({ to: 25, invalid: [9] }));
    expect(result.code).toBe(1);
    const s = JSON.parse(result.stdout);
    expect([s.rowsRead, s.valid, s.sent]).toEqual([25, 24, 24]);
    expect(s.errors[0].examples[0]).toMatchObject({ line: 10, column: 'Amount', value: '-5.00' });
    expect(r.accepted.map((a) => a.record)).toEqual(
      range(1, 25)
        .filter((id) => id !== 9)
        .map((id) => expectedRecord(id)),
    );
  });

  it('decompresses a .gz file on the fly', async () => {
    const r = await start();
    const file = path.join(e2e.work, 'a.csv.gz');
    writeFileSync(file, gzipSync(exportCsv({ to: 40 })));
    const result = await push([file, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).sent).toBe(40);
    expect(r.accepted.map((a) => a.record)).toEqual(range(1, 40).map((id) => expectedRecord(id)));
  });
});

describe('--max-invalid', () => {
  it('with 3 invalid rows and a budget of 1: nothing sent, exit 1, the summary says why; 10% accepts them', async () => {
    const r = await start();
    const file = writeExport(e2e.work, 'a.csv', { to: 30, invalid: [2, 12, 22] });
    const json = await push([file, '--max-invalid', '1', '--json']);
    expect(json.code).toBe(1);
    const s = JSON.parse(json.stdout);
    expect([s.valid, s.invalid, s.sent, s.requests]).toEqual([27, 3, 0, 0]);
    expect(s.aborted).toBe('3 invalid rows exceed --max-invalid 1; nothing was sent');

    const text = await push([file, '--max-invalid', '1']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('not sent: 3 invalid rows exceed --max-invalid 1; nothing was sent');
    expect(r.requests).toHaveLength(0);

    // Within the budget (3 of 30 rows is 10%) the invalid rows are accepted: exit 0.
    const within = await push([file, '--max-invalid', '10%', '--json']);
    expect(within.code).toBe(0);
    expect(JSON.parse(within.stdout).sent).toBe(27);
  });
});

describe('the API key', () => {
  it('appears in no output and no file: stdout, stderr (--verbose), rejects, ledger, WAL', async () => {
    const r = await start({
      validate: (record) =>
        (record as { conversionId?: string }).conversionId === '5' ? `bad element ${key}?` : undefined,
    });
    const file = writeExport(e2e.work, 'a.csv', { to: 30, invalid: [3] });
    const rejects = path.join(e2e.work, 'rejects.csv');
    const result = await push([file, '--verbose', '--rejects', rejects, '--batch-size', '10']);
    expect(result.code).toBe(1);
    expect(acceptedIds(r.accepted)).toEqual(range(1, 30).filter((id) => id !== 3 && id !== 5));
    expect(r.requests[0]!.headers['x-api-key']).toBe(key);
    // The server echoed the key in its message: it must be redacted everywhere it is repeated.
    expect(readFileSync(rejects, 'utf8')).toContain('bad element');
    for (const text of [result.stdout, result.stderr, readFileSync(rejects, 'utf8')]) {
      expect(text).not.toContain(key);
    }
    const ledgerFiles = readdirSync(path.dirname(e2e.state));
    expect(ledgerFiles).toContain('ledger.db');
    for (const name of ledgerFiles) {
      const bytes = readFileSync(path.join(path.dirname(e2e.state), name));
      expect(bytes.indexOf(key), name).toBe(-1);
      expect(bytes.indexOf(Buffer.from(key, 'utf16le')), name).toBe(-1);
    }
  });
});
