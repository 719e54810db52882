import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { type Ledger, openLedger } from '../../src/ledger/ledger.js';
import { targetOf } from '../../src/ledger/target.js';
import type { PendingEntry } from '../../src/ledger/types.js';
import { keep, rawRows as readRows, retain } from '../helpers/native.js';

let dir: string;
let path: string;
let clock: number;
let ledger: Ledger;
const now = () => clock;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'revimport-ledger-'));
  path = join(dir, 'state', 'revimport', 'ledger.db');
  clock = 1_000;
  ledger = openLedger(path, { now });
});
afterEach(() => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

const pending = (key: string, idempotencyKey: string, contentHash = `hash-${key}`): PendingEntry => ({
  key,
  contentHash,
  payload: JSON.stringify({ conversionId: key }),
  idempotencyKey,
});

/** Reads the file the way another process would: proves what is on disk, not in a cache. */
const rawRows = (sql: string, ...params: unknown[]) => readRows(path, sql, ...params);

function setUp() {
  const target = ledger.target(targetOf('https://crm.example/', 'sk_live_secret'));
  const run = ledger.beginRun({ command: 'push', files: ['a.csv'] });
  return { target, run };
}

describe('openLedger', () => {
  it('creates the folder 0700 and the file 0600, in WAL mode at the newest schema (10)', () => {
    expect(statSync(join(dir, 'state', 'revimport')).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    setUp();
    expect(statSync(`${path}-wal`).mode & 0o777).toBe(0o600);
    const db = retain(new Database(path, { readonly: true }));
    expect(keep(db).prepare('PRAGMA journal_mode').pluck().get()).toBe('wal');
    expect(keep(db).prepare('PRAGMA user_version').pluck().get()).toBe(11);
    // A new ledger's pages are 8 KiB: a merge into a large records table writes fewer of them.
    expect(keep(db).prepare('PRAGMA page_size').pluck().get()).toBe(8192);
    db.close();
  });

  it('keeps the page size of a ledger created with 4 KiB pages, and works in it', () => {
    const old = join(dir, 'old.db');
    const raw = retain(new Database(old));
    raw.exec('PRAGMA page_size = 4096');
    raw.exec('PRAGMA journal_mode = WAL');
    raw.close();
    const opened = openLedger(old);
    const target = opened.target(targetOf('https://crm.example/', 'k'));
    const run = opened.beginRun({ command: 'push', files: ['a.csv'] });
    opened.markPending(target, run, [pending('id:1', 'b1')]);
    opened.markDelivered(target, ['id:1'], 'b1');
    opened.close();
    const db = retain(new Database(old, { readonly: true }));
    expect(keep(db).prepare('PRAGMA page_size').pluck().get()).toBe(4096);
    expect(keep(db).prepare('SELECT key, state FROM records').all()).toEqual([
      { key: 'id:1', state: 'delivered' },
    ]);
    db.close();
  });

  it('reopens an existing ledger with its data and version unchanged', () => {
    const { target, run } = setUp();
    ledger.markPending(target, run, [pending('id:1', 'b1')]);
    ledger.close();
    ledger = openLedger(path, { now });
    expect(ledger.target(targetOf('https://crm.example', 'sk_live_secret'))).toBe(target);
    expect(ledger.lookup(target, ['id:1']).get('id:1')).toEqual({
      state: 'pending',
      contentHash: 'hash-id:1',
    });
    expect(rawRows('PRAGMA user_version')).toEqual([{ user_version: 11 }]);
  });

  it('refuses a ledger written by a newer schema', () => {
    ledger.close();
    const db = retain(new Database(path));
    db.exec('PRAGMA user_version = 12');
    db.close();
    expect(() => {
      ledger = openLedger(path);
    }).toThrow(/schema version 12, newer than this revimport supports \(11\)/);
    ledger = openLedger(join(dir, 'other.db'));
  });

  it('turns a file that is not SQLite into a ConfigError naming it', () => {
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'this is not a database, just some text long enough to have a header.'.repeat(10));
    expect(() => openLedger(junk)).toThrow(ConfigError);
    expect(() => openLedger(junk)).toThrow(`${junk} is not a revimport ledger`);
  });

  it('never writes the API key into the ledger files', () => {
    const { target, run } = setUp();
    ledger.markPending(target, run, [pending('id:1', 'b1')]);
    const bytes = [path, `${path}-wal`]
      .filter(existsSync)
      .map((file) => readFileSync(file).toString('latin1'));
    expect(bytes.join('')).toContain('https://crm.example');
    expect(bytes.join('')).not.toContain('sk_live_secret');
  });
});

describe('state transitions', () => {
  it('delivers: stages the record without payload, then merges it into records', () => {
    const { target, run } = setUp();
    expect(ledger.markPending(target, run, [pending('id:1', 'b1'), pending('id:2', 'b1')])).toBe(2);
    clock = 2_000;
    expect(ledger.markDelivered(target, ['id:1', 'id:2', 'id:unknown'], 'b1-final')).toBe(2);
    expect(rawRows('SELECT count(*) AS n FROM inflight')).toEqual([{ n: 0 }]);
    expect(rawRows('SELECT key, idempotency_key, first_seen, delivered_at FROM staged ORDER BY id')).toEqual([
      { key: 'id:1', idempotency_key: 'b1-final', first_seen: 1_000, delivered_at: 2_000 },
      { key: 'id:2', idempotency_key: 'b1-final', first_seen: 1_000, delivered_at: 2_000 },
    ]);
    expect(rawRows('SELECT count(*) AS n FROM records')).toEqual([{ n: 0 }]);

    expect(ledger.merge()).toBe(2);
    expect(rawRows('SELECT count(*) AS n FROM staged')).toEqual([{ n: 0 }]);
    expect(
      rawRows('SELECT key, state, payload, idempotency_key, first_seen, updated_at FROM records'),
    ).toEqual([
      {
        key: 'id:1',
        state: 'delivered',
        payload: null,
        idempotency_key: 'b1-final',
        first_seen: 1_000,
        updated_at: 2_000,
      },
      {
        key: 'id:2',
        state: 'delivered',
        payload: null,
        idempotency_key: 'b1-final',
        first_seen: 1_000,
        updated_at: 2_000,
      },
    ]);
    expect(ledger.counts(target)).toEqual({ pending: 0, delivered: 2, rejected: 0, failed: 0 });
  });

  it('does not turn a delivered record back to pending unless resend is asked', () => {
    const { target, run } = setUp();
    ledger.markPending(target, run, [pending('id:1', 'b1')]);
    ledger.markDelivered(target, ['id:1'], 'b1');
    const changed = pending('id:1', 'b2', 'hash-changed');

    expect(ledger.markPending(target, run, [changed, pending('id:2', 'b2')])).toBe(1);
    expect(ledger.lookup(target, ['id:1']).get('id:1')).toEqual({
      state: 'delivered',
      contentHash: 'hash-id:1',
    });

    expect(ledger.markPending(target, run, [changed], { resend: true })).toBe(1);
    expect(ledger.lookup(target, ['id:1']).get('id:1')).toEqual({
      state: 'pending',
      contentHash: 'hash-changed',
    });
    expect(rawRows("SELECT payload, idempotency_key FROM inflight WHERE key = 'id:1'")).toEqual([
      { payload: '{"conversionId":"id:1"}', idempotency_key: 'b2' },
    ]);
  });

  it('rejects with the server message, fails with the reason, re-pends both', () => {
    const { target, run } = setUp();
    ledger.markPending(target, run, [pending('id:1', 'b1'), pending('id:2', 'b1'), pending('id:3', 'b1')]);
    ledger.markDelivered(target, ['id:3'], 'b1');
    expect(ledger.markRejected(target, [{ key: 'id:1', message: 'currency unknown' }])).toBe(1);
    expect(ledger.markFailed(target, ['id:2', 'id:3'], 'HTTP 503 after 5 attempts')).toBe(1);
    expect(rawRows('SELECT key, state, message, payload FROM records')).toEqual([
      { key: 'id:1', state: 'rejected', message: 'currency unknown', payload: '{"conversionId":"id:1"}' },
    ]);
    expect(rawRows('SELECT key, state, message FROM inflight')).toEqual([
      { key: 'id:2', state: 'failed', message: 'HTTP 503 after 5 attempts' },
    ]);
    expect(rawRows('SELECT key FROM staged')).toEqual([{ key: 'id:3' }]);
    expect(ledger.counts(target)).toEqual({ pending: 0, delivered: 1, rejected: 1, failed: 1 });

    expect(ledger.markPending(target, run, [pending('id:1', 'b2'), pending('id:2', 'b2')])).toBe(2);
    expect(rawRows('SELECT state, message FROM inflight')).toEqual([
      { state: 'pending', message: null },
      { state: 'pending', message: null },
    ]);
  });

  // Keys reach the ledger as JSON (SQLite keeps a lone surrogate as three generalized UTF-8 bytes), and Node 24
  // converts a string bound alone to U+FFFD: a key bound as text would not find its row there.
  it('rejects and reprices keys holding lone surrogates in inflight, staged and records', () => {
    const { target, run } = setUp();
    const [held, staged, merged, late] = ['id:A\ud800', 'id:\udc00B', 'id:C\udbff', 'id:D\udfff'];
    ledger.markPending(target, run, [pending(merged, 'b0'), pending(late, 'b0')]);
    ledger.markDelivered(target, [merged, late], 'b0');
    ledger.merge();
    ledger.markPending(target, run, [pending(held, 'b1'), pending(staged, 'b1')]);
    ledger.markDelivered(target, [staged], 'b1');
    const rejections = [held, staged, merged].map((key) => ({ key, message: 'refused' }));
    expect(ledger.markRejected(target, rejections)).toBe(3);
    expect(rawRows('SELECT count(*) AS n FROM inflight UNION ALL SELECT count(*) FROM staged')).toEqual([
      { n: 0 },
      { n: 0 },
    ]);
    const states = ledger.lookup(target, [held, staged, merged, late]);
    expect([held, staged, merged, late].map((key) => states.get(key)?.state)).toEqual([
      'rejected',
      'rejected',
      'rejected',
      'delivered',
    ]);
    expect(ledger.reprice(target, late, 'h-net', { currency: 'EUR', value: 5 })).toBe(1);
    expect(ledger.lookup(target, [late]).get(late)).toEqual({
      state: 'delivered',
      contentHash: 'h-net',
      amount: { currency: 'EUR', value: 5 },
    });
  });

  it('refuses a run id that does not exist', () => {
    const { target } = setUp();
    expect(() => ledger.markPending(target, 999, [pending('id:1', 'b1')])).toThrow(/FOREIGN KEY/);
    expect(ledger.lookup(target, ['id:1']).size).toBe(0);
  });
});

describe('guard (the run lock, lease.ts)', () => {
  it('is called before every write, and a throwing guard stops the write; reads go on', () => {
    let lost = false;
    const guarded = openLedger(join(dir, 'guarded.db'), {
      now,
      guard: () => {
        if (lost) throw Object.assign(new Error('lost the run lock'), { name: 'LedgerLockLost' });
      },
    });
    try {
      const target = guarded.target(targetOf('https://crm.example', 'sk_test'));
      const run = guarded.beginRun({ command: 'push', files: ['a.csv'] });
      const batch = guarded.journalBatch(
        target,
        run,
        'k1',
        [{ key: 'id:1', contentHash: 'h1', currency: 'EUR', value: 1 }],
        '[{}]',
      );
      lost = true;
      const writes: [string, () => unknown][] = [
        ['target', () => guarded.target(targetOf('https://crm.example', 'sk_other'))],
        ['beginRun', () => guarded.beginRun({ command: 'push', files: [] })],
        ['journalBatch', () => guarded.journalBatch(target, run, 'k2', [], '[]')],
        ['settleBatch', () => guarded.settleBatch(batch)],
        ['unjournal', () => guarded.unjournal(batch)],
        ['markPending', () => guarded.markPending(target, run, [pending('id:2', 'k3')])],
        ['markDelivered', () => guarded.markDelivered(target, ['id:2'], 'k3')],
        ['markRejected', () => guarded.markRejected(target, [{ key: 'id:2', message: 'no' }])],
        ['markFailed', () => guarded.markFailed(target, ['id:2'], 'down')],
        ['reprice', () => guarded.reprice(target, 'id:1', 'h9', { currency: 'EUR', value: 2 })],
        ['finishRun', () => guarded.finishRun(run, { counts: {}, exitCode: 4, durationMs: 1 })],
      ];
      for (const [name, write] of writes) expect(write, name).toThrow('lost the run lock');
      expect(guarded.history({ limit: 5 })).toHaveLength(1);
      expect(guarded.counts(target)).toMatchObject({ pending: 1 });
    } finally {
      lost = false;
      guarded.close();
    }
  });
});
