// The hot/cold split (inflight, staged, records) must read exactly like one table: lookups see staged
// records before a merge, the resend guard holds in every table, merges happen when they should.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Ledger, openLedger } from '../../src/ledger/ledger.js';
import { targetOf } from '../../src/ledger/target.js';
import type { PendingEntry, StateCounts } from '../../src/ledger/types.js';
import { allKeys, applyToModel, type ModelRow, opArb } from '../helpers/ledger-model.js';
import { tableCount } from '../helpers/native.js';

let dir: string;
let path: string;
let ledger: Ledger;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'revimport-split-'));
  path = join(dir, 'ledger.db');
  ledger = openLedger(path);
});
afterEach(() => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

const entry = (key: string, idempotencyKey = 'b1', contentHash = `hash-${key}`): PendingEntry => ({
  key,
  contentHash,
  payload: `{"k":"${key}"}`,
  idempotencyKey,
});

function tableSizes(): { inflight: number; staged: number; records: number } {
  const n = (table: string) => tableCount(path, table);
  return { inflight: n('inflight'), staged: n('staged'), records: n('records') };
}

function setUp() {
  const target = ledger.target(targetOf('https://crm.example', 'k'));
  const run = ledger.beginRun({ command: 'push', files: ['a.csv'] });
  return { target, run };
}

describe('staged records', () => {
  it('are seen by lookup and counts before the merge, and the same after it', () => {
    const { target, run } = setUp();
    ledger.markPending(target, run, [entry('id:1'), entry('id:2'), entry('id:3')]);
    ledger.markDelivered(target, ['id:1', 'id:2'], 'b1');
    expect(tableSizes()).toEqual({ inflight: 1, staged: 2, records: 0 });
    const expected = new Map([
      ['id:1', { state: 'delivered', contentHash: 'hash-id:1' }],
      ['id:2', { state: 'delivered', contentHash: 'hash-id:2' }],
      ['id:3', { state: 'pending', contentHash: 'hash-id:3' }],
    ]);
    expect(ledger.lookup(target, ['id:1', 'id:2', 'id:3', 'id:4'])).toEqual(expected);
    expect(ledger.counts(target)).toEqual({ pending: 1, delivered: 2, rejected: 0, failed: 0 });

    expect(ledger.merge()).toBe(2);
    expect(tableSizes()).toEqual({ inflight: 1, staged: 0, records: 2 });
    expect(ledger.lookup(target, ['id:1', 'id:2', 'id:3', 'id:4'])).toEqual(expected);
    expect(ledger.counts(target)).toEqual({ pending: 1, delivered: 2, rejected: 0, failed: 0 });
  });

  it('a key delivered twice before a merge reads as its newest delivery, before and after', () => {
    const { target, run } = setUp();
    ledger.markPending(target, run, [entry('id:1')]);
    ledger.markDelivered(target, ['id:1'], 'b1');
    ledger.markPending(target, run, [entry('id:1', 'b2', 'hash-new')], { resend: true });
    expect(ledger.lookup(target, ['id:1']).get('id:1')).toEqual({
      state: 'pending',
      contentHash: 'hash-new',
    });
    ledger.markDelivered(target, ['id:1'], 'b2');
    expect(tableSizes().staged).toBe(2);
    expect(ledger.lookup(target, ['id:1']).get('id:1')).toEqual({
      state: 'delivered',
      contentHash: 'hash-new',
    });
    expect(ledger.counts(target).delivered).toBe(1);
    ledger.merge();
    expect(ledger.lookup(target, ['id:1']).get('id:1')).toEqual({
      state: 'delivered',
      contentHash: 'hash-new',
    });
  });
});

describe('lookup of many keys', () => {
  // Keys go to SQLite 500 a statement and each row names its key by its place in that chunk: every key of
  // every chunk must come back under its own name, from each table, and a key asked twice once.
  it('answers each key of several chunks under its own name, hot tables or records alone', () => {
    const { target, run } = setUp();
    const keys = Array.from({ length: 1_300 }, (_, n) => `id:${n}`);
    const delivered = keys.filter((_, n) => n % 3 === 0);
    ledger.markPending(
      target,
      run,
      delivered.map((key) => entry(key)),
    );
    ledger.markDelivered(target, delivered, 'b1');
    ledger.merge();
    expect(tableSizes().records).toBe(delivered.length);
    const asked = [...keys, 'id:999', 'id:0'];
    const expected = new Map(
      delivered.map((key) => [key, { state: 'delivered', contentHash: `hash-${key}` }]),
    );
    expect(ledger.lookup(target, asked)).toEqual(expected);

    const hot = keys.filter((_, n) => n % 3 === 1);
    ledger.markPending(
      target,
      run,
      hot.map((key) => entry(key, 'b2')),
    );
    ledger.markDelivered(target, hot.slice(0, 300), 'b2');
    expect(tableSizes()).toEqual({ inflight: hot.length - 300, staged: 300, records: delivered.length });
    for (const [n, key] of hot.entries()) {
      expected.set(key, { state: n < 300 ? 'delivered' : 'pending', contentHash: `hash-${key}` });
    }
    expect(ledger.lookup(target, asked)).toEqual(expected);
  });
});

describe('the resend guard', () => {
  it.each([
    ['staged', false],
    ['records', true],
  ])('holds for a key delivered and %s', (_where, merged) => {
    const { target, run } = setUp();
    ledger.markPending(target, run, [entry('id:1')]);
    ledger.markDelivered(target, ['id:1'], 'b1');
    if (merged) ledger.merge();
    expect(tableSizes()).toEqual(
      merged ? { inflight: 0, staged: 0, records: 1 } : { inflight: 0, staged: 1, records: 0 },
    );

    expect(ledger.markPending(target, run, [entry('id:1', 'b2', 'hash-2')])).toBe(0);
    expect(ledger.lookup(target, ['id:1']).get('id:1')).toEqual({
      state: 'delivered',
      contentHash: 'hash-id:1',
    });
    expect(ledger.outstanding(target, run + 1)).toEqual([]);

    expect(ledger.markPending(target, run, [entry('id:1', 'b2', 'hash-2')], { resend: true })).toBe(1);
    // Once pending again (resent), later marks update it without --resend.
    expect(ledger.markPending(target, run, [entry('id:1', 'b3', 'hash-3')])).toBe(1);
    expect(ledger.lookup(target, ['id:1']).get('id:1')).toEqual({ state: 'pending', contentHash: 'hash-3' });
    expect(ledger.counts(target)).toEqual({ pending: 1, delivered: 0, rejected: 0, failed: 0 });
  });
});

describe('merges', () => {
  it('happen by themselves once 50,000 records are staged', () => {
    const { target, run } = setUp();
    const keys = Array.from({ length: 50_000 }, (_, i) => `id:${i}`);
    ledger.markPending(
      target,
      run,
      keys.map((key) => entry(key)),
    );
    ledger.markDelivered(target, keys.slice(0, 49_999), 'b1');
    expect(tableSizes()).toEqual({ inflight: 1, staged: 49_999, records: 0 });
    ledger.markDelivered(target, keys.slice(49_999), 'b1');
    expect(tableSizes()).toEqual({ inflight: 0, staged: 0, records: 50_000 });
    expect(ledger.counts(target).delivered).toBe(50_000);
  });

  it('happen in finishRun and in close', () => {
    const { target, run } = setUp();
    ledger.markPending(target, run, [entry('id:1'), entry('id:2')]);
    ledger.markDelivered(target, ['id:1'], 'b1');
    ledger.finishRun(run, { counts: {}, exitCode: 0, durationMs: 1 });
    expect(tableSizes()).toEqual({ inflight: 1, staged: 0, records: 1 });
    ledger.markDelivered(target, ['id:2'], 'b1');
    ledger.close();
    expect(tableSizes()).toEqual({ inflight: 0, staged: 0, records: 2 });
    ledger = openLedger(path);
    expect(ledger.lookup(target, ['id:1', 'id:2']).size).toBe(2);
  });

  it('are left to a live unfinished run of another process', () => {
    const target = ledger.target(targetOf('https://crm.example', 'k'));
    // The parent of this test process: alive, and not us.
    const run = ledger.beginRun({ command: 'push', files: [], pid: process.ppid });
    ledger.markPending(target, run, [entry('id:1')]);
    ledger.markDelivered(target, ['id:1'], 'b1');
    const reader = openLedger(path);
    expect(reader.lookup(target, ['id:1']).get('id:1')?.state).toBe('delivered');
    reader.close();
    expect(tableSizes()).toEqual({ inflight: 0, staged: 1, records: 0 });
    ledger.finishRun(run, { counts: {}, exitCode: 0, durationMs: 1 });
    expect(tableSizes()).toEqual({ inflight: 0, staged: 0, records: 1 });
  });
});

describe('failed after rejected', () => {
  it('brings a rejected record back with its payload; a delivered one stays delivered', () => {
    const { target, run } = setUp();
    ledger.markPending(target, run, [entry('id:r'), entry('id:d')]);
    ledger.markRejected(target, [{ key: 'id:r', message: 'bad' }]);
    ledger.markDelivered(target, ['id:d'], 'b1');
    ledger.merge();
    expect(ledger.markFailed(target, ['id:r', 'id:d'], 'timeout')).toBe(1);
    expect(ledger.outstanding(target, run)).toEqual([
      {
        key: 'id:r',
        contentHash: 'hash-id:r',
        payload: '{"k":"id:r"}',
        idempotencyKey: 'b1',
        state: 'failed',
      },
    ]);
    expect(ledger.counts(target)).toEqual({ pending: 0, delivered: 1, rejected: 0, failed: 1 });
  });
});

describe('against a one-table model', () => {
  it('lookup, counts and change counts agree after any sequence of calls', () => {
    const { target, run } = setUp();
    let n = 0;
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 25 }), (ops) => {
        // A fresh target per case: the same ledger file, no state carried over.
        const t = ledger.target(targetOf('https://crm.example', 'k', `case-${n++}`));
        const model = new Map<string, ModelRow>();
        for (const op of ops) {
          const expected = applyToModel(model, op);
          let got = 0;
          if (op.kind === 'pending') {
            got = ledger.markPending(
              t,
              run,
              op.keys.map((key) => entry(key, 'b', op.hash)),
              { resend: op.resend },
            );
          } else if (op.kind === 'delivered') got = ledger.markDelivered(t, op.keys, 'b');
          else if (op.kind === 'failed') got = ledger.markFailed(t, op.keys, 'r');
          else if (op.kind === 'rejected')
            got = ledger.markRejected(
              t,
              op.keys.map((key) => ({ key, message: 'm' })),
            );
          else ledger.merge();
          expect(got).toBe(expected);
          const found = ledger.lookup(t, allKeys);
          expect(found).toEqual(
            new Map(
              [...model].map(([key, row]) => [key, { state: row.state, contentHash: row.contentHash }]),
            ),
          );
          const counts: StateCounts = { pending: 0, delivered: 0, rejected: 0, failed: 0 };
          for (const row of model.values()) counts[row.state]++;
          expect(ledger.counts(t)).toEqual(counts);
        }
      }),
      { numRuns: 150 },
    );
    expect(target).toBeGreaterThan(0);
  });
});
