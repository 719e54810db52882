// The ledger's key filter (issue 23): the pure Bloom filter (key-filter.ts), and the one rule the ledger keeps
// with it (key-filter-store.ts): every key of the records table is found by lookup, whichever connection or
// path put it there, and whether the file's filter was built by merges, by an upgrade, or not at all yet.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySettledPage } from '../../src/ledger/copy-ledger.js';
import {
  compactedPages,
  fillPages,
  isFull,
  KeyFilter,
  maxPages,
  newSegment,
  pageBytes,
} from '../../src/ledger/key-filter.js';
import { KeyFilterStore, keyFilterSql } from '../../src/ledger/key-filter-store.js';
import { openLedger } from '../../src/ledger/ledger.js';
import { ledgerMigrations, migrate } from '../../src/ledger/migrations.js';
import { targetOf } from '../../src/ledger/target.js';
import type { JournalEntry } from '../../src/ledger/types.js';
import { sqliteV3 } from '../helpers/ledger-v3.js';
import { keep, rawRows, retain } from '../helpers/native.js';

/** Keys shaped like the exports' ids: a prefix and a scrambled number, or a UUID-like hex string. */
const key = (n: number) =>
  n % 3 === 0
    ? `id:ORD-${(Math.imul(n, 0x9e3779b1) >>> 0).toString().padStart(10, '0')}`
    : `id:${(Math.imul(n, 0x85ebca6b) >>> 0).toString(16)}-${n.toString(36)}-4a1b-9c2d`;

/** `count` keys from the `from`th. */
const batch = (from: number, count: number) => Array.from({ length: count }, (_, n) => key(from + n));

/** A ledger opened for writing at `path`, with one target and a push run begun on it. */
function writerAt(path: string) {
  const writer = openLedger(path);
  const target = writer.target(targetOf('https://crm.example', 'k'));
  const run = writer.beginRun({ command: 'push', files: ['a.csv'] });
  return { writer, target, run };
}

describe('KeyFilter', () => {
  it('finds every key it was given, across segments and targets', () => {
    const filter = new KeyFilter();
    for (let n = 0; n < 400_000; n++) filter.add(1 + (n % 2), key(n));
    // 400,000 keys fill the first two segments (87,381 + 174,762 keys) and part of the third (349,525).
    expect(filter.segments.length).toBe(3);
    let missed = 0;
    for (let n = 0; n < 400_000; n++) if (!filter.mayContain(1 + (n % 2), key(n))) missed++;
    expect(missed).toBe(0);
  });

  it('opens segments twice the last up to maxPages, then of maxPages each (also after a larger stored one)', () => {
    const full = (pages: number) => {
      const segment = newSegment(pages);
      segment.keys = segment.capacity;
      return segment;
    };
    const filter = new KeyFilter([full(maxPages / 2)]);
    filter.add(1, 'id:a');
    expect(filter.segments.map((s) => s.pages)).toEqual([maxPages / 2, maxPages]);
    filter.segments[1]!.keys = filter.segments[1]!.capacity;
    filter.add(1, 'id:b');
    expect(filter.segments.map((s) => s.pages)).toEqual([maxPages / 2, maxPages, maxPages]);
    // A ledger written before the cap may hold a larger newest segment: the next one is still maxPages.
    const older = new KeyFilter([full(maxPages * 2)]);
    older.add(1, 'id:c');
    expect(older.segments.map((s) => s.pages)).toEqual([maxPages * 2, maxPages]);
    for (const [f, k] of [
      [filter, 'id:a'],
      [filter, 'id:b'],
      [older, 'id:c'],
    ] as const)
      expect(f.mayContain(1, k)).toBe(true);
  });

  it('answers "maybe" for about one key in a hundred it never held, and tells targets apart', () => {
    const filter = new KeyFilter();
    for (let n = 0; n < 300_000; n++) filter.add(1, key(n));
    let absent = 0;
    let otherTarget = 0;
    for (let n = 300_000; n < 400_000; n++) if (filter.mayContain(1, key(n))) absent++;
    for (let n = 0; n < 100_000; n++) if (filter.mayContain(2, key(n))) otherTarget++;
    // Two full segments at ~0.5 % each and a third filling: ~1 %.
    expect(absent / 100_000).toBeLessThan(0.02);
    expect(otherTarget / 100_000).toBeLessThan(0.02);
  });

  it('hands out the pages it changed, which rebuild the same filter elsewhere', () => {
    const filter = new KeyFilter();
    filter.add(1, 'id:first');
    const first = filter.takeDirty();
    expect(first).toHaveLength(1);
    expect(filter.takeDirty()).toEqual([]);
    for (let n = 0; n < 50_000; n++) filter.add(1, key(n));
    const dirty = filter.takeDirty();
    expect(dirty.sort()).toEqual([
      [0, 0],
      [0, 1],
    ]);
    const copy = new KeyFilter([]);
    copy.segments.push({ ...filter.segments[0]!, words: new Uint32Array(filter.segments[0]!.words.length) });
    // One buffer for every page, as the store writes them: each page is copied out before the next is written.
    const bytes = Buffer.alloc(pageBytes);
    for (const [segment, page] of dirty) copy.setPage(segment, page, filter.page(segment, page, bytes));
    for (let n = 0; n < 50_000; n++) expect(copy.mayContain(1, key(n))).toBe(true);
    expect(copy.mayContain(1, 'id:first')).toBe(true);
    expect(() => copy.setPage(0, 0, Buffer.alloc(pageBytes - 1))).toThrow(/page of/);
  });

  it("hands out every key's hashes once, from which a segment is built a step of pages at a time", () => {
    const filter = new KeyFilter([newSegment(3)]);
    for (let n = 0; n < 100_000; n++) filter.add(1 + (n % 2), key(n));
    expect(filter.unlogged).toBe(100_000);
    const log = filter.takeLog();
    expect(log.length).toBe(200_000);
    expect(filter.unlogged).toBe(0);
    expect(filter.takeLog().length).toBe(0);
    // One step of three pages, or steps of one and two pages: the bits the adds set, word for word.
    const pageWords = filter.segments[0]!.words.length / 3;
    for (const step of [3, 1, 2]) {
      const words = new Uint32Array(3 * pageWords);
      for (let first = 0; first < 3; first += step) {
        const count = Math.min(step, 3 - first);
        const part = new Uint32Array(count * pageWords);
        fillPages(log, 3, first, part);
        words.set(part, first * pageWords);
      }
      expect(words).toEqual(filter.segments[0]!.words);
    }
  });

  it('a compacted segment is sealed: at 16 bits a key, the next key opens a segment of its own', () => {
    const pages = compactedPages(5_000_000);
    // 16 bits a key: 9.6 MiB for 5M keys, room (at the 12 bits of the others) for 6.6M.
    expect(pages).toBe(153);
    const compacted = newSegment(pages, 5_000_000, false, true);
    expect(compacted.capacity).toBeGreaterThan(5_000_000);
    expect(isFull(compacted)).toBe(true);
    expect(isFull(newSegment(pages, 5_000_000))).toBe(false);
    const filter = new KeyFilter([compacted]);
    filter.add(1, 'id:a');
    expect(filter.segments.map((s) => s.pages)).toEqual([pages, maxPages]);
    expect(filter.segments[0]!.keys).toBe(5_000_000);
    expect(filter.mayContain(1, 'id:a')).toBe(true);
  });
});

/**
 * Leaves the ledger at `path` as revimport before v7 left one (migration v7): delivered records of `keys` for
 * `target`, written through JSON as the ledger writes keys (SQLite's JSON keeps a lone surrogate as ED A0 80; a
 * bound string is converted by Node, which writes U+FFFD on Node 24), and no filter covering them.
 */
function beforeTheFilter(path: string, target?: number, keys: readonly string[] = []): void {
  const raw = retain(new Database(path));
  keep(raw)
    .prepare(
      `INSERT INTO records (target_id, key, content_hash, state, first_seen, updated_at)
        SELECT ?, value, 'h', 'delivered', 1, 1 FROM json_each(?)`,
    )
    .run(target ?? 0, JSON.stringify(keys));
  keep(raw).prepare("UPDATE meta SET value = 0 WHERE name = 'key_filter_complete'").run();
  raw.close();
}

describe('the key filter in the ledger', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'revimport-filter-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const entry = (k: string): JournalEntry => ({ key: k, contentHash: `h-${k}`, currency: 'EUR', value: 1 });

  /** A new ledger with one target, then `keys` delivered to it as revimport before v7 left them (beforeTheFilter). */
  const ledgerBeforeTheFilter = (keys: readonly string[]) => {
    const path = join(dir, 'ledger.db');
    const setup = openLedger(path);
    const target = setup.target(targetOf('https://crm.example', 'k'));
    setup.close();
    beforeTheFilter(path, target, keys);
    return { path, target };
  };

  /** A reader's and a writer's connection to one new ledger, and id:1 delivered and merged by the writer. */
  const readerAndWriter = () => {
    const path = join(dir, 'ledger.db');
    const reader = openLedger(path, { withoutLock: true });
    const { writer, target, run } = writerAt(path);
    writer.settleBatch(writer.journalBatch(target, run, 'b1', [entry('id:1')], '[]'));
    writer.merge();
    return { reader, writer, target, run };
  };

  it('a connection holding the filter finds what another connection merged since', () => {
    const { reader, writer, target, run } = readerAndWriter();
    // The reader reads (and keeps) the filter holding id:1 only.
    expect(reader.lookup(target, ['id:1', 'id:2']).get('id:1')?.state).toBe('delivered');
    writer.settleBatch(writer.journalBatch(target, run, 'b2', [entry('id:2')], '[]'));
    writer.merge();
    expect(reader.lookup(target, ['id:2']).get('id:2')).toEqual({
      state: 'delivered',
      contentHash: 'h-id:2',
      amount: { currency: 'EUR', value: 1 },
    });
    reader.close();
    writer.close();
  });

  // A merge reads the journal's keys a few rows at a time (statements.ts journalKeys): every page's keys go in.
  it("a merge adds every delivered journal row's keys to the file's filter, page after page", () => {
    const path = join(dir, 'ledger.db');
    const { writer, target, run } = writerAt(path);
    const delivered: string[] = [];
    for (let batch = 0; batch < 9; batch++) {
      const keys = Array.from({ length: 40 }, (_, i) => key(batch * 40 + i));
      const id = writer.journalBatch(target, run, `b${batch}`, keys.map(entry), '[]');
      // One row left pending between delivered ones: the pages skip it and go on.
      if (batch === 4) continue;
      writer.settleBatch(id);
      delivered.push(...keys);
      // Two delivered rows without entries, a page of their own: not the end of the journal.
      if (batch === 3)
        for (const empty of ['e1', 'e2'])
          writer.settleBatch(writer.journalBatch(target, run, empty, [], '[]'));
    }
    writer.merge();
    const raw = retain(new Database(path));
    const filter = raw.transaction(() => new KeyFilterStore(raw).current())();
    expect(delivered.filter((k) => !filter?.mayContain(target, k))).toEqual([]);
    raw.close();
    writer.close();
  });

  /** The file's filter as a new connection reads it. */
  const fileFilter = (path: string) => {
    const raw = retain(new Database(path));
    const filter = raw.transaction(() => new KeyFilterStore(raw).current())();
    raw.close();
    return filter;
  };

  /** A writer, its target and run, and 200 keys journaled and delivered in 5 batches. */
  const journaledAhead = () => {
    const path = join(dir, 'ledger.db');
    const { writer, target, run } = writerAt(path);
    const keys = Array.from({ length: 200 }, (_, i) => key(i));
    for (let batch = 0; batch < 5; batch++) {
      const entries = keys.slice(batch * 40, (batch + 1) * 40).map(entry);
      writer.settleBatch(writer.journalBatch(target, run, `b${batch}`, entries, '[]'));
    }
    return { path, writer, target, keys };
  };

  // KeyFilterStore.addAhead: the writer hashes a batch's keys once it is journaled, and its merge writes them.
  it('a merge writes the keys its connection journaled, without reading them back from the journal', () => {
    const { path, writer, target, keys } = journaledAhead();
    // The journal's keys, emptied behind the writer's back: only the copy it keeps still has them.
    const raw = retain(new Database(path));
    raw.exec(`UPDATE batches SET keys = '[]'`);
    raw.close();
    writer.merge();
    const filter = fileFilter(path);
    expect(keys.filter((k) => !filter?.mayContain(target, k))).toEqual([]);
    writer.close();
  });

  it('a filter written by another connection before the merge: the merge reads its batches back and keeps that write', () => {
    const { path, writer, target, keys } = journaledAhead();
    // Another connection adds keys of its own (on every page of the first segment) before the writer merges.
    const others = Array.from({ length: 200 }, (_, i) => key(1000 + i));
    const raw = retain(new Database(path));
    raw.transaction(() => new KeyFilterStore(raw).add(others.map((k) => [target, k] as const)))();
    raw.close();
    writer.merge();
    const filter = fileFilter(path);
    expect([...keys, ...others].filter((k) => !filter?.mayContain(target, k))).toEqual([]);
    writer.close();
  });

  // A push's lookups end before the final merge (LedgerPort.lookupsDone): the copy and the page cache go, and a
  // lookup after it (the run report's, another run's on the same connection) reads them again.
  it('a connection whose lookups are done still finds what it held and what was merged since', () => {
    const { reader, writer, target, run } = readerAndWriter();
    expect(reader.lookup(target, ['id:1']).get('id:1')?.state).toBe('delivered');
    reader.lookupsDone();
    writer.settleBatch(writer.journalBatch(target, run, 'b2', [entry('id:2')], '[]'));
    writer.merge();
    const found = reader.lookup(target, ['id:1', 'id:2', 'id:3']);
    expect([...found.keys()].sort()).toEqual(['id:1', 'id:2']);
    reader.lookupsDone();
    expect(reader.lookupSpan(target, ['id:2'], 'no-such-span').entries.get('id:2')?.state).toBe('delivered');
    reader.close();
    writer.close();
  });

  // A push's lookups hold the filter they read first (LedgerPort.lookupsBegin): the pages its own merges write
  // on the writer's connection are not read, as the run never looks up a key it delivered.
  it('lookups that began keep the filter they read first, until they are done', () => {
    const { reader, writer, target, run } = readerAndWriter();
    reader.lookupsBegin();
    expect(reader.lookup(target, ['id:1']).get('id:1')?.state).toBe('delivered');
    writer.settleBatch(writer.journalBatch(target, run, 'b2', [entry('id:2')], '[]'));
    writer.merge();
    // Merged on the other connection: the held filter does not have it, so the records table is not read.
    expect([...reader.lookup(target, ['id:1', 'id:2']).keys()]).toEqual(['id:1']);
    reader.lookupsDone();
    expect([...reader.lookup(target, ['id:1', 'id:2']).keys()].sort()).toEqual(['id:1', 'id:2']);
    reader.close();
    writer.close();
  });

  it('a write rolled back leaves no copy that a later write of the same version would pass for', () => {
    const path = join(dir, 'ledger.db');
    openLedger(path).close();
    const mine = retain(new Database(path));
    const other = retain(new Database(path));
    const store = new KeyFilterStore(mine);
    const theirs = new KeyFilterStore(other);
    expect(mine.transaction(() => store.current()?.mayContain(1, 'id:a'))()).toBe(false);
    // This connection adds id:a at version 1, and the transaction fails after.
    expect(() =>
      mine.transaction(() => {
        store.add([[1, 'id:a']]);
        throw new Error('disk full');
      })(),
    ).toThrow('disk full');
    // Another connection writes version 1 with id:b.
    other.transaction(() => theirs.add([[1, 'id:b']]))();
    expect(mine.transaction(() => store.current()?.mayContain(1, 'id:b'))()).toBe(true);
    mine.close();
    other.close();
  });

  it('finds keys with lone surrogates whichever path wrote them: staged, journal, a rebuild', () => {
    const path = join(dir, 'ledger.db');
    const ledger = openLedger(path);
    const target = ledger.target(targetOf('https://crm.example', 'k'));
    const run = ledger.beginRun({ command: 'push', files: ['a.jsonl'] });
    const staged = ['id:ORD\ud800', 'id:\udc00x', 'id:pair\ud83d\ude00', 'id:two\udbff\udbff'];
    const pending = staged.map((k) => ({ key: k, contentHash: 'h', payload: '{}', idempotencyKey: 'b1' }));
    ledger.markPending(target, run, pending);
    ledger.markDelivered(target, staged, 'b1');
    ledger.merge();
    const journaled = ['id:J\ud801', 'id:J\udfff'];
    ledger.settleBatch(ledger.journalBatch(target, run, 'b2', journaled.map(entry), '[]'));
    ledger.merge();
    const all = [...staged, ...journaled];
    const found = (l: typeof ledger) => [...l.lookup(target, all).keys()].sort();
    expect(found(ledger)).toEqual([...all].sort());
    ledger.close();
    beforeTheFilter(path);
    const rebuilt = openLedger(path);
    expect(found(rebuilt)).toEqual([...all].sort());
    rebuilt.close();
  });

  it("pages keys by seeking the primary key on (target, key), not from each target's first key", () => {
    // A page's cursor is a key's bytes cast to text; with the CAST's affinity SQLite seeks on target_id alone and
    // reads the target's keys from its first for every page: a 5M-record rebuild took 105 s.
    const path = join(dir, 'ledger.db');
    openLedger(path).close();
    const db = retain(new Database(path, { readonly: true }));
    const plan = (text: string, params: unknown) =>
      (keep(db).prepare(`EXPLAIN QUERY PLAN ${text}`).all(params) as { detail: string }[])
        .map((row) => row.detail)
        .join(' | ');
    expect(plan(keyFilterSql.recordKeys, [0, Buffer.alloc(0)])).toContain('(target_id,key)>(?,?)');
    expect(plan(copySettledPage, { target: 0, after: Buffer.alloc(0) })).toContain('(target_id,key)>(?,?)');
    db.close();
  });

  it('a rebuild reads every key past a page that ends on a key holding a lone surrogate', () => {
    // 9,999 keys, then one stored as ED A0 80 (read back as three U+FFFD, EF BF BD each) that ends the rebuild's
    // first page of 10,000, then keys whose bytes (U+E000: EE 80 80) sort between the two forms.
    const keys = [
      ...Array.from({ length: 9999 }, (_, n) => `id:A${String(n).padStart(5, '0')}`),
      'id:\ud800',
      ...Array.from({ length: 50 }, (_, n) => `id:\ue000-${n}`),
    ];
    const { path, target } = ledgerBeforeTheFilter(keys);
    const ledger = openLedger(path);
    expect(ledger.lookup(target, keys).size).toBe(keys.length);
    ledger.close();
  });

  it("a reader's copy follows the writer's new segments and a rebuild", () => {
    const path = join(dir, 'ledger.db');
    const { writer, target, run } = writerAt(path);
    const reader = openLedger(path, { withoutLock: true });
    const deliver = (keys: string[], id: string) => {
      writer.settleBatch(writer.journalBatch(target, run, id, keys.map(entry), '[]'));
      writer.merge();
    };
    deliver(batch(0, 1000), 'b1');
    expect(reader.lookup(target, batch(0, 1000)).size).toBe(1000);
    // 100,000 more keys fill the first segment (87,381) and open a second one.
    deliver(batch(1000, 100_000), 'b2');
    expect(rawRows(path, 'SELECT count(*) AS n FROM key_filter_segments')).toEqual([{ n: 2 }]);
    expect(reader.lookup(target, batch(0, 101_000)).size).toBe(101_000);
    // A rebuild replaces every page; the reader's copy is read again where the file changed.
    writer.close();
    beforeTheFilter(path);
    openLedger(path).close();
    expect(reader.lookup(target, batch(0, 101_000)).size).toBe(101_000);
    expect(reader.lookup(target, ['id:never']).size).toBe(0);
    reader.close();
  });

  it('a ledger of records from before the filter is looked up in full, then gets its filter from them', () => {
    const keys = Array.from({ length: 1000 }, (_, n) => key(n));
    const { path, target } = ledgerBeforeTheFilter(keys);

    const reader = openLedger(path, { withoutLock: true });
    expect(reader.lookup(target, keys).size).toBe(1000);
    reader.close();
    expect(rawRows(path, "SELECT value FROM meta WHERE name = 'key_filter_complete'")).toEqual([
      { value: 0 },
    ]);

    const run = openLedger(path);
    expect(rawRows(path, "SELECT value FROM meta WHERE name = 'key_filter_complete'")).toEqual([
      { value: 1 },
    ]);
    expect(run.lookup(target, keys).size).toBe(1000);
    expect(run.lookup(target, ['id:never']).size).toBe(0);
    // The rebuild logged every key's hashes: a later compaction builds from them.
    expect(filterShape(path).logged).toBe(1000);
    run.close();
  });

  /** The file's filter segments (pages, keys) and the keys its log holds. */
  const filterShape = (path: string) => ({
    segments: rawRows(path, 'SELECT pages, keys, sealed FROM key_filter_segments ORDER BY segment') as {
      pages: number;
      keys: number;
      sealed: number;
    }[],
    logged: (rawRows(path, 'SELECT coalesce(sum(pairs), 0) AS n FROM key_filter_log')[0] as { n: number }).n,
  });

  // 611,668 keys fill a ledger's first three segments (2, 4 and 8 pages): the merge that fills the third compacts.
  it('a merge that fills a third segment builds one from the log in place of all: every key found, by every reader', () => {
    const path = join(dir, 'ledger.db');
    const { writer, target, run } = writerAt(path);
    const held = openLedger(path, { withoutLock: true });
    const plain = openLedger(path, { withoutLock: true });
    const journaled = (keys: string[], id: string) =>
      writer.settleBatch(writer.journalBatch(target, run, id, keys.map(entry), '[]'));
    // Staged records (the per-record path), journaled ones whose hashes the writer logs ahead of their merge (a
    // log row once 65,536 wait), and one batch whose log row fails: its keys are read back and logged at the merge.
    const staged = batch(0, 1000);
    writer.markPending(
      target,
      run,
      staged.map((k) => ({ key: k, contentHash: 'h', payload: '{}', idempotencyKey: 's1' })),
    );
    writer.markDelivered(target, staged, 's1');
    for (let n = 1000; n < 500_000; n += 100_000) journaled(batch(n, 100_000), `b${n}`);
    writer.merge();
    expect(filterShape(path).segments.map((s) => s.pages)).toEqual([2, 4, 8]);
    // Lookups read a key's records row (~10 us a key): a sample of them; the file's filter gets every key.
    const sample = (keys: string[]) => keys.filter((_, n) => n % 61 === 0);
    const early = sample(batch(0, 501_000));
    expect(held.lookup(target, early).size).toBe(early.length);
    expect(plain.lookup(target, early).size).toBe(early.length);
    held.lookupsBegin();
    const failing = retain(new Database(path));
    keep(failing)
      .prepare("CREATE TRIGGER no_log BEFORE INSERT ON key_filter_log BEGIN SELECT RAISE(ABORT, 'full'); END")
      .run();
    journaled(batch(501_000, 70_000), 'b-failed');
    keep(failing).prepare('DROP TRIGGER no_log').run();
    failing.close();
    journaled(batch(571_000, 60_000), 'b-last');
    writer.merge();
    const all = batch(0, 631_000);
    const compacted = filterShape(path);
    expect(compacted.logged).toBe(631_000);
    expect(compacted.segments).toEqual([{ pages: compactedPages(631_000), keys: 631_000, sealed: 1 }]);
    const filter = fileFilter(path);
    expect(all.filter((k) => !filter?.mayContain(target, k))).toEqual([]);
    // A reader that held the filter of three segments keeps it; once its lookups are done it reads the new one.
    expect(held.lookup(target, early).size).toBe(early.length);
    held.lookupsDone();
    expect(held.lookup(target, sample(all)).size).toBe(sample(all).length);
    const fresh = openLedger(path, { withoutLock: true });
    expect(fresh.lookup(target, sample(all)).size).toBe(sample(all).length);
    // A reader whose copy of three segments is no prefix of the file's one reads the filter anew.
    expect(plain.lookup(target, sample(all)).size).toBe(sample(all).length);
    // One segment at 16 bits a key: about one absent key in 800 is a "maybe".
    const absent = batch(1_000_000, 100_000).filter((k) => filter?.mayContain(target, k)).length;
    expect(absent).toBeLessThan(250);
    // The next keys go to a new segment; the compacted one is never written again.
    journaled(batch(631_000, 1000), 'b-next');
    writer.merge();
    expect(filterShape(path).segments).toEqual([
      { pages: compactedPages(631_000), keys: 631_000, sealed: 1 },
      { pages: maxPages, keys: 1000, sealed: 0 },
    ]);
    const next = fileFilter(path);
    expect(batch(0, 632_000).filter((k) => !next?.mayContain(target, k))).toEqual([]);
    expect(fresh.lookup(target, batch(631_000, 1000)).size).toBe(1000);
    for (const ledger of [held, plain, fresh, writer]) ledger.close();
  }, 120_000);

  it('a log that lacks keys the segments hold is never compacted from', () => {
    const path = join(dir, 'ledger.db');
    const { writer, target, run } = writerAt(path);
    const keys = Array.from({ length: 620_000 }, (_, n) => key(n));
    writer.settleBatch(writer.journalBatch(target, run, 'b1', keys.slice(0, 300_000).map(entry), '[]'));
    writer.merge();
    const raw = retain(new Database(path));
    keep(raw).prepare('DELETE FROM key_filter_log WHERE id = (SELECT min(id) FROM key_filter_log)').run();
    raw.close();
    writer.settleBatch(writer.journalBatch(target, run, 'b2', keys.slice(300_000).map(entry), '[]'));
    writer.merge();
    expect(filterShape(path).segments.map((s) => s.pages)).toEqual([2, 4, 8, 16]);
    const filter = fileFilter(path);
    expect(keys.filter((k) => !filter?.mayContain(target, k))).toEqual([]);
    writer.close();
  }, 120_000);

  it('a ledger at schema 9 whose filter holds keys but whose records table is empty gets its filter built again', () => {
    const path = join(dir, 'v9.db');
    const v9 = retain(new Database(path));
    migrate(v9, ledgerMigrations.slice(0, 9));
    // A rejection of a key found nowhere adds it to the filter and nothing to records.
    keep(v9).prepare('INSERT INTO key_filter_segments (segment, pages, keys) VALUES (0, 2, 5)').run();
    v9.close();
    openLedger(path).close();
    expect(rawRows(path, "SELECT value FROM meta WHERE name = 'key_filter_complete'")).toEqual([
      { value: 1 },
    ]);
    // Built again from the (empty) records: no segment claims keys the log lacks, so compactions can run.
    expect(filterShape(path)).toEqual({ segments: [], logged: 0 });
  });

  it("a target merged into another (ledger assign) has its records found under the other's id", () => {
    const path = sqliteV3(dir, 'two-keys', 'https://crm.example');
    const ledger = openLedger(path);
    const before = rawRows(path, 'SELECT target_id, key FROM records ORDER BY target_id, key') as {
      target_id: number;
      key: string;
    }[];
    const targets = [...new Set(before.map((row) => row.target_id))];
    expect(targets.length).toBe(2);
    const fingerprints = ledger.accounts().map((row) => row.keyFingerprint!);
    const { targetId } = ledger.assign('https://crm.example', fingerprints, 'shop');
    const keys = before.map((row) => row.key);
    const found = ledger.lookup(targetId, keys);
    expect([...found.keys()].sort()).toEqual([...new Set(keys)].sort());
    ledger.close();
  });
});
