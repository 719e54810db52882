// Issue 20, "Install and schedule": a run's exit code says what is new. Rows an earlier run reported invalid
// (same content, same reasons) are counted `knownInvalid`, not written to the rejects file again and no
// reason for exit 1; records the server refused before, unchanged, are `knownRefused` likewise. The rejects
// file is appended to, never truncated, and may be named per day or per run ({date}, {runId}).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localDay } from '../../src/report/rejects.js';
import type { Receiver } from '../../src/testing/receiver.js';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { exportCsv, pushEnv, writeExport } from '../helpers/exports.js';
import { createDatabase, dropDatabase, query, skipPostgres } from '../helpers/postgres.js';

const key = 'e2e-known-key-51c3';

const e2e = useE2E({ key, receiver: { honourIdempotencyKey: false } });
const { start } = e2e;

const push = (r: Receiver, args: string[], ledger = e2e.state) =>
  runCli(['push', ...args, '-c', e2e.config], { cwd: e2e.work, env: pushEnv(r.url, key, ledger) });

/** The data lines of a CSV rejects file (its header is checked apart). */
const rejectRows = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').slice(1);

/** exit, sent, alreadySent, invalid, knownInvalid: the cron log's view of a run. */
const view = (result: { code: number | null; stdout: string }) => {
  const s = JSON.parse(result.stdout);
  return [result.code, s.sent, s.alreadySent, s.invalid, s.knownInvalid];
};

describe('one bad export no longer makes every later run exit 1', () => {
  it('the rows an earlier run reported are known: exit 0, counted apart, not written again', async () => {
    const r = await start();
    const file = writeExport(e2e.work, 'export.csv', { to: 30, invalid: [3, 4, 5] });
    const rejects = path.join(e2e.work, 'rejects.csv');
    const first = await push(r, [file, '--json', '--rejects', rejects]);
    expect(view(first)).toEqual([1, 27, 0, 3, 0]);
    expect(rejectRows(rejects)).toHaveLength(3);

    const second = await push(r, [file, '--json', '--rejects', rejects]);
    expect(view(second)).toEqual([0, 0, 27, 3, 3]);
    expect(JSON.parse(second.stdout).knownReportedIn).toMatchObject({ runId: 1 });
    // Not written again: the file holds the first run's three rows only.
    expect(rejectRows(rejects)).toHaveLength(3);

    // Content, not the file name: the same export downloaded again under another name is known too.
    const renamed = path.join(e2e.work, 'export (1).csv');
    copyFileSync(file, renamed);
    const third = await push(r, [renamed, '--json', '--rejects', rejects]);
    expect(view(third)).toEqual([0, 0, 27, 3, 3]);

    // A new bad row is new: exit 1, and only it is written.
    const grown = writeExport(e2e.work, 'export-2.csv', { to: 31, invalid: [3, 4, 5, 31] });
    const fourth = await push(r, [grown, '--json', '--rejects', rejects]);
    expect(view(fourth)).toEqual([1, 0, 27, 4, 3]);
    const rows = rejectRows(rejects);
    expect(rows).toHaveLength(4);
    expect(rows[3]).toMatch(/^31,/);
    expect(rows[3]).toMatch(/,4$/);
    expect(r.accepted).toHaveLength(27);
  });

  it('says so in the text summary; --report-known writes them again, still exit 0', async () => {
    const r = await start();
    const file = writeExport(e2e.work, 'export.csv', { to: 10, invalid: [2, 9] });
    expect((await push(r, [file])).code).toBe(1);
    const again = await push(r, [file]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      `2 invalid, all already reported on ${localDay(new Date())} (run 1): not reported again; --report-known to write them`,
    );
    const rejects = path.join(e2e.work, 'known.jsonl');
    const reported = await push(r, [file, '--json', '--report-known', '--rejects', rejects]);
    expect(view(reported)).toEqual([0, 0, 8, 2, 2]);
    const lines = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l._line, l._run])).toEqual([
      [3, '3'],
      [10, '3'],
    ]);
  });

  it('a run whose exit code could not say them (3: a refused key) leaves its rows new for the next run', async () => {
    const r = await start();
    const file = writeExport(e2e.work, 'export.csv', { to: 6, invalid: [2] });
    const refused = await runCli(['push', file, '--json', '-c', e2e.config], {
      cwd: e2e.work,
      env: pushEnv(r.url, 'not-the-key', e2e.state),
    });
    expect(refused.code).toBe(3);
    const next = await push(r, [file, '--json']);
    const s = JSON.parse(next.stdout);
    expect([next.code, s.invalid, s.knownInvalid]).toEqual([1, 1, 0]);
  });

  it('--max-invalid counts only new invalid rows', async () => {
    const r = await start();
    const first = writeExport(e2e.work, 'a.csv', { to: 20, invalid: [1, 2, 3, 4] });
    expect((await push(r, [first, '--json'])).code).toBe(1);
    // Four known, two new: within a budget of 2 (four plus two would exceed it and abort the run).
    const next = writeExport(e2e.work, 'b.csv', { to: 22, invalid: [1, 2, 3, 4, 21, 22] });
    const result = await push(r, [next, '--json', '--max-invalid', '2']);
    const s = JSON.parse(result.stdout);
    expect([result.code, s.invalid, s.knownInvalid, s.aborted]).toEqual([0, 6, 4, undefined]);
  });
});

describe('a record the server refused, unchanged, makes the next runs exit 0', () => {
  it('counted knownRefused, no request, not written again', async () => {
    const r = await start({
      validate: (record) => {
        const id = String((record as { conversionId?: unknown }).conversionId);
        return id.endsWith('7') ? `conversionId ${id} is not allowed` : undefined;
      },
    });
    const file = writeExport(e2e.work, 'export.csv', { to: 20 });
    const rejects = path.join(e2e.work, 'refused.csv');
    const first = await push(r, [file, '--json', '--rejects', rejects]);
    expect(first.code).toBe(1);
    expect(JSON.parse(first.stdout)).toMatchObject({ rejected: 2, knownRefused: 0 });
    const requests = r.requests.length;

    const second = await push(r, [file, '--json', '--rejects', rejects]);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      sent: 0,
      alreadySent: 18,
      rejected: 2,
      knownRefused: 2,
    });
    expect(r.requests.length).toBe(requests);
    expect(rejectRows(rejects)).toHaveLength(2);
  });
});

describe('the rejects file is never truncated', () => {
  it('a later run with one invalid row keeps the rows an earlier run wrote to the same path', async () => {
    const r = await start();
    const rejects = path.join(e2e.work, 'rejects.csv');
    await push(r, [writeExport(e2e.work, 'a.csv', { to: 5, invalid: [1, 2, 3] }), '--rejects', rejects]);
    await push(r, [writeExport(e2e.work, 'b.csv', { from: 6, to: 8, invalid: [7] }), '--rejects', rejects]);
    expect(rejectRows(rejects).map((row) => row.split(',')[0])).toEqual(['1', '2', '3', '7']);
  });

  it("two runs into one rejects-{date}.csv keep both runs' rows, each with its run", async () => {
    const r = await start();
    const a = writeExport(e2e.work, 'a.csv', { to: 5, invalid: [1, 2] });
    const b = writeExport(e2e.work, 'b.csv', { from: 6, to: 8, invalid: [7] });
    const template = path.join(e2e.work, 'rejects-{date}.csv');
    expect((await push(r, [a, '--rejects', template])).code).toBe(1);
    expect((await push(r, [b, '--rejects', template])).code).toBe(1);
    const file = path.join(e2e.work, `rejects-${localDay(new Date())}.csv`);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('Order ID,Visitor ID,Amount,Currency,Time,_raw,_file,_line,_reason,_run');
    expect(lines.slice(1).map((l) => [l.split(',')[0], l.split(',').at(-1)])).toEqual([
      ['1', '1'],
      ['2', '1'],
      ['7', '2'],
    ]);
  });

  it('{runId} names one file per run', async () => {
    const r = await start();
    const dir = path.join(e2e.work, 'rejects');
    mkdirSync(dir);
    const template = path.join(dir, 'run-{runId}.csv');
    const a = writeExport(e2e.work, 'a.csv', { to: 3, invalid: [1] });
    const b = writeExport(e2e.work, 'b.csv', { from: 4, to: 6, invalid: [5] });
    await push(r, [a, '--rejects', template]);
    await push(r, [b, '--rejects', template]);
    expect(readdirSync(dir).sort()).toEqual(['run-1.csv', 'run-2.csv']);
  });
});

describe.skipIf(skipPostgres())('known problems on the PostgreSQL ledger', () => {
  let url: string;
  beforeEach(async () => {
    url = await createDatabase();
  });
  afterEach(async () => {
    await dropDatabase(url);
  });

  it('a second run counts the same invalid rows known and exits 0', async () => {
    const r = await start();
    const file = path.join(e2e.work, 'export.csv');
    writeFileSync(file, exportCsv({ to: 12, invalid: [5, 6] }));
    expect(view(await push(r, [file, '--json'], url))).toEqual([1, 10, 0, 2, 0]);
    expect(view(await push(r, [file, '--json'], url))).toEqual([0, 0, 10, 2, 2]);
    const rows = await query(url, 'SELECT run_id FROM revimport.known_problems');
    expect(rows.map((row) => Number(row.run_id))).toEqual([1, 1]);
  });
});
