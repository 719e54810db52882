import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { openLedger } from '../../src/ledger/ledger.js';
import { ledgerMigrations, migrate } from '../../src/ledger/migrations.js';
import { targetOf } from '../../src/ledger/target.js';
import { keep, retain } from '../helpers/native.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'revimport-migrations-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const version = (db: Database.Database) => keep(db).prepare('PRAGMA user_version').pluck().get();
const tables = (db: Database.Database) =>
  (
    keep(db).prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((row) => row.name);

describe('migrate', () => {
  it('builds the newest schema (11) on an empty database, once', () => {
    const db = retain(new Database(':memory:'));
    migrate(db);
    migrate(db);
    expect(version(db)).toBe(11);
    expect(ledgerMigrations).toHaveLength(11);
    expect(tables(db)).toEqual([
      'batch_bodies',
      'batches',
      'delivered_spans',
      'inflight',
      'key_filter_log',
      'key_filter_pages',
      'key_filter_segments',
      'known_problems',
      'meta',
      'raw_spans',
      'records',
      'runs',
      'staged',
      'targets',
    ]);
    db.close();
  });

  it('upgrades a file in place when a later migration is appended', () => {
    const path = join(dir, 'ledger.db');
    const ledger = openLedger(path);
    const target = ledger.target(targetOf('https://crm.example', 'k'));
    const run = ledger.beginRun({ command: 'push', files: ['a.csv'] });
    ledger.markPending(target, run, [
      { key: 'id:1', contentHash: 'h1', payload: '{}', idempotencyKey: 'b1' },
    ]);
    ledger.close();

    const db = retain(new Database(path));
    migrate(db, [...ledgerMigrations, 'ALTER TABLE runs ADD COLUMN note TEXT']);
    expect(version(db)).toBe(12);
    expect(
      keep(db).prepare('SELECT key, state, note FROM inflight JOIN runs ON runs.id = run_id').get(),
    ).toEqual({
      key: 'id:1',
      state: 'pending',
      note: null,
    });
    db.close();
  });

  it('rolls a failing migration back whole, version included', () => {
    const db = retain(new Database(':memory:'));
    migrate(db);
    expect(() => migrate(db, [...ledgerMigrations, 'CREATE TABLE extra (a); SELECT * FROM nowhere'])).toThrow(
      /no such table: nowhere/,
    );
    expect(version(db)).toBe(11);
    expect(tables(db)).not.toContain('extra');
    db.close();
  });

  it('refuses a file from a newer revimport with a ConfigError naming both versions', () => {
    const db = retain(new Database(':memory:'));
    db.exec('PRAGMA user_version = 12');
    expect(() => migrate(db)).toThrow(ConfigError);
    expect(() => migrate(db)).toThrow('has schema version 12, newer than this revimport supports (11)');
    expect(tables(db)).toEqual([]);
    db.close();
  });

  it('takes a schema 1 ledger to 2: delivered keys keep their state, without an amount; new ones get one', () => {
    const path = join(dir, 'v1.db');
    const v1 = retain(new Database(path));
    migrate(v1, ledgerMigrations.slice(0, 1));
    v1.close();
    const early = openLedger(path);
    const target = early.target(targetOf('https://crm.example', 'k'));
    early.close();
    // Written as revimport 0.1 would have: a delivered record with no amount column.
    const raw = retain(new Database(path));
    expect(version(raw)).toBe(11);
    keep(raw)
      .prepare(
        "INSERT INTO records (target_id, key, content_hash, state, first_seen, updated_at) VALUES (?, 'id:old', 'h-old', 'delivered', 1, 1)",
      )
      .run(target);
    // A ledger of records written before v7 has no key filter covering them (migration v7).
    keep(raw).prepare("UPDATE meta SET value = 0 WHERE name = 'key_filter_complete'").run();
    raw.close();

    const ledger = openLedger(path);
    const run = ledger.beginRun({ command: 'push', files: ['a.csv'] });
    ledger.markPending(target, run, [
      {
        key: 'id:new',
        contentHash: 'h-new',
        payload: '{"conversionCurrency":"USD","conversionValue":232.81}',
        idempotencyKey: 'b1',
      },
    ]);
    ledger.markDelivered(target, ['id:new'], 'b1');
    const before = ledger.lookup(target, ['id:old', 'id:new']);
    expect(before.get('id:old')).toEqual({ state: 'delivered', contentHash: 'h-old' });
    expect(before.get('id:new')).toEqual({
      state: 'delivered',
      contentHash: 'h-new',
      amount: { currency: 'USD', value: 232.81 },
    });
    // Staged, then merged: the amount survives both, and a reprice moves the order to its new value.
    expect(ledger.reprice(target, 'id:new', 'h-net', { currency: 'USD', value: 218.81 })).toBe(1);
    ledger.merge();
    expect(ledger.lookup(target, ['id:new']).get('id:new')).toEqual({
      state: 'delivered',
      contentHash: 'h-net',
      amount: { currency: 'USD', value: 218.81 },
    });
    expect(ledger.reprice(target, 'id:new', 'h-net2', { currency: 'USD', value: 200 })).toBe(1);
    expect(ledger.lookup(target, ['id:new']).get('id:new')?.amount).toEqual({ currency: 'USD', value: 200 });
    ledger.close();
  });
});

describe('migration 9: records as a rowid table with a unique (target, key) index', () => {
  const columns =
    'target_id, key, content_hash, state, idempotency_key, run_id, first_seen, updated_at, message, payload, amount';
  const rows = (db: Database.Database) =>
    keep(db).prepare(`SELECT ${columns} FROM records ORDER BY target_id, key`).all();
  const spans = (db: Database.Database) =>
    keep(db).prepare('SELECT target_id, digest FROM delivered_spans ORDER BY target_id, digest').all();

  /** A schema-8 ledger holding delivered and rejected records of two targets, and a span of each target. */
  function v8Ledger(): Database.Database {
    const db = retain(new Database(join(dir, 'v8.db')));
    migrate(db, ledgerMigrations.slice(0, 8));
    expect(version(db)).toBe(8);
    db.exec(`
      INSERT INTO targets (id, base_url, account, created_at) VALUES (1, 'https://a.example', '', 1),
        (2, 'https://b.example', '', 1);
      INSERT INTO runs (id, command, files, started_at, pid) VALUES (7, 'push', '[]', 1, 1);
      INSERT INTO records (${columns}) VALUES
        (2, 'id:b', 'hb', 'delivered', 'k2', 7, 1, 2, NULL, NULL, '["EUR",1.5]'),
        (1, 'id:z', 'hz', 'rejected', 'k1', 7, 3, 4, 'refused', '{"x":1}', NULL),
        (1, 'id:a', 'ha', 'delivered', 'k1', NULL, 5, 6, NULL, NULL, '["JPY",100]');
      INSERT INTO delivered_spans (target_id, digest, records) VALUES (1, 'd1', 2), (2, 'd2', 1);
      -- Written here past the ledger: its key filter does not cover them, and is rebuilt at the next open.
      UPDATE meta SET value = 0 WHERE name = 'key_filter_complete';
    `);
    return db;
  }

  it('keeps every row and column, and is no longer keyed by (target, key) itself', () => {
    const db = v8Ledger();
    const before = rows(db);
    const table = () =>
      keep(db).prepare("SELECT sql FROM sqlite_schema WHERE name = 'records'").pluck().get();
    expect(table()).toMatch(/WITHOUT ROWID/);
    migrate(db);
    expect(version(db)).toBe(11);
    expect(rows(db)).toEqual(before);
    expect(table()).not.toMatch(/WITHOUT ROWID/);
    // Appended rows: the key order of the migrated rows is their rowid order.
    expect(keep(db).prepare('SELECT key FROM records ORDER BY rowid').pluck().all()).toEqual([
      'id:a',
      'id:z',
      'id:b',
    ]);
    expect(keep(db).prepare("PRAGMA index_list('records')").all()).toMatchObject([
      { name: 'records_key', unique: 1 },
    ]);
    // The constraint holds: a second row of a key is refused, and an upsert finds the index.
    expect(() =>
      keep(db)
        .prepare(
          `INSERT INTO records (${columns}) VALUES (1, 'id:a', 'h', 'delivered', NULL, NULL, 1, 1, NULL, NULL, NULL)`,
        )
        .run(),
    ).toThrow(/UNIQUE constraint failed: records.target_id, records.key/);
    expect(keep(db).prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    db.close();
  });

  it("makes the spans' triggers again: a changed or deleted delivered record drops its target's spans", () => {
    const db = v8Ledger();
    migrate(db);
    keep(db).prepare("UPDATE records SET updated_at = 9 WHERE key = 'id:a'").run();
    expect(spans(db)).toEqual([
      { target_id: 1, digest: 'd1' },
      { target_id: 2, digest: 'd2' },
    ]);
    keep(db).prepare("UPDATE records SET content_hash = 'hb2' WHERE key = 'id:b'").run();
    expect(spans(db)).toEqual([{ target_id: 1, digest: 'd1' }]);
    keep(db).prepare("DELETE FROM records WHERE key = 'id:a'").run();
    expect(spans(db)).toEqual([]);
    db.close();
  });

  it('is read and written by the ledger as before: lookups, and a merge that updates a key in place', () => {
    const db = v8Ledger();
    db.close();
    const ledger = openLedger(join(dir, 'v8.db'));
    expect(ledger.lookup(1, ['id:a', 'id:z', 'id:none'])).toEqual(
      new Map([
        ['id:a', { state: 'delivered', contentHash: 'ha', amount: { currency: 'JPY', value: 100 } }],
        ['id:z', { state: 'rejected', contentHash: 'hz' }],
      ]),
    );
    const run = ledger.beginRun({ command: 'push', files: ['a.csv'] });
    ledger.markPending(1, run, [{ key: 'id:z', contentHash: 'hz2', payload: '{}', idempotencyKey: 'b1' }]);
    ledger.markDelivered(1, ['id:z'], 'b1');
    ledger.merge();
    expect(ledger.lookup(1, ['id:z']).get('id:z')).toEqual({ state: 'delivered', contentHash: 'hz2' });
    ledger.close();
    const raw = retain(new Database(join(dir, 'v8.db'), { readonly: true }));
    expect(version(raw)).toBe(11);
    expect(keep(raw).prepare('SELECT count(*) FROM records WHERE target_id = 1').pluck().get()).toBe(2);
    raw.close();
  });
});

describe('a ledger opened without the run lock (to note a refused run)', () => {
  it('is not migrated: an older schema is an error and stays as it is', () => {
    const file = join(dir, 'old.db');
    const db = retain(new Database(file));
    migrate(db, ledgerMigrations.slice(0, 1));
    db.close();
    expect(() => openLedger(file, { withoutLock: true })).toThrow(
      new RegExp(`schema version 1, not ${ledgerMigrations.length}`),
    );
    const after = retain(new Database(file));
    expect(version(after)).toBe(1);
    after.close();
  });

  it('records a run in a current ledger', () => {
    const file = join(dir, 'current.db');
    openLedger(file).close();
    const ledger = openLedger(file, { withoutLock: true });
    ledger.recordRun({ command: 'push', files: ['a.csv'], counts: {}, exitCode: 5, durationMs: 1 });
    expect(ledger.history({ limit: 5 }).map((r) => r.exitCode)).toEqual([5]);
    ledger.close();
  });
});

describe('migration 11: spans of rows already delivered', () => {
  const rawSpans = (db: Database.Database) =>
    keep(db).prepare('SELECT target_id, digest FROM raw_spans ORDER BY target_id, digest').all();

  it("drops a target's raw spans with its delivered spans when a delivered record of it changes or goes", () => {
    const db = retain(new Database(':memory:'));
    migrate(db);
    db.exec(`
      INSERT INTO targets (id, base_url, account, created_at) VALUES (1, 'https://a.example', '', 1),
        (2, 'https://b.example', '', 1);
      INSERT INTO records (target_id, key, content_hash, state, first_seen, updated_at) VALUES
        (1, 'id:a', 'ha', 'delivered', 1, 1), (2, 'id:b', 'hb', 'delivered', 1, 1), (1, 'id:r', 'hr', 'rejected', 1, 1);
      INSERT INTO delivered_spans (target_id, digest, records) VALUES (1, 'd1', 1), (2, 'd2', 1);
      INSERT INTO raw_spans (target_id, digest, records, ids, body) VALUES (1, 'r1', 1, '["a"]', '{}'),
        (2, 'r2', 1, '["b"]', '{}');
    `);
    // Neither a change a span does not depend on, nor a rejected record's change, drops anything.
    keep(db).prepare("UPDATE records SET updated_at = 9 WHERE key = 'id:a'").run();
    keep(db).prepare("DELETE FROM records WHERE key = 'id:r'").run();
    expect(rawSpans(db)).toHaveLength(2);
    keep(db).prepare("UPDATE records SET content_hash = 'hb2' WHERE key = 'id:b'").run();
    expect(rawSpans(db)).toEqual([{ target_id: 1, digest: 'r1' }]);
    keep(db).prepare("DELETE FROM records WHERE key = 'id:a'").run();
    expect(rawSpans(db)).toEqual([]);
    expect(keep(db).prepare('SELECT count(*) FROM delivered_spans').pluck().get()).toBe(0);
    db.close();
  });
});
