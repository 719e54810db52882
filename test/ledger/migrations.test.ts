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
  it('builds the newest schema (8) on an empty database, once', () => {
    const db = retain(new Database(':memory:'));
    migrate(db);
    migrate(db);
    expect(version(db)).toBe(8);
    expect(ledgerMigrations).toHaveLength(8);
    expect(tables(db)).toEqual([
      'batch_bodies',
      'batches',
      'delivered_spans',
      'inflight',
      'key_filter_pages',
      'key_filter_segments',
      'known_problems',
      'meta',
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
    expect(version(db)).toBe(9);
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
    expect(version(db)).toBe(8);
    expect(tables(db)).not.toContain('extra');
    db.close();
  });

  it('refuses a file from a newer revimport with a ConfigError naming both versions', () => {
    const db = retain(new Database(':memory:'));
    db.exec('PRAGMA user_version = 10');
    expect(() => migrate(db)).toThrow(ConfigError);
    expect(() => migrate(db)).toThrow('has schema version 10, newer than this revimport supports (8)');
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
    expect(version(raw)).toBe(8);
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
