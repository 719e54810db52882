// The local delivery ledger (better-sqlite3): which record keys each target has been sent, so
// re-runs skip what was delivered and resend what a crash or a server failure left outstanding.
// Every write is one transaction; lists go to SQLite as one JSON parameter per chunk (json_each).

import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../errors.js';
import { migrate } from './migrations.js';
import type { Target } from './target.js';
import type {
  BeginRunInput,
  FinishRunInput,
  LedgerEntry,
  MarkPendingOptions,
  OutstandingRecord,
  PendingEntry,
  RecordState,
  RunCommand,
  RunRow,
  StateCounts,
} from './types.js';

export interface OpenLedgerOptions {
  /** Clock in epoch ms for first_seen/updated_at and run times. Default: Date.now. */
  readonly now?: () => number;
}

/** Keys per statement. The JSON parameter's size, not SQLite's variable limit, is what this bounds. */
const chunkSize = 500;

const sql = {
  target: `INSERT INTO targets (base_url, key_fingerprint, created_at) VALUES (?, ?, ?)
    ON CONFLICT (base_url, key_fingerprint) DO UPDATE SET base_url = excluded.base_url RETURNING id`,
  beginRun: 'INSERT INTO runs (command, files, started_at, pid) VALUES (?, ?, ?, ?)',
  finishRun: 'UPDATE runs SET counts = ?, exit_code = ?, duration_ms = ?, finished_at = ? WHERE id = ?',
  history: 'SELECT * FROM runs ORDER BY id DESC LIMIT ?',
  lookup: `SELECT key, state, content_hash FROM records
    WHERE target_id = ? AND key IN (SELECT value FROM json_each(?))`,
  reserveSeq: `UPDATE meta SET value = value + ? WHERE name = 'next_seq' RETURNING value - ? AS first`,
  // `WHERE true` lets the parser tell the upsert clause from a join constraint (SQLite docs, UPSERT).
  markPending: `INSERT INTO records AS r (target_id, key, content_hash, state, idempotency_key, run_id, seq,
      first_seen, updated_at, message, payload)
    SELECT :target, e.value ->> 0, e.value ->> 1, 'pending', e.value ->> 3, :run, :seq + e.key,
      :now, :now, NULL, e.value ->> 2
    FROM json_each(:entries) AS e WHERE true
    ON CONFLICT (target_id, key) DO UPDATE SET content_hash = excluded.content_hash, state = 'pending',
      idempotency_key = excluded.idempotency_key, run_id = excluded.run_id, seq = excluded.seq,
      updated_at = excluded.updated_at, message = NULL, payload = excluded.payload
    WHERE r.state <> 'delivered' OR :resend`,
  markDelivered: `UPDATE records SET state = 'delivered', idempotency_key = :idempotencyKey, payload = NULL,
      message = NULL, updated_at = :now
    WHERE target_id = :target AND key IN (SELECT value FROM json_each(:keys))`,
  // One statement per entry: UPDATE … FROM json_each gets planned as a scan of the target's rows.
  // Rejections are few (a server verdict per bad record), so per-row costs nothing here.
  markRejected: `UPDATE records SET state = 'rejected', message = :message, updated_at = :now
    WHERE target_id = :target AND key = :key`,
  markFailed: `UPDATE records SET state = 'failed', message = :reason, updated_at = :now
    WHERE target_id = :target AND key IN (SELECT value FROM json_each(:keys)) AND state <> 'delivered'`,
  // Without statistics the planner prefers a primary-key range over the target's millions of
  // delivered rows; INDEXED BY pins the partial index (the `state IN` term makes it applicable).
  // Groups ordered by their first seq, then seq inside: a batch comes back whole and in order.
  outstanding: `SELECT key, content_hash, payload, idempotency_key, state
    FROM records INDEXED BY records_outstanding
    WHERE target_id = :target AND state IN ('pending', 'failed')
      AND (state = 'failed' OR run_id IS NOT :run)
    ORDER BY min(seq) OVER (PARTITION BY idempotency_key), seq`,
  counts: 'SELECT state, count(*) AS n FROM records WHERE target_id = ? GROUP BY state',
} as const;

type Statements = { [name in keyof typeof sql]: Database.Statement };

interface RunDbRow {
  id: number;
  command: RunCommand;
  files: string;
  started_at: number;
  finished_at: number | null;
  counts: string | null;
  exit_code: number | null;
  duration_ms: number | null;
  pid: number;
}

/** An open ledger. Not safe to share across processes without `acquireLock` (one run at a time). */
export class Ledger {
  readonly path: string;
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #stmt: Statements;

  constructor(db: Database.Database, now: () => number) {
    this.#db = db;
    this.#now = now;
    this.path = db.name;
    this.#stmt = Object.fromEntries(
      Object.entries(sql).map(([name, text]) => [name, db.prepare(text)]),
    ) as Statements;
    // Rows as arrays: no per-row object for the hot lookup.
    this.#stmt.lookup.raw(true);
    this.#stmt.outstanding.raw(true);
  }

  /** Upserts the target; returns its id. */
  target(target: Target): number {
    const row = this.#stmt.target.get(target.baseUrl, target.keyFingerprint, this.#now()) as { id: number };
    return row.id;
  }

  beginRun(input: BeginRunInput): number {
    const { command, files, startedAt = this.#now(), pid = process.pid } = input;
    return Number(this.#stmt.beginRun.run(command, JSON.stringify(files), startedAt, pid).lastInsertRowid);
  }

  finishRun(runId: number, input: FinishRunInput): void {
    const { counts, exitCode, durationMs, finishedAt = this.#now() } = input;
    this.#stmt.finishRun.run(JSON.stringify(counts), exitCode, durationMs, finishedAt, runId);
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
    }));
  }

  /** What the ledger knows of `keys` for this target; unknown keys are absent from the map. */
  lookup(targetId: number, keys: readonly string[]): Map<string, LedgerEntry> {
    const found = new Map<string, LedgerEntry>();
    const statement = this.#stmt.lookup;
    for (let start = 0; start < keys.length; start += chunkSize) {
      const chunk = JSON.stringify(keys.slice(start, start + chunkSize));
      for (const [key, state, contentHash] of statement.all(targetId, chunk) as [
        string,
        RecordState,
        string,
      ][]) {
        found.set(key, { state, contentHash });
      }
    }
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
    const resend = options.resend === true ? 1 : 0;
    return this.#inChunks(entries, (chunk, now) => {
      const { first } = this.#stmt.reserveSeq.get(chunk.length, chunk.length) as { first: number };
      const rows = chunk.map((e) => [e.key, e.contentHash, e.payload, e.idempotencyKey]);
      const params = { target: targetId, run: runId, seq: first, now, entries: JSON.stringify(rows), resend };
      return this.#stmt.markPending.run(params).changes;
    });
  }

  /** The server accepted these keys in the batch sent with `idempotencyKey`; drops their payloads. */
  markDelivered(targetId: number, keys: readonly string[], idempotencyKey: string): number {
    return this.#inChunks(keys, (chunk, now) => {
      const params = { target: targetId, keys: JSON.stringify(chunk), idempotencyKey, now };
      return this.#stmt.markDelivered.run(params).changes;
    });
  }

  /** The server refused these records; the message is kept for `status`/rejects output. */
  markRejected(targetId: number, entries: readonly { key: string; message: string }[]): number {
    return this.#inChunks(entries, (chunk, now) => {
      let changed = 0;
      for (const { key, message } of chunk) {
        changed += this.#stmt.markRejected.run({ target: targetId, key, message, now }).changes;
      }
      return changed;
    });
  }

  /** The batch holding these keys could not be delivered; a delivered key is never downgraded. */
  markFailed(targetId: number, keys: readonly string[], reason: string): number {
    return this.#inChunks(keys, (chunk, now) => {
      return this.#stmt.markFailed.run({ target: targetId, keys: JSON.stringify(chunk), reason, now })
        .changes;
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
    type Row = [string, string, string, string, 'pending' | 'failed'];
    const rows = this.#stmt.outstanding.all({ target: targetId, run: currentRunId }) as Row[];
    return rows.map(([key, contentHash, payload, idempotencyKey, state]) => ({
      key,
      contentHash,
      payload,
      idempotencyKey,
      state,
    }));
  }

  /** Records per state for this target (zero for absent states). Scans the target's rows. */
  counts(targetId: number): StateCounts {
    const counts: StateCounts = { pending: 0, delivered: 0, rejected: 0, failed: 0 };
    for (const row of this.#stmt.counts.all(targetId) as { state: RecordState; n: number }[]) {
      counts[row.state] = row.n;
    }
    return counts;
  }

  close(): void {
    this.#db.close();
  }

  #inChunks<T>(items: readonly T[], write: (chunk: readonly T[], now: number) => number): number {
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
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL syncs at checkpoints, not at every commit: a commit survives a process
    // crash or SIGKILL (it is in the WAL), and power loss can only drop the last commits, never
    // corrupt the file. A lost `delivered` mark means one resend of a batch whose idempotency key
    // is derived the same way, so the server deduplicates it; an fsync per batch buys nothing.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // Readers (history, status) never block in WAL; this covers two writers opening at once.
    db.pragma('busy_timeout = 5000');
    // Lookups probe random keys across a ledger of millions of rows (~130 bytes each): through
    // mmap they read the OS page cache without a syscall per page, about 2x faster at 5M rows
    // (bench-lookup.mjs); a bigger SQLite page cache measured no gain. 1 GiB of address space.
    db.pragma('mmap_size = 1073741824');
    // Each batch commits twice (pending, then delivered), and random record keys dirty about one page per
    // record, so the default 1000-page checkpoint (with its fsync) ran after nearly every batch. 16384
    // pages (64 MiB of WAL at most) checkpoints a tenth as often and folds repeated writes of a page
    // into one; the WAL is written with write(), so it costs disk, not memory.
    db.pragma('wal_autocheckpoint = 16384');
    migrate(db);
    return new Ledger(db, options.now ?? Date.now);
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
