// The delivery ledger on PostgreSQL (issue 15): the contract of the SQLite ledger (ledger.ts), async, for
// runs on several hosts or in containers that keep no disk.
import { hostname } from 'node:os';
import { DeliveryError } from '../../errors.js';
import type { RunReport } from '../../report/run-report.js';
import { automaticAssignment, chosenTargets, survivorOf, unresolvedTargetsError } from '../accounts.js';
import {
  type DeliveredRow,
  type DeliveredValues,
  type DeliveredValuesOptions,
  sampleDelivered,
  withProbed,
} from '../delivered-values.js';
import { journalColumn, journalText } from '../journal-entries.js';
import type { LedgerStore } from '../ledger-store.js';
import type { Target } from '../target.js';
import type {
  AccountRow,
  AssignResult,
  BeginRunInput,
  DeliveredAmount,
  FinishRunInput,
  JournalBody,
  JournalEntries,
  LedgerEntry,
  MarkPendingOptions,
  OutstandingRecord,
  PendingEntry,
  RecordState,
  ReportedIn,
  RunCommand,
  RunRow,
  StateCounts,
} from '../types.js';
import { clientFor, isConnectionError, openError, type Sql, type TransactionSql } from './client.js';
import { type ConnectionSource, maskUrl } from './connection.js';
import { migrate } from './migrate.js';
import { pgSql } from './statements.js';

// Writes go one after another on one connection in the order they were called (a batch's journal row before
// its settle, an unjournal before the per-record writes that follow it), lookups on a second one. The journal
// row of a batch is committed (synchronous commit) before its request; settles commit without waiting for the
// WAL flush: one lost is one resend of that body under its Idempotency-Key, which the server deduplicates
// (the SQLite ledger's NORMAL, ledger.ts).

export interface OpenPostgresLedgerOptions {
  /** Clock in epoch ms. Default: Date.now. */
  readonly now?: () => number;
  /**
   * Merge the journal at finishRun and close (the run holding the target's lock). Default true; `history`
   * and a refused run's record open with false: they only read, or write their own run row.
   */
  readonly merges?: boolean;
  /** Called before each write: throws when the run lost its lock (lock.ts), so the run stops. */
  readonly guard?: () => void;
  /** Shown in pg_stat_activity (and so in another host's lock message). */
  readonly applicationName?: string;
}

/** Records merged at once after which the records table's statistics are refreshed (ANALYZE). */
const analyzeAfter = 10_000;

/** Delivered journal records that trigger a merge into records. */
const journalMergeThreshold = 200_000;

export class PostgresLedger implements LedgerStore {
  readonly location: string;
  readonly #write: Sql;
  readonly #read: Sql;
  readonly #now: () => number;
  readonly #merges: boolean;
  readonly #guard: () => void;
  /** The tail of the write queue: every write starts after the one called before it ended. */
  #queue: Promise<unknown> = Promise.resolve();
  #journalSettled = 0;

  private constructor(location: string, write: Sql, read: Sql, options: OpenPostgresLedgerOptions) {
    this.location = location;
    this.#write = write;
    this.#read = read;
    this.#now = options.now ?? Date.now;
    this.#merges = options.merges !== false;
    this.#guard = options.guard ?? (() => {});
  }

  /** Connects, creates or migrates the schema, and (when it merges) merges what crashed runs settled. */
  static async open(
    source: ConnectionSource,
    options: OpenPostgresLedgerOptions = {},
  ): Promise<PostgresLedger> {
    const location = maskUrl(source.url);
    const name = options.applicationName ?? `revimport ${process.pid}@${hostname()}`;
    const write = clientFor(source, name);
    const read = clientFor(source, `${name} (lookups)`);
    const ledger = new PostgresLedger(location, write, read, options);
    try {
      await migrate(write, location).catch((error: unknown) => {
        throw openError(error, location);
      });
      const settled = await write.unsafe(pgSql.journalSettled);
      ledger.#journalSettled = Number(settled[0]!.n);
      return ledger;
    } catch (error) {
      await ledger.close(false).catch(() => undefined);
      throw error;
    }
  }

  /** LedgerStore.target: a URL with unresolved targets stops the run. */
  async target(target: Target): Promise<number> {
    const unresolved = await this.#serial((sql) => sql.unsafe(pgSql.unresolvedAny, [target.baseUrl]));
    if (unresolved[0]!.any === true) {
      const rows = await this.accounts();
      const auto = automaticAssignment(rows, target.baseUrl);
      if (!auto) throw unresolvedTargetsError(target.baseUrl, rows);
      await this.assign(target.baseUrl, auto.fingerprints, auto.account);
    }
    return this.#serial(async (sql) => {
      const rows = await sql.unsafe(pgSql.target, [target.baseUrl, target.account, this.#now()]);
      return rows[0]!.id as number;
    });
  }

  async accounts(): Promise<AccountRow[]> {
    const rows = await this.#serial((sql) => sql.unsafe(pgSql.accounts));
    return rows.map(accountRow);
  }

  /** LedgerStore.assign: in one transaction, after merging what the journal delivered into records. */
  async assign(baseUrl: string, fingerprints: readonly string[], account: string): Promise<AssignResult> {
    await this.merge();
    return this.#serial((sql) =>
      sql.begin(async (tx) => {
        const rows = (await tx.unsafe(`${pgSql.accounts} FOR UPDATE OF t`)).map(accountRow);
        const chosen = chosenTargets(rows, baseUrl, fingerprints);
        const existing = rows.find((row) => row.baseUrl === baseUrl && row.account === account);
        const into = survivorOf(chosen, existing).id;
        if (!existing) await tx.unsafe(pgSql.nameTarget, [into, account]);
        const merged = chosen.filter((row) => row.id !== into);
        for (const { id: from } of merged) {
          // Unanswered batches of both become per-record rows, so that what one delivered is not resent by the
          // other's batch (a batch can only be resent whole); moveRecords keeps a delivery over a pending row.
          for (const batch of await tx.unsafe(pgSql.pendingBatchesOf, [from, into])) {
            await this.#unjournalIn(tx, Number(batch.id));
          }
          for (const statement of [
            pgSql.moveRecords,
            pgSql.moveBatches,
            pgSql.moveRuns,
            pgSql.moveKnownProblems,
          ]) {
            await tx.unsafe(statement, [from, into]);
          }
          await tx.unsafe(pgSql.dropRecords, [from]);
          await tx.unsafe(pgSql.dropKnownProblems, [from]);
          await tx.unsafe(pgSql.dropTarget, [from]);
        }
        return { targetId: into, merged: merged.length };
      }),
    ) as Promise<AssignResult>;
  }

  beginRun(input: BeginRunInput): Promise<number> {
    const { command, files, startedAt = this.#now(), pid = process.pid } = input;
    return this.#serial(async (sql) => {
      const rows = await sql.unsafe(pgSql.beginRun, [
        command,
        JSON.stringify(files),
        startedAt,
        pid,
        hostname(),
        input.targetId ?? null,
        input.keyFingerprint ?? null,
      ]);
      return rows[0]!.id as number;
    });
  }

  async finishRun(runId: number, input: FinishRunInput): Promise<void> {
    await this.#finish(runId, input);
    if (this.#merges) await this.merge();
  }

  async recordRun(input: BeginRunInput & FinishRunInput): Promise<number> {
    const runId = await this.beginRun(input);
    await this.#finish(runId, input);
    return runId;
  }

  async history(options: { limit: number }): Promise<RunRow[]> {
    const rows = await this.#guarded(this.#read.unsafe(pgSql.history, [options.limit]));
    return rows.map((row) => ({
      id: row.id as number,
      command: row.command as RunCommand,
      files: JSON.parse(row.files as string) as string[],
      startedAt: row.started_at as number,
      finishedAt: row.finished_at as number | null,
      counts: row.counts === null ? null : (JSON.parse(row.counts as string) as Record<string, number>),
      exitCode: row.exit_code as number | null,
      durationMs: row.duration_ms as number | null,
      pid: row.pid as number,
      keyFingerprint: (row.key_fingerprint as string | null | undefined) ?? null,
    }));
  }

  async saveRunReport(runId: number, report: RunReport): Promise<void> {
    await this.#serial((sql) => sql.unsafe(pgSql.saveRunReport, [JSON.stringify(report), runId]));
  }

  async runReport(runId: number): Promise<RunReport | null> {
    const rows = await this.#guarded(this.#read.unsafe(pgSql.runReport, [runId]));
    const report = rows[0]?.report as string | null | undefined;
    return report ? (JSON.parse(report) as RunReport) : null;
  }

  async targetReports(targetId: number, limit: number): Promise<RunReport[]> {
    const rows = await this.#guarded(this.#read.unsafe(pgSql.targetReports, [targetId, limit]));
    return rows.map((row) => JSON.parse(row.report as string) as RunReport);
  }

  /** What the ledger knows of `keys` for this target, read on the lookup connection. */
  async lookup(targetId: number, keys: readonly string[]): Promise<Map<string, LedgerEntry>> {
    const rows = await this.#guarded(this.#read.unsafe(pgSql.lookup, [targetId, keys as string[]]));
    const found = new Map<string, LedgerEntry>();
    for (const row of rows) {
      const state = row.state as RecordState;
      const contentHash = row.content_hash as string;
      const currency = row.currency as string | null;
      const value = row.value as number | null;
      found.set(
        row.key as string,
        currency !== null && value !== null
          ? { state, contentHash, amount: { currency, value } }
          : { state, contentHash },
      );
    }
    return found;
  }

  markPending(
    targetId: number,
    runId: number,
    entries: readonly PendingEntry[],
    options: MarkPendingOptions = {},
  ): Promise<number> {
    // One statement cannot upsert a key twice: the last entry of a key wins, as in SQLite.
    const unique = [...new Map(entries.map((e) => [e.key, e])).values()];
    return this.#serial(async (sql) => {
      // records has no foreign keys (schema.ts): the run is checked here, as SQLite's key would.
      if ((await sql.unsafe(pgSql.runExists, [runId])).length === 0) {
        throw new Error(`FOREIGN KEY constraint failed: no run ${runId} in the ledger`);
      }
      const first = await this.#reserveSeq(sql);
      const rows = await sql.unsafe(pgSql.markPending, [
        targetId,
        runId,
        first,
        this.#now(),
        unique.map((e) => e.key),
        unique.map((e) => e.contentHash),
        unique.map((e) => e.payload),
        unique.map((e) => e.idempotencyKey),
        options.resend === true,
      ] as never[]);
      return rows.count;
    });
  }

  markDelivered(targetId: number, keys: readonly string[], idempotencyKey: string): Promise<number> {
    return this.#serial(async (sql) => {
      const rows = await lazily(sql, (tx) =>
        tx.unsafe(pgSql.markDelivered, [targetId, keys as string[], idempotencyKey, this.#now()] as never[]),
      );
      return rows.count;
    });
  }

  /** One row, committed (synchronous commit) before the request: see the module comment. */
  journalBatch(
    targetId: number,
    runId: number,
    idempotencyKey: string,
    entries: JournalEntries,
    body: JournalBody,
  ): Promise<number> {
    return this.#serial(async (sql) => {
      const rows = await sql.unsafe(pgSql.journalBatch, [
        targetId,
        runId,
        entries.length,
        idempotencyKey,
        journalColumn(entries, 0),
        journalColumn(entries, 1),
        journalColumn(entries, 2),
        journalColumn(entries, 3),
        journalText(body),
        this.#now(),
      ] as never[]);
      return rows[0]!.id as number;
    });
  }

  async settleBatch(batchId: number): Promise<number> {
    const size = await this.#serial(async (sql) => {
      const rows = await sql.unsafe(pgSql.settleBatch, [batchId, this.#now()]);
      return rows.length === 0 ? 0 : (rows[0]!.size as number);
    });
    this.#journalSettled += size;
    if (this.#merges && this.#journalSettled >= journalMergeThreshold) await this.merge();
    return size;
  }

  /** Moves the pending journal row into per-record pending rows (same key, run and Idempotency-Key). */
  unjournal(batchId: number): Promise<number> {
    return this.#serial((sql) => sql.begin((tx) => this.#unjournalIn(tx, batchId)));
  }

  async #unjournalIn(tx: TransactionSql, batchId: number): Promise<number> {
    const rows = await tx.unsafe(pgSql.journalRow, [batchId]);
    const row = rows[0];
    if (!row || row.body === null) return 0;
    const keys = row.keys as string[];
    const records = JSON.parse(row.body as string) as unknown[];
    const moved = await tx.unsafe(pgSql.markPending, [
      row.target_id,
      row.run_id,
      await this.#reserveSeq(tx),
      this.#now(),
      keys,
      row.hashes,
      keys.map((_, n) => JSON.stringify(records[n])),
      keys.map(() => row.idempotency_key),
      // The journal row was these keys' newest state: no guard against their older states.
      true,
    ] as never[]);
    await tx.unsafe(pgSql.dropBatch, [batchId]);
    return moved.count;
  }

  reprice(targetId: number, key: string, contentHash: string, amount: DeliveredAmount): Promise<number> {
    return this.#serial(async (sql) => {
      const params = [targetId, key, contentHash, amount.currency, amount.value, this.#now()];
      return (await sql.unsafe(pgSql.reprice, params)).count;
    });
  }

  markRejected(targetId: number, entries: readonly { key: string; message: string }[]): Promise<number> {
    const unique = [...new Map(entries.map((e) => [e.key, e])).values()];
    return this.#serial(async (sql) => {
      const params = [targetId, unique.map((e) => e.key), unique.map((e) => e.message), this.#now()];
      return (await sql.unsafe(pgSql.markRejected, params as never[])).count;
    });
  }

  markFailed(targetId: number, keys: readonly string[], reason: string): Promise<number> {
    const unique = [...new Set(keys)];
    return this.#serial(async (sql) => {
      const seq = await this.#reserveSeq(sql);
      const params = [targetId, unique, reason, this.#now(), seq];
      return (await sql.unsafe(pgSql.markFailed, params as never[])).count;
    });
  }

  /** As ledger.ts `outstanding`: groups in the order of their first seq, journal rows as their bodies. */
  outstanding(targetId: number, currentRunId: number): Promise<OutstandingRecord[]> {
    return this.#serial(async (sql) => {
      const groups: { seq: number; records: OutstandingRecord[] }[] = [];
      let last: string | undefined;
      for (const row of await sql.unsafe(pgSql.outstanding, [targetId, currentRunId])) {
        const idempotencyKey = (row.idempotency_key as string | null) ?? '';
        if (groups.length === 0 || idempotencyKey !== last)
          groups.push({ seq: row.seq as number, records: [] });
        last = idempotencyKey;
        groups.at(-1)!.records.push({
          key: row.key as string,
          contentHash: row.content_hash as string,
          payload: row.payload as string,
          idempotencyKey,
          state: row.state as 'pending' | 'failed',
        });
      }
      for (const row of await sql.unsafe(pgSql.journalOutstanding, [targetId, currentRunId])) {
        const keys = row.keys as string[];
        const hashes = row.hashes as string[];
        const records = JSON.parse(row.body as string) as unknown[];
        groups.push({
          seq: row.seq as number,
          records: keys.map((key, n) => ({
            key,
            contentHash: hashes[n]!,
            payload: JSON.stringify(records[n]),
            idempotencyKey: row.idempotency_key as string,
            state: 'pending' as const,
            batchId: row.id as number,
          })),
        });
      }
      return groups.sort((a, b) => a.seq - b.seq).flatMap((group) => group.records);
    });
  }

  /** As ledger.ts `hasRecords`, after the writes called before it. */
  hasRecords(targetId: number): Promise<boolean> {
    return this.#serial(async (sql) => (await sql.unsafe(pgSql.hasRecords, [targetId]))[0]!.any === true);
  }

  /**
   * As ledger.ts `counts`: a journal row's key counts in its row's state unless a pending or failed record
   * of that key is newer (SQLite's inflight); a rejected record of a key in the journal does not count (in
   * SQLite it sits in records, which the journal shadows), nor does a delivered one older than the journal
   * row. A delivery written since the row was journaled counts beside it, as SQLite's staged deliveries
   * do (review: markPending, journalBatch, markDelivered counted pending 1 here, pending 1 and delivered 1
   * there). PostgreSQL keeps no staged table, so one case still differs: a delivery made before the row
   * was journaled and not yet merged in SQLite counts there too, and here only once it is merged there.
   */
  counts(targetId: number): Promise<StateCounts> {
    return this.#serial(async (sql) => {
      const counts: StateCounts = { pending: 0, delivered: 0, rejected: 0, failed: 0 };
      for (const row of await sql.unsafe(pgSql.counts, [targetId])) {
        counts[row.state as RecordState] += row.n as number;
      }
      return counts;
    });
  }

  /**
   * As ledger.ts `deliveredValues`, after the writes called before it; no staged table here. 1M delivered
   * records: the sample ~80 ms (a range of the primary key), a currency's probe ~0.17 s (a scan).
   */
  deliveredValues(targetId: number, options: DeliveredValuesOptions): Promise<DeliveredValues> {
    return this.#serial(async (sql) => {
      const read = async (currency: string | null) => {
        const params = [targetId, options.limit, currency];
        const rows = await Promise.all([
          sql.unsafe(pgSql.deliveredRecords, params),
          sql.unsafe(pgSql.deliveredJournal, params),
        ]);
        return rows.map((list) =>
          list.map(
            (row): DeliveredRow => [
              row.key as string,
              row.currency as string | null,
              row.value as number | null,
            ],
          ),
        );
      };
      const sample = sampleDelivered(await read(null), options.limit);
      const probed: Record<string, number[]> = {};
      for (const currency of options.currencies ?? []) {
        if (currency in sample.values) continue;
        probed[currency] = sampleDelivered(await read(currency), options.limit).values[currency] ?? [];
      }
      return withProbed(sample, probed);
    });
  }

  /** Runs `work` in one transaction on the write connection, after the writes called before it (copy-ledger.ts). */
  transaction<T>(work: (sql: TransactionSql) => Promise<T>): Promise<T> {
    return this.#serial((sql) => sql.begin(work) as Promise<T>);
  }

  /** Moves every delivered journal row's records into `records`, in one statement. Returns how many. */
  merge(): Promise<number> {
    return this.#serial(async (sql) => {
      // A sort of the merged keys in memory, not in temp files (4 MB by default spilled at 200,000 records).
      const merged = (
        await sql.begin(async (tx) => {
          await tx.unsafe(`SET LOCAL work_mem = '64MB'`);
          return tx.unsafe(pgSql.merge);
        })
      ).count;
      this.#journalSettled = 0;
      // Fresh statistics after a bulk merge: autovacuum analyzes only after its naptime, and until then the
      // next run's lookups were planned for a much smaller table (a re-run right after a 200,000-record
      // push measured 28 s instead of 9 s). Sampling costs a fraction of a second.
      if (merged >= analyzeAfter) await sql.unsafe('ANALYZE revimport.records');
      return merged;
    });
  }

  /** Waits for the writes called so far, merges (when this ledger merges) and closes both connections. */
  async close(merge = this.#merges): Promise<void> {
    try {
      await this.#queue.catch(() => undefined);
      if (merge) await this.merge();
    } finally {
      await Promise.all([this.#write.end({ timeout: 5 }), this.#read.end({ timeout: 5 })]);
    }
  }

  async #finish(runId: number, input: FinishRunInput): Promise<void> {
    const { counts, exitCode, durationMs, finishedAt = this.#now(), reported } = input;
    const finish = [JSON.stringify(counts), exitCode, durationMs, finishedAt, runId];
    if (!reported || reported.fingerprints.length === 0) {
      await this.#serial((sql) => sql.unsafe(pgSql.finishRun, finish));
      return;
    }
    // The run's outcome and the problems it reported first, in one transaction (as the SQLite ledger).
    await this.#serial((sql) =>
      sql.begin(async (tx) => {
        await tx.unsafe(pgSql.finishRun, finish);
        const fingerprints = [...reported.fingerprints];
        await tx.unsafe(pgSql.rememberProblems, [reported.targetId, runId, finishedAt, fingerprints]);
      }),
    );
  }

  /** As ledger.ts `knownProblems`. */
  knownProblems(targetId: number): Promise<Map<string, ReportedIn>> {
    return this.#serial(async (sql) => {
      const known = new Map<string, ReportedIn>();
      for (const row of await sql.unsafe(pgSql.knownProblems, [targetId])) {
        known.set(row.fingerprint as string, { runId: Number(row.run_id), at: Number(row.reported_at) });
      }
      return known;
    });
  }

  async #reserveSeq(sql: Sql | TransactionSql): Promise<number> {
    return (await sql.unsafe(pgSql.nextSeq))[0]!.first as number;
  }

  /** Runs `write` after every write called before it; a lost connection becomes a DeliveryError. */
  #serial<T>(write: (sql: Sql) => Promise<T>): Promise<T> {
    const run = this.#queue.then(
      () => {
        this.#guard();
        return this.#guarded(write(this.#write));
      },
      () => {
        this.#guard();
        return this.#guarded(write(this.#write));
      },
    );
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #guarded<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (!isConnectionError(error)) throw error;
      throw new DeliveryError(
        `lost the connection to the ledger database ${this.location}: ${(error as Error).message}`,
        {
          hint: 'What was not recorded as delivered stays outstanding: run the same command again once the database is back.',
          cause: error,
        },
      );
    }
  }
}

/** A write whose loss in a crash costs one resend at most: committed without waiting for the WAL flush. */
function lazily<T>(sql: Sql, write: (tx: TransactionSql) => Promise<T>): Promise<T> {
  return sql.begin(async (tx) => {
    await tx.unsafe('SET LOCAL synchronous_commit = off');
    return write(tx);
  }) as Promise<T>;
}

/** A row of `pgSql.accounts`: counts come back as bigint strings. */
function accountRow(row: Record<string, unknown>): AccountRow {
  const last = row.last_used === null ? null : Number(row.last_used);
  return {
    id: Number(row.id),
    baseUrl: row.base_url as string,
    account: row.account as string | null,
    keyFingerprint: row.key_fingerprint as string | null,
    delivered: Number(row.delivered),
    outstanding: Number(row.outstanding),
    lastUsed: last === 0 ? null : last,
  };
}
