// outcomeTaker: what one checker outcome does to the run's tally, its rejects file and the delivery queue.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CsvRow } from '../../src/input/types.js';
import type { ReportedIn } from '../../src/ledger/types.js';
import type { CheckedRow } from '../../src/pipeline/checked-rows.js';
import { KnownProblems, problemFingerprint } from '../../src/pipeline/known-problems.js';
import { LookupQueue } from '../../src/pipeline/lookup-queue.js';
import { RunTally } from '../../src/pipeline/run-tally.js';
import { outcomeTaker } from '../../src/pipeline/take-outcome.js';
import type { Rejection } from '../../src/report/rejection.js';
import { openRejects } from '../../src/report/rejects.js';
import type { Deliverer } from '../../src/transport/deliver.js';
import { tempDir } from '../helpers/cli.js';

const source = { file: 'a.csv', format: 'csv' as const, encoding: 'utf-8', header: ['id', 'value'] };
const row = (line: number, id: string): CsvRow => ({ kind: 'csv', source, line, cells: [id, '1'] });
const rejection = (line: number, id: string): Rejection => ({
  file: 'a.csv',
  line,
  stage: 'invalid',
  row: row(line, id),
  issues: [{ column: 'value', value: 'x', reason: 'not a number', message: 'not a number' }],
});
const invalid = (line: number, id: string, duplicate = false): CheckedRow => ({
  ok: false,
  rejection: rejection(line, id),
  duplicate,
});
const valid = (line: number, id: string): CheckedRow => ({
  ok: true,
  row: row(line, id),
  idColumn: 'id',
  record: {
    conversionId: id,
    conversionValue: 1.5,
    conversionCurrency: 'EUR',
    conversionDatetime: '2024-03-01T12:00:00.000Z',
  } as never,
});

/** A run's tally and taker over a real rejects file; `lines()` closes it and returns what it holds. */
function setUp(options: { rejectsSkipped?: boolean; known?: KnownProblems; queue?: LookupQueue } = {}) {
  const file = path.join(tempDir('revimport-take-'), 'rejects.jsonl');
  const rejects = openRejects(file);
  const invalids: Rejection[] = [];
  const tally = new RunTally(false, { onInvalid: (r) => invalids.push(r) }, rejects);
  const take = outcomeTaker({
    tally,
    queue: options.queue,
    known: options.known,
    rejectsSkipped: options.rejectsSkipped ?? false,
    hooks: { onInvalid: (r) => invalids.push(r) },
  });
  const lines = async () => {
    await Promise.all(tally.pendingWrites);
    await rejects.close();
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {}
    return text.split('\n').filter(Boolean);
  };
  return { tally, take, invalids, lines };
}

const knownAs = (rejections: Array<[Rejection, ReportedIn]>, reportKnown = false) =>
  new KnownProblems(new Map(rejections.map(([r, at]) => [problemFingerprint(r), at])), reportKnown);

describe('outcomeTaker', () => {
  it('counts a skipped row by its reason, and writes it to the rejects file only with rejectsSkipped', async () => {
    for (const rejectsSkipped of [false, true]) {
      const { tally, take, lines } = setUp({ rejectsSkipped });
      await take({ skipped: 'footer', row: row(2, '1') });
      await take({ skipped: 'footer', row: row(3, '2') });
      await take({ skipped: 'refunded', row: row(4, '3') });
      expect(tally.summary.skipped).toBe(3);
      expect(tally.summary.skippedReasons).toEqual({ footer: 2, refunded: 1 });
      expect(await lines()).toHaveLength(rejectsSkipped ? 3 : 0);
    }
  });

  it('counts a new invalid row, its duplicate flag, and reports it: shown, grouped, written', async () => {
    const { tally, take, invalids, lines } = setUp();
    await take(invalid(2, '1'));
    await take(invalid(3, '1', true));
    expect([tally.summary.invalid, tally.summary.duplicates, tally.summary.knownInvalid]).toEqual([2, 1, 0]);
    expect(invalids.map((r) => r.line)).toEqual([2, 3]);
    expect(tally.finalize(0, 0).errors).toHaveLength(1);
    expect(await lines()).toHaveLength(2);
  });

  it('counts a row an earlier run reported as known (the earliest run named), shown but not reported again', async () => {
    const known = knownAs([
      [rejection(2, '1'), { runId: 5, at: Date.UTC(2024, 0, 5) }],
      [rejection(3, '2'), { runId: 3, at: Date.UTC(2024, 0, 3) }],
    ]);
    const { tally, take, invalids, lines } = setUp({ known });
    await take(invalid(2, '1'));
    await take(invalid(3, '2'));
    await take(invalid(4, '3'));
    expect([tally.summary.invalid, tally.summary.knownInvalid]).toEqual([3, 2]);
    expect(tally.summary.knownReportedIn).toEqual({ runId: 3, at: '2024-01-03T00:00:00.000Z' });
    expect(invalids.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(tally.finalize(0, 0).errors[0]?.count).toBe(1);
    expect(await lines()).toHaveLength(1);
  });

  it('with --report-known writes a known row again, still counted known', async () => {
    const known = knownAs([[rejection(2, '1'), { runId: 1, at: 0 }]], true);
    const { tally, take, lines } = setUp({ known });
    await take(invalid(2, '1'));
    expect([tally.summary.invalid, tally.summary.knownInvalid]).toEqual([1, 1]);
    expect(await lines()).toHaveLength(1);
  });

  it('counts a valid record in the totals; under --check (no queue) nothing waits to be sent', async () => {
    const { tally, take } = setUp();
    await take(valid(2, '1'));
    await take(valid(3, '2'));
    expect(tally.summary.valid).toBe(2);
    expect(tally.validTotals.toJSON()).toEqual({ EUR: 3 });
  });

  it('queues a valid record for the look-up and delivery, keyed by its identity', async () => {
    const pushed: string[] = [];
    const deliverer = { push: async (item: { key: string }) => void pushed.push(item.key) };
    const queue = new LookupQueue({
      deliverer: deliverer as unknown as Deliverer<never>,
      knownAlready: async () => false,
      ledger: undefined,
      showRowsRead: () => undefined,
    });
    const { take } = setUp({ queue });
    await take(valid(2, '1'));
    expect(queue.waiting).toBe(1);
    await queue.flush();
    expect(pushed).toEqual(['id:1']);
    expect(queue.waiting).toBe(0);
  });
});
