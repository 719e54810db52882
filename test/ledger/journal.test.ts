// The batch journal (issue 14): one row per batch, settled whole, merged into records in bulk; rows that
// meet another outcome move to the per-record tables; a crashed run's rows are found by the next one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Ledger, openLedger } from '../../src/ledger/ledger.js';
import { targetOf } from '../../src/ledger/target.js';
import { tableCount } from '../helpers/native.js';

let dir: string;
let path: string;
let ledger: Ledger;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'revimport-journal-'));
  path = join(dir, 'ledger.db');
  ledger = openLedger(path);
});
afterEach(() => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

const record = (id: string, value: number) => ({ conversionId: id, conversionValue: value });
const entry = (id: string, value = 1) => ({
  key: `id:${id}`,
  contentHash: `hash-id:${id}`,
  currency: 'EUR',
  value,
});
const body = (...ids: string[]) => JSON.stringify(ids.map((id) => record(id, 1)));

const count = (table: string) => tableCount(path, table);

function setUp() {
  const target = ledger.target(targetOf('https://crm.example', 'k'));
  const run = ledger.beginRun({ command: 'push', files: ['a.csv'] });
  return { target, run };
}

describe('journalBatch and settleBatch', () => {
  it('write one row per batch; a settled batch reaches records at the merge, with its amounts', () => {
    const { target, run } = setUp();
    const id = ledger.journalBatch(target, run, 'k1', [entry('1', 10), entry('2', 20)], body('1', '2'));
    expect(count('batches')).toBe(1);
    expect(count('batch_bodies')).toBe(1);
    expect(ledger.settleBatch(id)).toBe(2);
    expect(ledger.settleBatch(id)).toBe(0);
    expect(count('batch_bodies')).toBe(0);
    expect(count('records')).toBe(0);
    expect(ledger.merge()).toBe(2);
    expect(count('batches')).toBe(0);
    expect(ledger.lookup(target, ['id:1', 'id:2', 'id:3'])).toEqual(
      new Map([
        ['id:1', { state: 'delivered', contentHash: 'hash-id:1', amount: { currency: 'EUR', value: 10 } }],
        ['id:2', { state: 'delivered', contentHash: 'hash-id:2', amount: { currency: 'EUR', value: 20 } }],
      ]),
    );
    expect(ledger.counts(target)).toEqual({ pending: 0, delivered: 2, rejected: 0, failed: 0 });
  });

  it('is merged by finishRun and close', () => {
    const { target, run } = setUp();
    ledger.settleBatch(ledger.journalBatch(target, run, 'k1', [entry('1')], body('1')));
    ledger.finishRun(run, { counts: {}, exitCode: 0, durationMs: 1 });
    expect(count('records')).toBe(1);
    ledger.settleBatch(ledger.journalBatch(target, run, 'k2', [entry('2')], body('2')));
    ledger.close();
    expect(count('records')).toBe(2);
    ledger = openLedger(path);
  });
});

describe('unjournal', () => {
  it('moves a pending row to inflight under its key, in body order, for the per-record outcomes', () => {
    const { target, run } = setUp();
    const id = ledger.journalBatch(target, run, 'k1', [entry('1'), entry('2')], body('1', '2'));
    expect(ledger.unjournal(id)).toBe(2);
    expect(ledger.unjournal(id)).toBe(0);
    expect(count('batches')).toBe(0);
    ledger.markFailed(target, ['id:2'], 'HTTP 503');
    ledger.markDelivered(target, ['id:1'], 'k1');
    expect(ledger.outstanding(target, run)).toEqual([
      {
        key: 'id:2',
        contentHash: 'hash-id:2',
        payload: JSON.stringify(record('2', 1)),
        idempotencyKey: 'k1',
        state: 'failed',
      },
    ]);
  });
});
