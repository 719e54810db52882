// The local delivery ledger (better-sqlite3): which record keys each target has been sent, so
// re-runs skip what was delivered and resend what a crash or a server failure left outstanding.
// Every write is one transaction; lists go to SQLite as one JSON parameter per chunk (json_each).

import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../errors.js';
import type { RunReport } from '../report/run-report.js';
import { automaticAssignment, chosenTargets, survivorOf, unresolvedTargetsError } from './accounts.js';
import {
  type DeliveredRow,
  type DeliveredValues,
  type DeliveredValuesOptions,
  sampleDelivered,
  withProbed,
} from './delivered-values.js';
import { journalText, packJournal } from './journal-entries.js';
import type { KeyFilter } from './key-filter.js';
import { KeyFilterStore } from './key-filter-store.js';
import type { LedgerStore } from './ledger-store.js';
import { isAlive } from './lock.js';
import { migrate, requireCurrent } from './migrations.js';
import { paged, prepareAll, retain } from './native.js';
import { sql } from './statements.js';
import type { Target } from './target.js';
import type {
  AccountRow,
  AssignResult,
  BeginRunInput,
  DeliveredAmount,
  DeliveredSpan,
  FinishRunInput,
  JournalBody,
  JournalEntries,
  LedgerEntry,
  MarkPendingOptions,
  OutstandingRecord,
  PendingEntry,
  RawSpan,
  RecordState,
  ReportedIn,
  RunCommand,
  RunRow,
  SpanLookup,
  StateCounts,
} from './types.js';

export interface OpenLedgerOptions {
  /** Clock in epoch ms for first_seen/updated_at and run times. Default: Date.now. */
  readonly now?: () => number;
  /**
   * Opened without holding the run lock (to note a refused run in history): no migration and no merge,
   * since another run owns the file. A ledger of another schema version is then a ConfigError.
   */
  readonly withoutLock?: boolean;
  /** Called before each write: throws once the run lost its lock (lease.ts `leaseGuard`), so the run stops. */
  readonly guard?: () => void;
  /** The connection's page cache, KiB (default `lookupCacheKiB`); a writer that never looks up needs less. */
  readonly cacheKiB?: number;
}

/**
 * The page cache of a connection that looks keys up: it holds the hot tables and most of the records B-tree's
 * interior pages (~5 MiB at 5M records). See openLedger.
 */
export const lookupCacheKiB = 4096;
/**
 * The page cache of the run's writer thread (ledger-worker.ts): it appends journal rows, settles them and merges,
 * in key order. SQLite's sorter takes its run size from the cache size (2 MiB at least, on 8 KiB pages), one run
 * per sorting thread: a 1M-entry merge peaked 4 MiB above its start against 8 with 4 MiB, in the same time
 * (2.1-2.2 s against 2.0-2.3; bench/README.md, "Session 22").
 */
export const writerCacheKiB = 2048;

/** Keys per statement. The JSON parameter's size, not SQLite's variable limit, is what this bounds. */
const chunkSize = 500;

/**
 * Staged (delivered, unmerged) rows that trigger a merge into records. A sorted merge of n random keys
 * writes each records page it touches once, so bigger merges cost fewer page writes per record; staged
 * and its key index must stay small enough to live in the page cache (a few MiB at 50,000 rows).
 */
const mergeThreshold = 50_000;

/**
 * Delivered records in the batch journal that trigger a merge into records (issue 14). A sorted merge
 * writes each records page it touches once, so the larger the step, the fewer page writes per record,
 * and the less a big ledger costs: measured in bench/README.md ("merge size"). Between merges the
 * journal holds only keys, hashes and amounts (~80 bytes a record, on disk): bodies are dropped on delivery.
 */
const journalMergeThreshold = 1_000_000;

type Statements = { [name in keyof typeof sql]: Database.Statement };

/** A row of the lookup statements: the key's position in its chunk, state, content hash, amount JSON. */
type LookupRow = [number, RecordState, string, string | null];

/** A row of the runs table as SQLite returns it (also read by copy-ledger.ts). */
export interface RunDbRow {
  id: number;
  command: RunCommand;
  files: string;
  started_at: number;
  finished_at: number | null;
  counts: string | null;
  exit_code: number | null;
  duration_ms: number | null;
  pid: number;
  /** Since schema 4. */
  target_id?: number | null;
  key_fingerprint?: string | null;
  /** Since schema 6: the run's report (report/run-report.ts), JSON. */
  report?: string | null;
}

/** An open ledger. Not safe to share across processes without `acquireLock` (one run at a time). */
export class Ledger implements LedgerStore {
  readonly path: string;
  /** The file, for messages (LedgerStore). */
  readonly location: string;
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #stmt: Statements;
  /** Delivered, unmerged records in the journal (counted from the file at open, then kept here). */
  #journalSettled: number;
  /** Merges this connection made: the writer's thread collects its garbage after a call that made one. */
  #merges = 0;
  /** Opened without the run lock: never merges (another run, or this run's writer, owns the file). */
  readonly #withoutLock: boolean;
  readonly #guard: () => void;
  /** Every key of records is in it (key-filter-store.ts): lookups skip the records probe of the rest. */
  readonly #filter: KeyFilterStore;
  /** `lookup`'s chunks in one read transaction, the one its key filter is read in. */
  readonly #lookupAll: (targetId: number, keys: readonly string[]) => Map<string, LedgerEntry>;
  /** `lookupSpan` in one read transaction: the span's row and the hot tables seen in one state of the file. */
  readonly #lookupSpanAll: (targetId: number, keys: readonly string[], digest: string) => SpanLookup;
  /** `lookupRawSpan` in one read transaction, as #lookupSpanAll. */
  readonly #lookupRawSpanAll: (targetId: number, digest: string) => RawSpan | undefined;

  constructor(db: Database.Database, now: () => number, withoutLock = false, guard: () => void = () => {}) {
    this.#withoutLock = withoutLock;
    this.#guard = guard;
    this.#db = db;
    this.#now = now;
    this.path = db.name;
    this.location = db.name;
    this.#stmt = prepareAll(db, sql);
    // Rows as arrays: no per-row object for the hot lookup.
    this.#stmt.lookupRecords.raw(true);
    this.#stmt.lookupHot.raw(true);
    this.#stmt.stagedKeys.raw(true);
    this.#stmt.journalKeys.raw(true);
    this.#stmt.targetKeys.raw(true);
    this.#stmt.outstanding.raw(true);
    this.#stmt.knownProblems.raw(true);
    this.#journalSettled = (this.#stmt.journalSettled.get() as { n: number }).n;
    this.#filter = new KeyFilterStore(db);
    // A read transaction: the filter and the probes see the same file, so a key another connection merges
    // into records between them cannot fall between the two.
    this.#lookupAll = db.transaction((targetId: number, keys: readonly string[]) =>
      this.#lookupIn(targetId, keys),
    );
    this.#lookupSpanAll = db.transaction((targetId: number, keys: readonly string[], digest: string) =>
      this.#lookupSpanIn(targetId, keys, digest),
    );
    this.#lookupRawSpanAll = db.transaction((targetId: number, digest: string) =>
      this.#lookupRawSpanIn(targetId, digest),
    );
  }

  /** Upserts the target (LedgerStore.target); a URL with unresolved targets stops the run. */
  target(target: Target): number {
    this.#guard();
    if ((this.#stmt.unresolvedAny.get(target.baseUrl) as { any: number }).any === 1) {
      const rows = this.accounts();
      const auto = automaticAssignment(rows, target.baseUrl);
      if (!auto) throw unresolvedTargetsError(target.baseUrl, rows);
      this.assign(target.baseUrl, auto.fingerprints, auto.account);
    }
    const row = this.#stmt.target.get(target.baseUrl, target.account, this.#now()) as { id: number };
    return row.id;
  }

  accounts(): AccountRow[] {
    type Row = {
      id: number;
      base_url: string;
      account: string | null;
      key_fingerprint: string | null;
      delivered: number;
      outstanding: number;
      last_used: number;
    };
    return (this.#stmt.accounts.all() as Row[]).map((row) => ({
      id: row.id,
      baseUrl: row.base_url,
      account: row.account,
      keyFingerprint: row.key_fingerprint,
      delivered: row.delivered,
      outstanding: row.outstanding,
      lastUsed: row.last_used === 0 ? null : row.last_used,
    }));
  }

  /** LedgerStore.assign: in one transaction, after folding what is staged into records. */
  assign(baseUrl: string, fingerprints: readonly string[], account: string): AssignResult {
    this.#guard();
    this.merge();
    return this.#db
      .transaction((): AssignResult => {
        const rows = this.accounts();
        const chosen = chosenTargets(rows, baseUrl, fingerprints);
        const existing = rows.find((row) => row.baseUrl === baseUrl && row.account === account);
        const into = survivorOf(chosen, existing).id;
        if (!existing) this.#stmt.nameTarget.run({ id: into, account });
        const merged = chosen.filter((row) => row.id !== into);
        for (const { id: from } of merged) this.#mergeTarget(from, into);
        return { targetId: into, merged: merged.length };
      })
      .immediate();
  }

  /** Moves every row of target `from` into `into`, then drops `from` (see `assign`). */
  #mergeTarget(from: number, into: number): void {
    const params = { from, into };
    // Unanswered batches of both become per-record rows, so that what one delivered is not resent by the
    // other's batch (a batch can only be resent whole).
    for (const target of [from, into]) {
      const batches = this.#stmt.pendingBatchesOf.all({ from: target }) as { id: number }[];
      for (const { id } of batches) this.unjournal(id);
    }
    this.#stmt.dropDeliveredInflight.run(params);
    this.#stmt.dropDeliveredInflight.run({ from: into, into: from });
    this.#filter.add(this.#movedKeys(from, into));
    this.#stmt.moveRecords.run(params);
    this.#stmt.dropRecords.run({ from });
    this.#stmt.dropDeliveredInflight.run(params);
    this.#stmt.moveInflight.run(params);
    this.#stmt.dropInflightOf.run({ from });
    this.#stmt.moveStaged.run(params);
    this.#stmt.moveBatches.run(params);
    this.#stmt.moveRuns.run(params);
    this.#stmt.moveKnownProblems.run(params);
    this.#stmt.dropKnownProblems.run({ from });
    this.#stmt.dropTarget.run({ from });
  }

  beginRun(input: BeginRunInput): number {
    this.#guard();
    const { command, files, startedAt = this.#now(), pid = process.pid } = input;
    const { targetId = null, keyFingerprint = null } = input;
    return Number(
      this.#stmt.beginRun.run(command, JSON.stringify(files), startedAt, pid, targetId, keyFingerprint)
        .lastInsertRowid,
    );
  }

  /** Records the run's outcome, and merges what it delivered into the records table. */
  finishRun(runId: number, input: FinishRunInput): void {
    this.#guard();
    const { counts, exitCode, durationMs, finishedAt = this.#now(), reported } = input;
    this.#db
      .transaction(() => {
        this.#stmt.finishRun.run(JSON.stringify(counts), exitCode, durationMs, finishedAt, runId);
        if (!reported) return;
        for (let start = 0; start < reported.fingerprints.length; start += chunkSize) {
          const fingerprints = JSON.stringify(reported.fingerprints.slice(start, start + chunkSize));
          this.#stmt.rememberProblems.run({
            target: reported.targetId,
            run: runId,
            now: finishedAt,
            fingerprints,
          });
        }
      })
      .immediate();
    this.merge();
  }

  knownProblems(targetId: number): Map<string, ReportedIn> {
    const known = new Map<string, ReportedIn>();
    const rows = this.#stmt.knownProblems.all(targetId) as [string, number, number][];
    for (const [fingerprint, runId, at] of rows) known.set(fingerprint, { runId, at });
    return known;
  }

  /**
   * A run that ended without holding the ledger (another run held it): recorded already finished, and
   * without `finishRun`'s merge, which belongs to the run holding the ledger.
   */
  recordRun(input: BeginRunInput & FinishRunInput): number {
    const runId = this.beginRun(input);
    const { counts, exitCode, durationMs, finishedAt = this.#now() } = input;
    this.#stmt.finishRun.run(JSON.stringify(counts), exitCode, durationMs, finishedAt, runId);
    return runId;
  }

  /** Newest first. */
  history(options: { limit: number }): RunRow[] {
    return (this.#stmt.history.all(options.limit) as RunDbRow[]).map((row) => ({
      id: row.id,
      command: row.command,
      files: JSON.parse(row.files) as string[],
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      counts: row.counts === null ? null : (JSON.parse(row.counts) as Record<string, number>),
      exitCode: row.exit_code,
      durationMs: row.duration_ms,
      pid: row.pid,
      keyFingerprint: row.key_fingerprint ?? null,
    }));
  }

  saveRunReport(runId: number, report: RunReport): void {
    this.#guard();
    this.#stmt.saveRunReport.run(JSON.stringify(report), runId);
  }

  runReport(runId: number): RunReport | null {
    const row = this.#stmt.runReport.get(runId) as { report: string | null } | undefined;
    return row?.report ? (JSON.parse(row.report) as RunReport) : null;
  }

  targetReports(targetId: number, limit: number): RunReport[] {
    const rows = this.#stmt.targetReports.all(targetId, limit) as { report: string }[];
    return rows.map((row) => JSON.parse(row.report) as RunReport);
  }

  /** What the ledger knows of `keys` for this target; unknown keys are absent from the map. */
  lookup(targetId: number, keys: readonly string[]): Map<string, LedgerEntry> {
    return this.#lookupAll(targetId, keys);
  }

  /** LedgerPort.lookupsBegin: the key filter's copy is kept as the next lookup reads it (KeyFilterStore.hold). */
  lookupsBegin(): void {
    this.#filter.hold(true);
  }

  /**
   * LedgerPort.lookupsDone: the key filter's copy (9.7 MiB at 5M records) and the connection's page cache are
   * dropped; a later lookup reads them again.
   */
  lookupsDone(): void {
    this.#filter.hold(false);
    this.#filter.release();
    this.#db.pragma('shrink_memory');
  }

  /** LedgerPort.lookupSpan: the span's one row, then the hot tables only; or the keys' lookup. */
  lookupSpan(targetId: number, keys: readonly string[], digest: string): SpanLookup {
    return this.#lookupSpanAll(targetId, keys, digest);
  }

  #lookupSpanIn(targetId: number, keys: readonly string[], digest: string): SpanLookup {
    const span = this.#stmt.spanKnown.get({ target: targetId, digest }) as { records: number } | undefined;
    if (span?.records !== keys.length) return { delivered: false, entries: this.#lookupIn(targetId, keys) };
    const entries = new Map<string, LedgerEntry>();
    if (this.#hotAny()) this.#readHot(entries, targetId, keys);
    return { delivered: true, entries };
  }

  /** LedgerPort.rawSpanDigests. */
  rawSpanDigests(targetId: number): string[] {
    return this.#stmt.rawSpanDigests.pluck().all(targetId) as string[];
  }

  /** LedgerPort.lookupRawSpan: the span's row, unless a hot table names a key of it (then a row-by-row check). */
  lookupRawSpan(targetId: number, digest: string): RawSpan | undefined {
    return this.#lookupRawSpanAll(targetId, digest);
  }

  #lookupRawSpanIn(targetId: number, digest: string): RawSpan | undefined {
    const span = this.#stmt.rawSpanKnown.get({ target: targetId, digest }) as
      | Omit<RawSpan, 'digest'>
      | undefined;
    if (span === undefined) return undefined;
    if (this.#hotAny()) {
      const keys = (JSON.parse(span.ids) as string[]).map((id) => `id:${id}`);
      const hot = new Map<string, LedgerEntry>();
      this.#readHot(hot, targetId, keys);
      if (hot.size > 0) return undefined;
    }
    return { digest, ...span };
  }

  /** Whether any hot table (pending, failed, staged) holds a row: else their lookup is skipped. */
  #hotAny(): boolean {
    return (this.#stmt.hotAny.get() as { any: number }).any === 1;
  }

  /** The keys' rows in the hot tables into `found`, a chunk of keys a statement; a hotter state wins. */
  #readHot(found: Map<string, LedgerEntry>, targetId: number, keys: readonly string[]): void {
    for (let start = 0; start < keys.length; start += chunkSize) {
      const chunk = keys.slice(start, start + chunkSize);
      readRows(found, chunk, this.#stmt.lookupHot.all(params(targetId, chunk)));
    }
  }

  /**
   * LedgerPort.noteSpans: merges first, so that every record the spans name is in records (a span noted
   * before its records were merged would be dropped by nothing if the merge then failed), then notes them.
   */
  noteSpans(targetId: number, spans: readonly DeliveredSpan[]): number {
    this.#guard();
    this.merge();
    return this.#db
      .transaction(() => {
        let noted = 0;
        for (const { digest, records } of spans)
          noted += this.#stmt.noteSpan.run({ target: targetId, digest, records }).changes;
        return noted;
      })
      .immediate();
  }

  /**
   * LedgerPort.noteRawSpans, during the run (pipeline/raw-spans.ts), without merging first: a span is noted once
   * every record of it was delivered before (in records) or its delivery was recorded by this run (journaled or
   * staged, merged later), and lookupRawSpan answers none while a hot table names a key of it. A run that ends
   * before its merge leaves the journal to the next run's start, which merges it before any lookup.
   */
  noteRawSpans(targetId: number, spans: readonly RawSpan[]): number {
    this.#guard();
    return this.#db
      .transaction(() => {
        let noted = 0;
        for (const { digest, records, ids, body } of spans)
          noted += this.#stmt.noteRawSpan.run({ target: targetId, digest, records, ids, body }).changes;
        return noted;
      })
      .immediate();
  }

  #lookupIn(targetId: number, keys: readonly string[]): Map<string, LedgerEntry> {
    const found = new Map<string, LedgerEntry>();
    const filter = this.#filter.current();
    // Rows come cold to hot (statements.ts): a key's hotter state overwrites its colder one, so the records
    // table is read first. A row names its key by its position in the chunk.
    for (let start = 0; start < keys.length; start += chunkSize) {
      const chunk = keys.slice(start, start + chunkSize);
      const probed = filter ? maybeIn(filter, targetId, chunk) : chunk;
      if (probed.length > 0) readRows(found, probed, this.#stmt.lookupRecords.all(params(targetId, probed)));
    }
    if (this.#hotAny()) this.#readHot(found, targetId, keys);
    return found;
  }

  /**
   * Records `entries` as pending in `runId` (before their batch is sent), replacing any earlier
   * pending/failed/rejected state, hash and payload. A `delivered` key is left as is unless
   * `resend` is set, so a caller that skipped its lookup still cannot queue a duplicate.
   * Returns how many entries were marked.
   */
  markPending(
    targetId: number,
    runId: number,
    entries: readonly PendingEntry[],
    options: MarkPendingOptions = {},
  ): number {
    this.#guard();
    const resend = options.resend === true ? 1 : 0;
    // The pending mark must reach the disk before the request goes out: after a power loss the ledger
    // must still know the batch was in flight, so it is resent as the same body under the same key
    // rather than rebuilt from the file (where another batching would give it a new key). So this
    // commit alone is synchronous=FULL (an fsync of the WAL, which also covers earlier NORMAL commits).
    this.#stmt.syncFull.run();
    try {
      return this.#inChunks(entries, (chunk, now) => {
        const first = this.#reserveSeq(chunk.length);
        const rows = chunk.map((e) => [e.key, e.contentHash, e.payload, e.idempotencyKey]);
        const params = {
          target: targetId,
          run: runId,
          seq: first,
          now,
          entries: JSON.stringify(rows),
          resend,
        };
        return this.#stmt.markPending.run(params).changes;
      });
    } finally {
      this.#stmt.syncNormal.run();
    }
  }

  /**
   * The server accepted these keys in the batch sent with `idempotencyKey`; drops their payloads.
   * The records are staged (appended) and merged into the records table in bulk, sorted, once
   * enough are staged: see `merge`.
   */
  markDelivered(targetId: number, keys: readonly string[], idempotencyKey: string): number {
    const changed = this.#inChunks(keys, (chunk, now) => {
      const params = { target: targetId, keys: JSON.stringify(chunk), idempotencyKey, now };
      let staged = this.#stmt.stageInflight.run(params).changes;
      if (staged < chunk.length) staged += this.#stmt.stageSettled.run(params).changes;
      this.#stmt.unflight.run({ target: targetId, keys: params.keys });
      return staged;
    });
    if ((this.#stmt.stagedSpan.get() as { n: number }).n >= mergeThreshold) this.merge();
    return changed;
  }

  /**
   * Journals one batch about to be sent (issue 14): one row with its records' keys, hashes and amounts
   * in body order, and the body itself, under `idempotencyKey`. Committed with synchronous=FULL, as
   * markPending is, for the same reason: after a power loss the ledger must still know the batch was in
   * flight, to resend the same body under the same key. No per-record read and no guard: the caller has
   * looked every key up already (the pipeline's only read per record). Returns the row's id.
   */
  journalBatch(
    targetId: number,
    runId: number,
    idempotencyKey: string,
    entries: JournalEntries,
    body: JournalBody,
  ): number {
    return this.journalPacked(targetId, runId, idempotencyKey, entries.length, packJournal(entries), body);
  }

  /** journalBatch with the entries already packed (`packJournal`): one buffer (or string) crosses to a worker. */
  journalPacked(
    targetId: number,
    runId: number,
    idempotencyKey: string,
    size: number,
    keys: JournalBody,
    body: JournalBody,
  ): number {
    this.#guard();
    this.#stmt.syncFull.run();
    let id: number;
    try {
      id = this.#db
        .transaction(() => {
          const params = {
            target: targetId,
            run: runId,
            seq: this.#reserveSeq(size),
            size,
            idempotencyKey,
            keys,
            now: this.#now(),
          };
          const id = Number(this.#stmt.journalBatch.run(params).lastInsertRowid);
          this.#stmt.journalBody.run(id, body);
          return id;
        })
        .immediate();
    } finally {
      this.#stmt.syncNormal.run();
    }
    this.#addAhead(targetId, id, keys);
    return id;
  }

  /**
   * The committed batch's keys into the key filter's copy that its merge writes (KeyFilterStore.addAhead): the
   * writer hashes them while the run reads, and the merge reads back only what was not added so. Never fails the
   * journal, which is committed: without the copy the merge reads the keys back. A read transaction that writes
   * once a log row's worth of hashes waits (one batch in ~128): an immediate one for every batch cost the journal
   * 2-6 % (1M keys journaled in 512s). Its write fails at once if another connection wrote meanwhile (SQLite does
   * not wait to turn a read into a write): the copy is then dropped, and the merge reads its batches back.
   */
  #addAhead(targetId: number, batchId: number, keys: JournalBody): void {
    try {
      const entries = JSON.parse(journalText(keys)) as unknown[][];
      this.#guard();
      this.#db.transaction(() => this.#filter.addAhead(batchId, targetKeys(targetId, entries)))();
    } catch {
      // The merge reads this batch's keys back. A copy whose log rows were rolled back (the commit failed) would
      // write bits the log lacks, and a compaction would lose them: it is dropped whatever failed.
      this.#filter.forgetAhead();
    }
  }

  /**
   * The server accepted the whole journaled batch `batchId`: the row turns delivered and its body is
   * dropped. Its records reach the records table at the next merge, which runs by itself once
   * `journalMergeThreshold` records are settled. Returns how many records were settled (0 if the row
   * was not pending).
   */
  settleBatch(batchId: number): number {
    this.#guard();
    const size = this.#db
      .transaction(() => {
        const row = this.#stmt.settleBatch.get({ id: batchId, now: this.#now() }) as
          | { size: number }
          | undefined;
        if (!row) return 0;
        this.#stmt.dropBody.run(batchId);
        return row.size;
      })
      .immediate();
    this.#journalSettled += size;
    if (this.#journalSettled >= journalMergeThreshold) this.merge();
    return size;
  }

  /**
   * Moves the pending journal row `batchId` into the per-record table (inflight: pending, same
   * Idempotency-Key, same run), for an outcome that is not the whole batch delivered: a rejection, a
   * failure, a split body, a partial delivery. markRejected, markFailed and markDelivered then apply as
   * they always did. Returns how many records moved (0 if the row is not pending).
   */
  unjournal(batchId: number): number {
    this.#guard();
    type Row = {
      target_id: number;
      run_id: number;
      idempotency_key: string;
      keys: string;
      body: string | null;
    };
    return this.#db
      .transaction(() => {
        const row = this.#stmt.journalRow.get(batchId) as Row | undefined;
        if (!row || row.body === null) return 0;
        const keys = JSON.parse(row.keys) as [string, string, string, number][];
        const records = JSON.parse(row.body) as unknown[];
        const entries = keys.map(([key, contentHash], n) => [
          key,
          contentHash,
          JSON.stringify(records[n]),
          row.idempotency_key,
        ]);
        const params = {
          target: row.target_id,
          run: row.run_id,
          seq: this.#reserveSeq(entries.length),
          now: this.#now(),
          entries: JSON.stringify(entries),
          // The journal row was these keys' newest state: no guard against their older states.
          resend: 1,
        };
        const moved = this.#stmt.markPending.run(params).changes;
        this.#stmt.dropBatch.run(batchId);
        this.#stmt.dropBody.run(batchId);
        return moved;
      })
      .immediate();
  }

  /**
   * A delivered key now stands at other content and amount: its refund was delivered as an adjustment
   * record (refunds: adjust), so the next export of the same order is no change. Returns rows changed.
   */
  reprice(targetId: number, key: string, contentHash: string, amount: DeliveredAmount): number {
    this.#guard();
    const params = {
      target: targetId,
      key: JSON.stringify(key),
      hash: contentHash,
      amount: JSON.stringify([amount.currency, amount.value]),
      now: this.#now(),
    };
    return this.#db.transaction(
      () => this.#stmt.repriceStaged.run(params).changes + this.#stmt.repriceRecord.run(params).changes,
    )();
  }

  /** The server refused these records; the message is kept for `status`/rejects output. */
  markRejected(targetId: number, entries: readonly { key: string; message: string }[]): number {
    return this.#inChunks(entries, (chunk, now) => {
      // A rejected key may be new to records (from inflight or staged): the filter first (key-filter-store.ts).
      this.#filter.add(chunk.map(({ key }) => [targetId, key] as const));
      let changed = 0;
      for (const { key, message } of chunk) {
        // The key as JSON, as the ledger's statements take keys (statements.ts boundKey).
        const params = { target: targetId, key: JSON.stringify(key), message, now };
        const moved =
          this.#stmt.rejectInflight.run(params).changes ||
          this.#stmt.rejectStaged.run(params).changes ||
          this.#stmt.rejectRecord.run(params).changes;
        if (moved > 0) {
          this.#stmt.dropInflight.run({ target: targetId, key: params.key });
          this.#stmt.dropStaged.run({ target: targetId, key: params.key });
        }
        changed += moved;
      }
      return changed;
    });
  }

  /** The batch holding these keys could not be delivered; a delivered key is never downgraded. */
  markFailed(targetId: number, keys: readonly string[], reason: string): number {
    return this.#inChunks(keys, (chunk, now) => {
      const params = { target: targetId, keys: JSON.stringify(chunk), reason, now };
      let changed = this.#stmt.failInflight.run(params).changes;
      if (changed < chunk.length) {
        changed += this.#stmt.failRejected.run({ ...params, seq: this.#reserveSeq(chunk.length) }).changes;
      }
      return changed;
    });
  }

  /**
   * Records to resend: every `failed` one, and `pending` ones left by other runs (crashed or
   * stopped mid-batch). Records sharing an idempotency key come out adjacent and in the order
   * they were marked, so the caller can rebuild the same body under the same key. An array:
   * the set is bounded by what was in flight or failed, and the caller writes to the ledger
   * while walking it (better-sqlite3 forbids writes during an open iterator).
   */
  outstanding(targetId: number, currentRunId: number): OutstandingRecord[] {
    type Row = [string, string, string, string, 'pending' | 'failed', number];
    const params = { target: targetId, run: currentRunId };
    const rows = this.#stmt.outstanding.all(params) as Row[];
    // Groups (records sharing a key, or a journal row) in the order of their first seq.
    const groups: { seq: number; records: OutstandingRecord[] }[] = [];
    let last: string | undefined;
    for (const [key, contentHash, payload, idempotencyKey, state, seq] of rows) {
      if (groups.length === 0 || idempotencyKey !== last) groups.push({ seq, records: [] });
      last = idempotencyKey;
      groups.at(-1)!.records.push({ key, contentHash, payload, idempotencyKey, state });
    }
    type JournalRow = { id: number; seq: number; idempotency_key: string; keys: string; body: string };
    for (const row of this.#stmt.journalOutstanding.all(params) as JournalRow[]) {
      const keys = JSON.parse(row.keys) as [string, string][];
      const records = JSON.parse(row.body) as unknown[];
      groups.push({
        seq: row.seq,
        records: keys.map(([key, contentHash], n) => ({
          key,
          contentHash,
          payload: JSON.stringify(records[n]),
          idempotencyKey: row.idempotency_key,
          state: 'pending' as const,
          batchId: row.id,
        })),
      });
    }
    return groups.sort((a, b) => a.seq - b.seq).flatMap((group) => group.records);
  }

  hasRecords(targetId: number): boolean {
    return (this.#stmt.hasRecords.get({ target: targetId }) as { any: number }).any === 1;
  }

  /** Records per state for this target (zero for absent states). Scans the target's rows. */
  counts(targetId: number): StateCounts {
    const counts: StateCounts = { pending: 0, delivered: 0, rejected: 0, failed: 0 };
    const params = { target: targetId };
    type Row = { state: RecordState; n: number };
    for (const row of this.#stmt.countRecords.all(params) as Row[]) counts[row.state] += row.n;
    for (const row of this.#stmt.countShadowed.all(params) as Row[]) counts[row.state] -= row.n;
    counts.delivered += (this.#stmt.countStaged.get(params) as { n: number }).n;
    for (const row of this.#stmt.countJournal.all(params) as Row[]) counts[row.state] += row.n;
    for (const row of this.#stmt.countJournalShadowed.all(params) as Row[]) counts[row.state] -= row.n;
    for (const row of this.#stmt.countInflight.all(params) as Row[]) counts[row.state] += row.n;
    return counts;
  }

  /**
   * The values delivered to this target, per currency, for the value guard (issue 25): at most `limit`
   * records, the first in key order (a range read of its (target, key) index: 20,000 of 1M records in ~40 ms), and
   * for each of `currencies` the sample lacks, up to `limit` records of it (a scan of the target's records
   * when it has none, ~0.3 s per 1M: only a run bringing a currency the sample lacks pays it).
   */
  deliveredValues(targetId: number, options: DeliveredValuesOptions): DeliveredValues {
    const read = (currency: string | null) => {
      // amount is written by JSON.stringify or json_array: `["USD",232.81]`, no spaces.
      const prefix = currency === null ? null : `["${currency}",%`;
      const params = { target: targetId, currency, prefix, limit: options.limit };
      return [
        this.#stmt.deliveredRecords.raw().all(params) as DeliveredRow[],
        this.#stmt.deliveredStaged.raw().all(params) as DeliveredRow[],
        this.#stmt.deliveredJournal.raw().all(params) as DeliveredRow[],
      ];
    };
    const sample = sampleDelivered(read(null), options.limit);
    const lacking = (options.currencies ?? []).filter((currency) => !(currency in sample.values));
    const probed = lacking.map((c) => [c, sampleDelivered(read(c), options.limit).values[c] ?? []]);
    return withProbed(sample, Object.fromEntries(probed));
  }

  /**
   * Moves every staged (delivered) record into the records table, sorted by key, in one
   * transaction: a crash leaves either all of them staged or all merged. Runs by itself when
   * enough are staged, in `finishRun` and `close`, and at open for what a crashed run staged.
   * Returns how many staged rows were merged.
   */
  merge(): number {
    if (!this.#mergeable()) return 0;
    this.#guard();
    const merged = this.#db
      .transaction(() => {
        this.#filter.addMerging((ahead) => this.#mergedKeys(ahead));
        let merged = this.#stmt.merge.run().changes;
        this.#stmt.clearStaged.run();
        if ((this.#stmt.inflightAny.get() as { any: number }).any === 1) this.#stmt.unflightJournal.run();
        merged += this.#stmt.mergeJournal.run().changes;
        this.#stmt.clearJournal.run();
        // Last, once the merge's sorter is freed: the compaction's pages are the writer's memory meanwhile.
        this.#filter.compactIfDue();
        return merged;
      })
      .immediate();
    this.#journalSettled = 0;
    this.#merges++;
    return merged;
  }

  /** Merges made on this connection so far (ledger-worker.ts). */
  get merges(): number {
    return this.#merges;
  }

  /**
   * The (target, key) pairs a merge adds to records: staged rows, and delivered journal rows' entries but those of
   * the batches `ahead` (their keys are in the filter's copy already: KeyFilterStore.addAhead).
   */
  *#mergedKeys(ahead: ReadonlySet<number>): Generator<readonly [number, string]> {
    type Row = [number, number, string];
    const staged = paged((after?: Row) => this.#stmt.stagedKeys.all(after?.[0] ?? 0) as Row[]);
    for (const [, target, key] of staged) yield [target, key];
    type JournalRow = [number, number, string | null];
    const skipped = JSON.stringify([...ahead]);
    const journal = paged(
      (after?: JournalRow) => this.#stmt.journalKeys.all(after?.[0] ?? 0, skipped) as JournalRow[],
    );
    for (const [, target, key] of journal) if (key !== null) yield [target, key];
  }

  /** Target `from`'s keys of records as `into`'s (a target's merge), for the key filter. */
  *#movedKeys(from: number, into: number): Generator<readonly [number, string]> {
    type Row = [string, Buffer];
    const rows = paged(
      (after?: Row) => this.#stmt.targetKeys.all({ from, after: after?.[1] ?? Buffer.alloc(0) }) as Row[],
    );
    for (const [key] of rows) yield [into, key];
  }

  /**
   * Builds the key filter of a ledger that holds records from before it had one (migrations.ts v7), once: a
   * scan of the records' keys (~7 s for 5M records). Like `mergeIfIdle`, not while a run of another live
   * process is unfinished (its writes would wait behind the scan).
   */
  buildKeyFilter(): void {
    // Read without loading it: every opener runs this, and the writer's thread never looks up.
    if (this.#filter.isComplete()) return;
    for (const { pid } of this.#stmt.liveRuns.all() as { pid: number }[]) {
      if (pid !== process.pid && isAlive(pid)) return;
    }
    this.#guard();
    this.#db.transaction(() => this.#filter.rebuild()).immediate();
  }

  /** Anything staged, or delivered in the journal, to merge. */
  #mergeable(): boolean {
    return (
      (this.#stmt.stagedAny.get() as { any: number }).any === 1 ||
      (this.#stmt.journalAny.get() as { any: number }).any === 1
    );
  }

  /** Merges what is staged (unless another live run owns it: see `mergeIfIdle`) and closes. */
  close(): void {
    try {
      if (this.#db.open && !this.#withoutLock) this.mergeIfIdle();
    } finally {
      this.#db.close();
    }
  }

  /**
   * `merge`, unless a run of another live process is unfinished: its staged rows are its own to
   * merge, and a reader (`history`) must not take the write lock for seconds under a running push.
   * Leftovers of crashed runs (dead pids) are merged.
   */
  mergeIfIdle(): number {
    if (!this.#mergeable()) return 0;
    for (const { pid } of this.#stmt.liveRuns.all() as { pid: number }[]) {
      if (pid !== process.pid && isAlive(pid)) return 0;
    }
    return this.merge();
  }

  #reserveSeq(count: number): number {
    return (this.#stmt.reserveSeq.get(count, count) as { first: number }).first;
  }

  #inChunks<T>(items: readonly T[], write: (chunk: readonly T[], now: number) => number): number {
    this.#guard();
    const now = this.#now();
    return this.#db
      .transaction(() => {
        let changed = 0;
        for (let start = 0; start < items.length; start += chunkSize) {
          changed += write(items.slice(start, start + chunkSize), now);
        }
        return changed;
      })
      .immediate();
  }
}

/** The page size of a ledger file created from now on, and the WAL size that makes a checkpoint. */
const pageBytes = 8192;
const walCheckpointBytes = 64 * 1024 * 1024;

/**
 * Opens (creating on first use) the ledger at `path`: folder 0700, file 0600, WAL, schema
 * migrated to the current version. `:memory:` is accepted for tests.
 */
export function openLedger(path: string, options: OpenLedgerOptions = {}): Ledger {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // better-sqlite3 would create the file with 0644; create it first with owner-only access.
    // SQLite gives the -wal and -shm files the database file's permissions.
    closeSync(openSync(path, 'a', 0o600));
  }
  const db = retain(new Database(path));
  try {
    // A new file's pages are 8 KiB (an existing one keeps its size: only a VACUUM could change it). A merge
    // rewrites the records pages its keys land on (a WAL write and a checkpoint's write each): 1M new keys
    // merged into 5M records in 4.6-5.6 s against 5.5-7.4 with 4 KiB pages, into an empty ledger in the same
    // 2.3-2.5 s (bench/README.md, "Session 19"). Set before WAL mode, which fixes it.
    db.exec(`PRAGMA page_size = ${pageBytes}`);
    db.exec('PRAGMA journal_mode = WAL');
    // In WAL mode NORMAL syncs at checkpoints, not at every commit: a commit survives a process
    // crash or SIGKILL (it is in the WAL), and power loss can only drop the last commits, never
    // corrupt the file. A lost `delivered` mark means one resend of that batch from `inflight`, same
    // body, same key, so the server deduplicates it. Only markPending commits with FULL (see there).
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('PRAGMA foreign_keys = ON');
    // Readers (history, status) never block in WAL; this covers two writers opening at once.
    db.exec('PRAGMA busy_timeout = 5000');
    // Memory (issues 5, 23: peak RSS <= 150 MiB for a whole push): no mmap, and a 4 MiB page cache.
    // Touched mmap pages count in RSS, and lookups of random keys touch the whole records table
    // (~100 MiB per 1M records): with 1 GiB of mmap a re-run of 1M rows peaked at 320 MiB (8.8 s),
    // without it at 157 MiB (10.3 s): the cold pages are read() from the OS page cache, outside the
    // process, for a syscall per page. The page cache size made no measurable difference to lookups or
    // writes between 2 and 16 MiB (1M random keys). Each connection (main thread, writer) has its own: 8
    // MiB each made a 1M-row push peak at 173 MiB, 2 MiB at 157 (bench/README.md, issue 23); 4 MiB holds the
    // hot tables and most of the records B-tree's interior pages (~5 MiB at 5M records): the writer's is smaller.
    db.exec('PRAGMA mmap_size = 0');
    db.exec(`PRAGMA cache_size = -${options.cacheKiB ?? lookupCacheKiB}`);
    // Each batch commits twice (pending, then delivered): 64 MiB of WAL at most checkpoints less often than
    // the default 1000 pages and folds repeated writes of a page (the hot tables, a merge's records pages)
    // into one; the WAL is written with write(), so it costs disk, not memory. Measured again after the
    // hot/cold split: 1000 pages (of 4 KiB) made a 1M-record push ~20 % slower.
    const pageSize = retain(db.prepare('PRAGMA page_size')).pluck().get() as number;
    db.exec(`PRAGMA wal_autocheckpoint = ${Math.ceil(walCheckpointBytes / pageSize)}`);
    // A merge sorts its rows by key (statements.ts merge, mergeJournal): one helper thread sorts beside the
    // connection's own (SQLite's multi-threaded sorter). 1M journal entries merged (8 KiB pages) in 1.7-1.8 s
    // against 2.3-2.5 into an empty ledger, 3.9-4.0 against 4.6-5.6 into 5M records (bench/README.md,
    // "Session 19"); two helpers did no better on two cores.
    db.exec('PRAGMA threads = 1');
    // Without the lock an existing ledger is used as it is; only a new, empty file gets its schema.
    if (options.withoutLock) requireCurrent(db, () => migrate(db));
    else migrate(db);
    const ledger = new Ledger(db, options.now ?? Date.now, options.withoutLock === true, options.guard);
    if (!options.withoutLock) {
      ledger.mergeIfIdle();
      ledger.buildKeyFilter();
    }
    return ledger;
  } catch (error) {
    db.close();
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_NOTADB') {
      throw new ConfigError(`${path} is not a revimport ledger (not an SQLite database)`, {
        hint: 'Point REVIMPORT_STATE at another file, or move this one away.',
        cause: error,
      });
    }
    throw error;
  }
}

function params(target: number, keys: readonly string[]): { target: number; keys: string } {
  return { target, keys: JSON.stringify(keys) };
}

/** The (target, key) pairs of packed journal entries (`[key, hash, currency, value]`), one tuple at a time. */
function* targetKeys(targetId: number, entries: readonly unknown[][]): Generator<readonly [number, string]> {
  for (const [key] of entries) if (typeof key === 'string') yield [targetId, key];
}

/** The keys the filter cannot rule out of records: only these are probed there. */
function maybeIn(filter: KeyFilter, target: number, keys: readonly string[]): string[] {
  const maybe: string[] = [];
  for (const key of keys) if (filter.mayContain(target, key)) maybe.push(key);
  return maybe;
}

/** Lookup rows into `found`, each naming its key by position in `keys`; a later row wins. */
function readRows(found: Map<string, LedgerEntry>, keys: readonly string[], rows: unknown[]): void {
  for (const [n, state, contentHash, amount] of rows as LookupRow[]) {
    const parsed = amount === null ? undefined : parseAmount(amount);
    found.set(keys[n]!, parsed ? { state, contentHash, amount: parsed } : { state, contentHash });
  }
}

function parseAmount(text: string): DeliveredAmount | undefined {
  try {
    const [currency, value] = JSON.parse(text) as [unknown, unknown];
    return typeof currency === 'string' && typeof value === 'number' ? { currency, value } : undefined;
  } catch {
    return undefined;
  }
}
