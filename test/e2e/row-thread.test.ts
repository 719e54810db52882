// The row thread (issue 23): rows read and checked on a thread of their own give the run that reading them on
// the main thread gives: the same records at the receiver, in the same order, the same counts, rejects file,
// warnings and exit code; an error that ends a run there ends it the same way. REVIMPORT_ROW_THREAD=1 forces
// the thread; unset or anything else keeps the rows on the main thread. (`npm test` also runs every e2e test
// with the thread forced on: package.json "test:row-thread".)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AcceptedRecord } from '../../src/testing/receiver.js';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { exportConfig, exportCsv, header, pushEnv, rowCells } from '../helpers/exports.js';

const key = 'row-thread-key-51d0';
const e2e = useE2E({ key });

// Node's own debug log (NODE_DEBUG=worker) names each worker script a run starts.
const rowThreads = (stderr: string) =>
  stderr.split('\n').filter((line) => /starts worker script \S*row-worker\.js/.test(line)).length;

/** A summary without what differs from run to run (its ids and times, the receiver's URL, the ledger's path). */
function stable(stdout: string): Record<string, unknown> {
  const { runId, startedAt, finishedAt, durationMs, ledger, target, ...rest } = JSON.parse(stdout);
  return rest;
}

/** Two files: invalid rows, a row with extra cells, ids repeated within and across files, a header-only file. */
function writeInputs(work: string): string[] {
  const first = path.join(work, 'a.csv');
  const lines = exportCsv({ to: 1500, invalid: [7, 700, 1499] })
    .trimEnd()
    .split('\n');
  lines.splice(40, 0, rowCells(12).join(','));
  lines.splice(90, 0, '99999,v,1.00,EUR,2024-05-01T00:00:00Z,extra,cells');
  writeFileSync(first, `${lines.join('\n')}\n`);
  const second = path.join(work, 'b.csv');
  writeFileSync(second, exportCsv({ from: 1400, to: 2600 }));
  const empty = path.join(work, 'c.csv');
  writeFileSync(empty, `${header}\n`);
  return [first, second, empty];
}

describe('the row thread', () => {
  it('sends, counts, rejects and warns exactly as the main thread does', async () => {
    const files = writeInputs(e2e.work);
    const runs = [];
    for (const thread of ['0', '1']) {
      const receiver = await e2e.start({ honourIdempotencyKey: false });
      const state = path.join(e2e.work, `ledger-${thread}.db`);
      const rejects = path.join(e2e.work, `rejects-${thread}.csv`);
      const run = await runCli(
        ['push', ...files, '-c', e2e.config, '--json', '--rejects', rejects, '--batch-size', '200'],
        {
          cwd: e2e.work,
          env: { ...pushEnv(receiver.url, key, state), REVIMPORT_ROW_THREAD: thread, NODE_DEBUG: 'worker' },
        },
      );
      runs.push({ run, receiver, rejects: readFileSync(rejects, 'utf8') });
    }
    const [main, thread] = runs;
    expect(rowThreads(main!.run.stderr)).toBe(0);
    expect(rowThreads(thread!.run.stderr)).toBe(1);
    expect(thread!.run.code).toBe(main!.run.code);
    expect(main!.run.code).toBe(1);
    expect(stable(thread!.run.stdout)).toEqual(stable(main!.run.stdout));
    expect(stable(main!.run.stdout)).toMatchObject({
      rowsRead: 2703,
      invalid: 104,
      duplicates: 101,
      sent: 2599,
    });
    // Bodies in flight at once may arrive in any order: the records compared by id.
    const records = (accepted: readonly AcceptedRecord[]) =>
      accepted.map((a) => a.record).sort((a, b) => Number(a.conversionId) - Number(b.conversionId));
    expect(records(thread!.receiver.accepted)).toEqual(records(main!.receiver.accepted));
    expect(records(main!.receiver.accepted)).toHaveLength(2599);
    expect(thread!.rejects.replaceAll(/run [^,]*/g, '')).toBe(main!.rejects.replaceAll(/run [^,]*/g, ''));
  });

  it('ends a run on a file it cannot read the same way (exit 2, the same message)', async () => {
    const file = path.join(e2e.work, 'wrong.csv');
    writeFileSync(file, 'Order,Visitor ID,Amount,Currency,Time\n1,v-1,2.00,EUR,2024-05-01T00:00:00Z\n');
    const receiver = await e2e.start();
    const results = [];
    for (const thread of ['0', '1']) {
      const state = path.join(e2e.work, `ledger-${thread}.db`);
      results.push(
        await runCli(['push', file, '-c', e2e.config], {
          cwd: e2e.work,
          env: { ...pushEnv(receiver.url, key, state), REVIMPORT_ROW_THREAD: thread },
        }),
      );
    }
    expect(results[0]!.code).toBe(2);
    expect(results[1]!.code).toBe(2);
    expect(results[1]!.stderr).toContain('Order ID');
    expect(results[1]!.stderr.replace('ledger-1.db', 'ledger-0.db')).toBe(results[0]!.stderr);
    expect(receiver.accepted).toHaveLength(0);
  });

  it('an error in a later file leaves the rows taken before it counted, as on the main thread', async () => {
    // 1,500 rows: two full batches of 512 and a last one not posted yet when the second file fails.
    const first = path.join(e2e.work, 'a.csv');
    writeFileSync(first, exportCsv({ to: 1500 }));
    const wrong = path.join(e2e.work, 'b.csv');
    writeFileSync(wrong, 'Order,Visitor ID,Amount,Currency,Time\n1,v-1,2.00,EUR,2024-05-01T00:00:00Z\n');
    const summaries = [];
    for (const thread of ['0', '1']) {
      const receiver = await e2e.start({ honourIdempotencyKey: false });
      const state = path.join(e2e.work, `ledger-${thread}.db`);
      const run = await runCli(['push', first, wrong, '-c', e2e.config, '--json'], {
        cwd: e2e.work,
        env: { ...pushEnv(receiver.url, key, state), REVIMPORT_ROW_THREAD: thread },
      });
      expect(run.code).toBe(2);
      summaries.push(stable(run.stdout));
    }
    // What was read is the same on both threads; how much was sent before the error stopped the run is timing.
    const read = (s: Record<string, unknown>) => {
      const { rowsRead, folded, valid, invalid, skipped, duplicates } = s;
      const accounted = ['sent', 'pending', 'failed', 'notSent'].reduce((n, k) => n + Number(s[k]), 0);
      return { rowsRead, folded, valid, invalid, skipped, duplicates, accounted };
    };
    expect(read(summaries[0]!)).toMatchObject({ rowsRead: 1500, valid: 1500, accounted: 1500 });
    expect(read(summaries[1]!)).toEqual(read(summaries[0]!));
  });

  it('takes every summed conversion once their turn has come, though the value guard stops the run', async () => {
    // The guard decides at its 5th held record (guard.holdRecords), among the sums (mapping.sumBy), which
    // come after the last row: 50 times the history's values, so it stops. Both threads then count all 40.
    const config = path.join(e2e.work, 'sums.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        ...exportConfig,
        mapping: { ...exportConfig.mapping, sumBy: 'Order ID' },
        guard: { holdRecords: 5 },
      }),
    );
    const history = path.join(e2e.work, 'history.csv');
    writeFileSync(history, exportCsv({ from: 1001, to: 1030, valueFor: () => '10.00' }));
    const sums = path.join(e2e.work, 'sums.csv');
    const rows = Array.from({ length: 40 }, (_, i) => rowCells(i + 1, () => '500.00').join(','));
    writeFileSync(sums, [header, ...rows].join('\n'));
    const summaries = [];
    for (const thread of ['0', '1']) {
      const receiver = await e2e.start({ honourIdempotencyKey: false });
      const state = path.join(e2e.work, `ledger-sums-${thread}.db`);
      const env = { ...pushEnv(receiver.url, key, state), REVIMPORT_ROW_THREAD: thread };
      const before = await runCli(['push', history, '-c', config, '--json'], { cwd: e2e.work, env });
      expect(JSON.parse(before.stdout)).toMatchObject({ sent: 30 });
      const run = await runCli(['push', sums, '-c', config, '--json'], { cwd: e2e.work, env });
      expect(run.code).toBe(6);
      summaries.push(stable(run.stdout));
    }
    expect(summaries[0]).toMatchObject({ rowsRead: 40, valid: 40, invalid: 0, notSent: 40, sent: 0 });
    expect(summaries[1]).toEqual(summaries[0]);
  });

  it('reads on the main thread unless REVIMPORT_ROW_THREAD is 1, however large the input', async () => {
    const receiver = await e2e.start();
    // ~1 KiB rows: a column the mapping does not take pads each row (4.3 MB: the thread's threshold until Session 21).
    const pad = 'x'.repeat(1000);
    const rows = (count: number) =>
      [
        `${header},Note`,
        ...Array.from({ length: count }, (_, i) => `${rowCells(i + 1).join(',')},${pad}`),
      ].join('\n');
    const large = path.join(e2e.work, 'large.csv');
    writeFileSync(large, rows(4300));
    const env = (rowThread: string | undefined) => ({
      ...pushEnv(receiver.url, key, e2e.state),
      NODE_DEBUG: 'worker',
      REVIMPORT_ROW_THREAD: rowThread,
    });
    const unset = await runCli(['push', large, '-c', e2e.config, '--json'], {
      cwd: e2e.work,
      env: env(undefined),
    });
    expect(JSON.parse(unset.stdout)).toMatchObject({ sent: 4300 });
    expect(rowThreads(unset.stderr)).toBe(0);
    const on = await runCli(['push', large, '-c', e2e.config, '--json'], { cwd: e2e.work, env: env('1') });
    expect(JSON.parse(on.stdout)).toMatchObject({ alreadySent: 4300 });
    expect(rowThreads(on.stderr)).toBe(1);
  });
});
