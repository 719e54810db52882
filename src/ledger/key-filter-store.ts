// The key filter (key-filter.ts) as the ledger file holds it (migrations.ts v7): its segments, its 64 KiB
// pages, and in `meta` a version bumped by every write and whether the filter covers the records table.
//
// The one rule: every (target, key) in `records` is in the filter, in the same transaction. So every statement
// that can add a key to records adds it to the filter first (ledger.ts: merge, the rejections, a target's
// merge), and a reader refreshes its copy inside the read transaction of its lookup, so that a key merged by
// another connection between the two is never missed. A writer may hash a journaled batch's keys before its
// merge, into a copy that the merge writes in its own transaction (`addAhead`): the rule holds at every commit,
// and the filter may hold more than records, never less. A ledger whose filter is not complete (one written by
// revimport before v7) is looked up without it until an opener with write access builds it from the records
// (ledger.ts `buildKeyFilter`: not while another process's run is live).
//
// The log (migrations.ts v10): every key's two hashes, as the filter had them, in rows of up to `logRowPairs`,
// written in the transaction that writes the pages holding it or before (`addAhead`): the log holds every key of
// the filter, perhaps some twice. From it `compactIfDue` builds one segment in place of all (a push into a ledger of
// 5M records probed seven segments, a cold cache line each, and met seven times the "maybe" of one: bench/README.md,
// "Session 36"), without reading a key of the records table: ~1.2 s at 5M keys against ~8 s for their scan.
import type Database from 'better-sqlite3';
import { collectGarbage } from '../collect-garbage.js';
import {
  bytesWords,
  compactedPages,
  fillPages,
  isFull,
  KeyFilter,
  logRowPairs,
  maxPages,
  newSegment,
  pageBytes,
  pageOf,
  wordBytes,
  wordsPerPage,
} from './key-filter.js';
import { paged, prepareAll } from './native.js';

/** The filter's statements (exported for the query-plan test). */
export const keyFilterSql = {
  state: `SELECT (SELECT value FROM meta WHERE name = 'key_filter_complete') AS complete,
    (SELECT value FROM meta WHERE name = 'key_filter_version') AS version`,
  segments: 'SELECT segment, pages, keys, sealed FROM key_filter_segments ORDER BY segment',
  // Which pages to read, then each page's bytes alone (one 64 KiB Buffer at a time; no iterator: native.ts).
  pagesSince: 'SELECT segment, page FROM key_filter_pages WHERE version > ?',
  pagesOf: 'SELECT segment, page FROM key_filter_pages WHERE segment = ?',
  pageBits: 'SELECT bits FROM key_filter_pages WHERE segment = ? AND page = ?',
  writePage: `INSERT INTO key_filter_pages (segment, page, version, bits) VALUES (?, ?, ?, ?)
    ON CONFLICT (segment, page) DO UPDATE SET version = excluded.version, bits = excluded.bits`,
  writeSegment: `INSERT INTO key_filter_segments (segment, pages, keys, sealed) VALUES (?, ?, ?, ?)
    ON CONFLICT (segment) DO UPDATE SET keys = excluded.keys`,
  setVersion: `UPDATE meta SET value = ? WHERE name = 'key_filter_version'`,
  setComplete: `UPDATE meta SET value = ? WHERE name = 'key_filter_complete'`,
  clearPages: 'DELETE FROM key_filter_pages',
  clearSegments: 'DELETE FROM key_filter_segments',
  writeLog: 'INSERT INTO key_filter_log (pairs, hashes) VALUES (?, ?)',
  // One row at a time: a row is up to 512 KiB.
  logAfter: 'SELECT id, hashes FROM key_filter_log WHERE id > ? ORDER BY id LIMIT 1',
  logPairs: 'SELECT coalesce(sum(pairs), 0) FROM key_filter_log',
  clearLog: 'DELETE FROM key_filter_log',
  // Paged by the key's bytes: a text cursor would skip keys after one holding a lone surrogate (statements.ts).
  // The unary + drops the CAST's affinity: with it the row value is not compared as the index compares, and
  // SQLite seeks on target_id alone, reading the target's keys from its first for every page (EXPLAIN QUERY PLAN;
  // a 5M-record rebuild took 105 s).
  recordKeys: `SELECT target_id, key, CAST(key AS BLOB) FROM records WHERE (target_id, key) > (?, +CAST(? AS TEXT))
    ORDER BY target_id, key LIMIT 10000`,
};

type Statements = { [name in keyof typeof keyFilterSql]: Database.Statement };

/**
 * Full segments that make a compaction (`compactIfDue`): a ledger's first three (2, 4 and 8 pages: ~612,000 keys),
 * then the compacted one and two of `maxPages` (2.8M keys more). After a merge a lookup probes at most three segments.
 */
const compactAt = 3;

/** Log bytes a compaction reads between two collections of the Buffers it read them in (see `#logRows`). */
const collectEveryBytes = 1024 * 1024;

/** No journaled batch added ahead (`addMerging` without a copy that matches the file). */
const noBatches: ReadonlySet<number> = new Set();

/** A stored segment: its index, pages, keys and whether it is sealed (1: a compaction's). */
type StoredSegment = [number, number, number, number];

/** A stored page: its segment and index. */
type Page = [number, number];

export class KeyFilterStore {
  readonly #stmt: Statements;
  /** The filter as of `#version` of the file; undefined when not loaded (or released after a write). */
  #filter: KeyFilter | undefined;
  #version = -1;
  /** Whether `current` returns the copy it has, whatever the file's version now (`hold`). */
  #held = false;
  /** The keys of journaled batches added ahead of their merge (`addAhead`), in a newest-only copy of `version`. */
  #ahead: { filter: KeyFilter; version: number; batches: Set<number> } | undefined;

  constructor(db: Database.Database) {
    this.#stmt = prepareAll(db, keyFilterSql);
    this.#stmt.segments.raw(true);
    this.#stmt.pagesSince.raw(true);
    this.#stmt.pagesOf.raw(true);
    this.#stmt.pageBits.pluck(true);
    this.#stmt.recordKeys.raw(true);
    this.#stmt.logAfter.raw(true);
    this.#stmt.logPairs.pluck(true);
  }

  /**
   * The filter as the file holds it, read in the caller's transaction (only pages written since the last
   * call are read); undefined when it does not cover the records table (an older ledger not built yet).
   */
  current(): KeyFilter | undefined {
    const { complete, version } = this.#stmt.state.get() as { complete: number; version: number };
    if (complete !== 1) {
      this.release();
      return undefined;
    }
    if (this.#filter && (version === this.#version || this.#held)) return this.#filter;
    const stored = this.#stmt.segments.all() as StoredSegment[];
    // A rebuild replaces the segments: a copy whose segments are not a prefix of the file's is read anew.
    const cached = this.#filter?.segments ?? [];
    const prefix = cached.length <= stored.length && cached.every((s, i) => s.pages === stored[i]![1]);
    const filter = prefix && this.#filter ? this.#filter : new KeyFilter();
    const since = filter === this.#filter ? this.#version : -1;
    for (const [index, pages, keys, sealed] of stored) {
      const known = filter.segments[index];
      if (known) known.keys = keys;
      else filter.segments.push(newSegment(pages, keys, false, sealed === 1));
    }
    // One page at a time: all of them at once were 8 MiB of Buffers beside the filter at 5M records.
    this.#read(filter, this.#stmt.pagesSince.all(since) as Page[]);
    this.#filter = filter;
    this.#version = version;
    return filter;
  }

  /**
   * From `hold(true)` to `hold(false)`, `current` keeps the copy it has (or reads next) instead of reading the pages
   * written since: for lookups that never ask for a key written after that copy (LedgerPort.lookupsBegin). A write
   * on this connection (`add`) still drops the copy, and the next `current` reads the filter anew.
   */
  hold(held: boolean): void {
    this.#held = held;
  }

  /** Whether the file's filter covers the records table (read without loading the filter). */
  isComplete(): boolean {
    return (this.#stmt.state.get() as { complete: number }).complete === 1;
  }

  /**
   * Adds the pairs to the filter and writes the pages they changed, in the caller's write transaction. Does
   * nothing when the filter is not complete: a rebuild reads every key of the records table anyway.
   */
  add(pairs: Iterable<readonly [number, string]>): void {
    this.addMerging(() => pairs);
  }

  /**
   * `add` for a merge: `pairs(ahead)` gives the pairs it moves into records less those of the journaled batches
   * in `ahead`, whose keys `addAhead` holds already; the copy holding them is the one written.
   */
  addMerging(pairs: (ahead: ReadonlySet<number>) => Iterable<readonly [number, string]>): void {
    const { complete, version } = this.#stmt.state.get() as { complete: number; version: number };
    this.release();
    const ahead = this.#ahead?.version === version ? this.#ahead : undefined;
    // Dropped whatever happens next: were this transaction rolled back, a copy marked with the version it wrote
    // could later match another write's. The same holds for the copy kept for lookups.
    this.#ahead = undefined;
    if (complete !== 1) return;
    // A key goes into the newest segment, so that segment alone is read (a merge on the writer's thread, which
    // never looks up, does not hold the whole filter).
    const filter = ahead?.filter ?? this.#newestOnly();
    this.#addAll(filter, pairs(ahead?.batches ?? noBatches));
    this.#write(filter, version);
  }

  /**
   * Adds the pairs of journaled batch `batch` to a newest-only copy kept in memory, not to the file: the merge that
   * moves the batch into records writes them with its own (`addMerging`) instead of reading the batch's keys back
   * and hashing them then, on the run's critical path (issue 23: 1-2 s of a 1M-record final merge). Called once
   * the batch is committed, in a transaction that writes only the log's rows. The copy stands for the file version it was read at: after
   * any other write of the filter a new copy starts, and the batches of the old one are read at their merge. A
   * key added here whose batch never reaches records costs a probe of records, never a key: the filter may only
   * hold more than records. The keys' hashes go to the log (in the caller's transaction, which writes) once a row's
   * worth waits, the rest with the merge's pages: the copy holds at most a row of them.
   */
  addAhead(batch: number, pairs: Iterable<readonly [number, string]>): void {
    const { complete, version } = this.#stmt.state.get() as { complete: number; version: number };
    if (complete !== 1) {
      this.#ahead = undefined;
      return;
    }
    if (this.#ahead?.version !== version)
      this.#ahead = { filter: this.#newestOnly(), version, batches: new Set() };
    const ahead = this.#ahead;
    // A batch id names one batch only while the row lives: a new row may take the id of one unjournaled.
    ahead.batches.delete(batch);
    try {
      this.#addAll(ahead.filter, pairs);
    } catch (error) {
      this.#ahead = undefined;
      throw error;
    }
    ahead.batches.add(batch);
  }

  /**
   * Forgets the copy `addAhead` keeps: for a caller whose transaction around `addAhead` failed after it returned
   * (its log rows rolled back, the copy's bits not): the merge then reads those batches' keys back and logs them.
   */
  forgetAhead(): void {
    this.#ahead = undefined;
  }

  /**
   * The filter with only its newest segment's bits read: to add to, never to look up in. A full newest segment (a
   * compacted one: 9.6 MiB at 5M keys) is not read either: the first key added opens a new one.
   */
  #newestOnly(): KeyFilter {
    const stored = this.#stmt.segments.all() as StoredSegment[];
    const segments = stored.map(([, pages, keys, sealed]) => newSegment(pages, keys, true, sealed === 1));
    const newest = segments.at(-1);
    if (newest && !isFull(newest)) {
      segments[segments.length - 1] = newSegment(newest.pages, newest.keys);
      const filter = new KeyFilter(segments);
      this.#read(filter, this.#stmt.pagesOf.all(stored.length - 1) as Page[]);
      return filter;
    }
    return new KeyFilter(segments);
  }

  /** Adds the pairs to `filter`, writing its hashes to the log a row at a time (in the caller's transaction). */
  #addAll(filter: KeyFilter, pairs: Iterable<readonly [number, string, ...unknown[]]>): void {
    for (const [target, key] of pairs) {
      filter.add(target, key);
      if (filter.unlogged >= logRowPairs) this.#log(filter);
    }
  }

  /** The hashes `filter` has not handed out yet, as one log row. */
  #log(filter: KeyFilter): void {
    const pairs = filter.unlogged;
    if (pairs > 0) this.#stmt.writeLog.run(pairs, wordBytes(filter.takeLog()));
  }

  /**
   * Replaces every segment by one sized for the log's keys and built from it, in the caller's write transaction,
   * once `compactAt` segments are full; false when it did not. A log that holds fewer pairs than the segments hold
   * keys is not used: a coarse check against a log that lost rows (a hand edit, a damaged copy), not a proof, as a
   * key may be logged twice (its batch's copy dropped after a row of it was logged, a record delivered again).
   */
  compactIfDue(): boolean {
    const stored = this.#stmt.segments.all() as StoredSegment[];
    const segments = stored.map(([, pages, keys, sealed]) => newSegment(pages, keys, true, sealed === 1));
    if (segments.filter(isFull).length < compactAt) return false;
    const state = this.#stmt.state.get() as { complete: number; version: number };
    if (state.complete !== 1) return false;
    const keys = this.#stmt.logPairs.get() as number;
    if (keys < segments.reduce((sum, segment) => sum + segment.keys, 0)) return false;
    const pages = compactedPages(keys);
    this.#stmt.clearPages.run();
    this.#stmt.clearSegments.run();
    const next = state.version + 1;
    // A step's pages at a time, each step reading the whole log: the writer holds 2 MiB up to ~5.6M keys, and a
    // quarter of the segment above (four reads of the log).
    const step = Math.max(maxPages, Math.ceil(pages / 4));
    const words = new Uint32Array(Math.min(step, pages) * wordsPerPage);
    const bytes = Buffer.allocUnsafe(pageBytes);
    for (let first = 0; first < pages; first += step) {
      const count = Math.min(step, pages - first);
      const part = words.subarray(0, count * wordsPerPage);
      part.fill(0);
      for (const log of this.#logRows()) fillPages(log, pages, first, part);
      for (let page = 0; page < count; page++)
        this.#stmt.writePage.run(0, first + page, next, pageOf(part, page, bytes));
    }
    this.#stmt.writeSegment.run(0, pages, keys, 1);
    this.#stmt.setVersion.run(next);
    this.#ahead = undefined;
    this.release();
    return true;
  }

  /**
   * The log's rows, one at a time, as words. Each is a new Buffer (better-sqlite3 copies a blob out): the writer
   * thread allocates little else meanwhile, and V8 let 40 MB of them (a pass over 5M keys' log) wait for a
   * collection; one every `collectEveryBytes` read keeps them to that (a compaction at the end of a 1M push peaked
   * 3-5 MiB higher with one every 4 MiB).
   */
  *#logRows(): Generator<Uint32Array> {
    let read = 0;
    for (let row = this.#stmt.logAfter.get(0) as [number, Buffer] | undefined; row; ) {
      yield bytesWords(row[1]);
      read += row[1].byteLength;
      if (read >= collectEveryBytes) {
        read = 0;
        collectGarbage();
      }
      row = this.#stmt.logAfter.get(row[0]) as [number, Buffer] | undefined;
    }
  }

  /**
   * Builds the filter from every key of the records table and marks it complete, in the caller's write
   * transaction; nothing when it is complete already (another opener built it meanwhile).
   */
  rebuild(): void {
    if (this.isComplete()) return;
    this.#stmt.clearPages.run();
    this.#stmt.clearSegments.run();
    this.#stmt.clearLog.run();
    const filter = new KeyFilter();
    type Row = [number, string, Buffer];
    const first: Row = [0, '', Buffer.alloc(0)];
    const rows = paged((after: Row = first) => this.#stmt.recordKeys.all(after[0], after[2]) as Row[]);
    this.#addAll(filter, rows);
    this.#write(filter, (this.#stmt.state.get() as { version: number }).version);
    this.#stmt.setComplete.run(1);
    this.compactIfDue();
    this.release();
  }

  #read(filter: KeyFilter, pages: readonly Page[]): void {
    for (const [segment, page] of pages) {
      filter.setPage(segment, page, this.#stmt.pageBits.get(segment, page) as Buffer);
    }
  }

  /** Drops the copy held in memory; the next `current` reads the whole filter again. */
  release(): void {
    this.#filter = undefined;
    this.#version = -1;
  }

  /** Writes the pages `filter` changed and its segments, and bumps the file's `version`. */
  #write(filter: KeyFilter, version: number): void {
    const next = version + 1;
    this.#log(filter);
    // One page's bytes for every page written (SQLite copies what is bound): a new Buffer a page was the newest
    // segment's size again (4 MiB at 3-5M keys), for the writer thread's next collection to free (issue 23).
    const bytes = Buffer.allocUnsafe(pageBytes);
    for (const [segment, page] of filter.takeDirty()) {
      this.#stmt.writePage.run(segment, page, next, filter.page(segment, page, bytes));
    }
    filter.segments.forEach((segment, index) => {
      this.#stmt.writeSegment.run(index, segment.pages, segment.keys, segment.sealed ? 1 : 0);
    });
    this.#stmt.setVersion.run(next);
  }
}
