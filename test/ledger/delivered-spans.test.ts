// Spans of delivered records in the SQLite ledger (migrations.ts v8): a span noted answers its keys' lookup with
// one row, and any change to a delivered record of its target (whatever statement makes it) drops the target's
// spans, so a span never claims a record the ledger no longer holds as delivered at that content.
import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Ledger, openLedger } from '../../src/ledger/ledger.js';
import { targetOf } from '../../src/ledger/target.js';
import { tempDir } from '../helpers/cli.js';
import { sqliteV3 } from '../helpers/ledger-v3.js';
import { keep, rawRows, retain } from '../helpers/native.js';
import { spanDigest } from '../helpers/span-digest.js';

let dir: string;
let file: string;
let ledger: Ledger;
let target: number;
let run: number;

const ids = ['1', '2', '3', '4'];
const records = ids.map((id) => ({ key: `id:${id}`, contentHash: `hash-${id}` }));
const keys = records.map((r) => r.key);
const digest = spanDigest(records);

/** The four records delivered (pending, delivered, merged into records), and their span noted. */
function deliverAndNote(): void {
  ledger.markPending(
    target,
    run,
    records.map((r) => ({ ...r, payload: '{}', idempotencyKey: 'b1' })),
  );
  ledger.markDelivered(target, keys, 'b1');
  expect(ledger.noteSpans(target, [{ digest, records: records.length }])).toBe(1);
}

/** Whether the span is still noted: its lookup answered from the span's row. */
function spanHolds(): boolean {
  return ledger.lookupSpan(target, keys, digest).delivered;
}

/** Runs `sql` on the file through a connection of its own, as another program would. */
function raw(sql: string): void {
  const db = retain(new Database(file));
  try {
    keep(db).prepare(sql).run();
  } finally {
    db.close();
  }
}

beforeEach(() => {
  dir = tempDir('revimport-spans-');
  file = path.join(dir, 'ledger.db');
  ledger = openLedger(file);
  target = ledger.target(targetOf('https://crm.example', 'k'));
  run = ledger.beginRun({ command: 'push', files: ['a.csv'] });
});
afterEach(() => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('delivered spans', () => {
  it('answers a noted span with its one row: no key is probed, none is returned', () => {
    expect(spanHolds()).toBe(false);
    deliverAndNote();
    const found = ledger.lookupSpan(target, keys, digest);
    expect(found).toEqual({ delivered: true, entries: new Map() });
    // Noting it again adds nothing.
    expect(ledger.noteSpans(target, [{ digest, records: 4 }])).toBe(0);
  });

  it('does not answer for a span of other records, another count, or another target', () => {
    deliverAndNote();
    const other = spanDigest([...records.slice(0, 3), { key: 'id:4', contentHash: 'changed' }]);
    expect(ledger.lookupSpan(target, keys, other).delivered).toBe(false);
    expect(ledger.lookupSpan(target, keys.slice(0, 3), digest).delivered).toBe(false);
    const second = ledger.target(targetOf('https://crm.example', 'k', 'another account'));
    expect(ledger.lookupSpan(second, keys, digest).delivered).toBe(false);
  });

  it('looks the keys up one by one on a miss, as lookup does', () => {
    deliverAndNote();
    const found = ledger.lookupSpan(target, keys, spanDigest(records.slice(1)));
    expect(found.delivered).toBe(false);
    expect([...found.entries.keys()]).toEqual(keys);
    expect(found.entries.get('id:2')).toMatchObject({ state: 'delivered', contentHash: 'hash-2' });
  });

  it("returns the hotter tables' entries beside a span delivered: a key pending again wins", () => {
    deliverAndNote();
    ledger.markPending(
      target,
      run,
      [{ key: 'id:3', contentHash: 'hash-3', payload: '{}', idempotencyKey: 'b2' }],
      {
        resend: true,
      },
    );
    const found = ledger.lookupSpan(target, keys, digest);
    expect(found.delivered).toBe(true);
    expect([...found.entries]).toEqual([['id:3', { state: 'pending', contentHash: 'hash-3' }]]);
  });

  it('is dropped when a delivered record is repriced (its content changes)', () => {
    deliverAndNote();
    ledger.reprice(target, 'id:2', 'hash-2b', { currency: 'EUR', value: 1 });
    expect(spanHolds()).toBe(false);
  });

  it('is dropped when a delivered record is refused later', () => {
    deliverAndNote();
    ledger.markRejected(target, [{ key: 'id:4', message: 'HTTP 422' }]);
    expect(spanHolds()).toBe(false);
  });

  it('is dropped when a delivered record leaves the ledger by a statement of any program', () => {
    deliverAndNote();
    raw("DELETE FROM records WHERE key = 'id:1'");
    expect(spanHolds()).toBe(false);
  });

  it('is dropped when a delivered record is edited in place, and kept when it is delivered again the same', () => {
    deliverAndNote();
    // Delivered again at the same content (a --resend): the merge's upsert leaves state and hash as they were.
    ledger.markPending(target, run, [{ ...records[0]!, payload: '{}', idempotencyKey: 'b3' }], {
      resend: true,
    });
    ledger.markDelivered(target, ['id:1'], 'b3');
    ledger.merge();
    expect(spanHolds()).toBe(true);
    raw("UPDATE records SET content_hash = 'x' WHERE key = 'id:1'");
    expect(spanHolds()).toBe(false);
  });

  it("is dropped with its target's records when the target is merged into another (ledger assign)", () => {
    ledger.close();
    // A ledger of before accounts: two keys' targets on one URL, each with delivered records.
    file = sqliteV3(dir, 'two-keys', 'https://crm.example');
    ledger = openLedger(file);
    type Row = { target_id: number; key: string; content_hash: string };
    const rows = rawRows(
      file,
      "SELECT target_id, key, content_hash FROM records WHERE state = 'delivered' ORDER BY target_id, key",
    ) as Row[];
    const spans = [...new Set(rows.map((row) => row.target_id))].map((id) => {
      const held = rows
        .filter((row) => row.target_id === id)
        .map((r) => ({ key: r.key, contentHash: r.content_hash }));
      const span = { digest: spanDigest(held), records: held.length };
      expect(ledger.noteSpans(id, [span])).toBe(1);
      return { id, span, keys: held.map((r) => r.key) };
    });
    expect(spans).toHaveLength(2);
    const fingerprints = ledger.accounts().map((row) => row.keyFingerprint!);
    const { targetId } = ledger.assign('https://crm.example', fingerprints, 'shop');
    const gone = spans.find((s) => s.id !== targetId)!;
    expect(ledger.lookupSpan(gone.id, gone.keys, gone.span.digest).delivered).toBe(false);
    // The records are found under the target they moved to, key by key: it never noted that span.
    const moved = ledger.lookupSpan(targetId, gone.keys, gone.span.digest);
    expect(moved.delivered).toBe(false);
    expect(moved.entries.size).toBe(gone.keys.length);
    expect(rawRows(file, 'SELECT DISTINCT target_id FROM delivered_spans')).not.toContainEqual({
      target_id: gone.id,
    });
  });
});
