// `revimport ledger copy` (issue 15): an SQLite ledger's targets, runs and records moved into a PostgreSQL
// ledger, so that nothing delivered is sent again after the switch and what was outstanding (failed, or
// pending in a crashed run's batch) is resent from there as the same body under the same Idempotency-Key.
import Database from 'better-sqlite3';
import { openLedger, type RunDbRow } from './ledger.js';
import { pages, retain } from './native.js';
import type { TransactionSql } from './postgres/client.js';
import type { ConnectionSource } from './postgres/connection.js';
import { PostgresLedger } from './postgres/postgres-ledger.js';

// The source is merged first (openLedger) and read through its own read-only connection; the destination
// is written in one transaction, lists as array parameters, in chunks.

export interface CopyCounts {
  readonly targets: number;
  readonly runs: number;
  /** Delivered or rejected records (a key the destination has delivered already is kept as it is). */
  readonly records: number;
  /** Failed records and pending ones of crashed runs, resent by the next run. */
  readonly outstanding: number;
  /** Journal rows of crashed runs (pending bodies), resent whole by the next run. */
  readonly batches: number;
}

const chunkSize = 10_000;

/** Copies the ledger file at `from` into the PostgreSQL ledger `to` (created if new). */
export async function copyLedger(from: string, to: ConnectionSource): Promise<CopyCounts> {
  // Merges what is staged or settled in the journal (the source's lock is the caller's), then closes.
  const source = openLedger(from);
  source.merge();
  source.close();
  const db = retain(new Database(from, { readonly: true, fileMustExist: true }));
  const destination = await PostgresLedger.open(to, { merges: false });
  try {
    return await destination.transaction((sql) => copyInto(sql, db));
  } finally {
    db.close();
    await destination.close();
  }
}

/** The source's ids mapped to the destination's, as the copy goes. */
interface Copying {
  readonly sql: TransactionSql;
  readonly db: Database.Database;
  readonly targetIds: Map<number, number>;
  readonly runIds: Map<number, number>;
}

/** The whole copy, in one transaction: targets, runs, settled records, then the outstanding work. */
async function copyInto(sql: TransactionSql, db: Database.Database): Promise<CopyCounts> {
  // Two copies at once into one database wait for each other: each sees what the other copied.
  await sql.unsafe(`SELECT pg_advisory_xact_lock(hashtext('revimport ledger copy'))`);
  const copying: Copying = { sql, db, targetIds: new Map(), runIds: new Map() };
  const targets = await copyTargets(copying);
  const runs = await copyRuns(copying);
  const records = await copySettled(copying);
  const inflight = retain(db.prepare('SELECT * FROM inflight ORDER BY seq')).all() as InflightRow[];
  const batches = await unknownPendingBatches(copying);
  const newSeq = await renumber(sql, inflight, batches);
  const outstanding = await insertRecords(copying, inflight, (row) => newSeq.get(row)!);
  for (const batch of batches) await insertBatch(copying, batch, newSeq.get(batch)!);
  return { targets, runs, records, outstanding, batches: batches.length };
}

async function copyTargets({ sql, db, targetIds }: Copying): Promise<number> {
  const rows = retain(db.prepare('SELECT * FROM targets ORDER BY id')).all() as TargetRow[];
  for (const row of rows) {
    // A target is a URL and an account (schema 4); one not resolved to an account yet (NULL) is found
    // by its key's fingerprint, so that a second copy does not add it again (NULLs never conflict).
    const [t] = await sql.unsafe(
      `WITH found AS (SELECT id FROM revimport.targets WHERE $2::text IS NULL AND base_url = $1
          AND account IS NULL AND key_fingerprint = $3),
        added AS (INSERT INTO revimport.targets (base_url, account, key_fingerprint, created_at)
          SELECT $1, $2, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM found)
          ON CONFLICT (base_url, account) DO UPDATE SET base_url = excluded.base_url RETURNING id)
      SELECT id FROM added UNION ALL SELECT id FROM found LIMIT 1`,
      [row.base_url, row.account, row.key_fingerprint, row.created_at] as never[],
    );
    targetIds.set(row.id, t!.id as number);
  }
  return rows.length;
}

/** Runs: a run copied before (same start, pid, command and files) is not copied twice. */
async function copyRuns({ sql, db, targetIds, runIds }: Copying): Promise<number> {
  const rows = retain(db.prepare('SELECT * FROM runs ORDER BY id')).all() as RunDbRow[];
  for (const row of rows) {
    const [r] = await sql.unsafe(
      `WITH found AS (SELECT id FROM revimport.runs WHERE started_at = $3 AND pid = $8 AND command = $1
          AND files = $2),
        added AS (INSERT INTO revimport.runs (command, files, started_at, finished_at, counts, exit_code,
            duration_ms, pid, host, target_id, key_fingerprint)
          SELECT $1, $2, $3, $4, $5, $6, $7, $8, NULL, $9, $10 WHERE NOT EXISTS (SELECT 1 FROM found)
          RETURNING id)
      SELECT id FROM added UNION ALL SELECT id FROM found LIMIT 1`,
      [
        row.command,
        row.files,
        row.started_at,
        row.finished_at,
        row.counts,
        row.exit_code,
        row.duration_ms,
        row.pid,
        row.target_id == null ? null : (targetIds.get(row.target_id) ?? null),
        row.key_fingerprint ?? null,
      ] as never[],
    );
    runIds.set(row.id, r!.id as number);
    if (row.report) await copyReport(sql, row.report, r!.id as number);
  }
  return rows.length;
}

/** The run's report (issue 25), under the run's id in the copy; a run copied before keeps the one it has. */
async function copyReport(sql: Copying['sql'], report: string, runId: number): Promise<void> {
  let copied: string;
  try {
    copied = JSON.stringify({ ...(JSON.parse(report) as object), runId });
  } catch {
    return; // not a report this revimport wrote: the run is copied without it
  }
  await sql.unsafe('UPDATE revimport.runs SET report = $1 WHERE id = $2 AND report IS NULL', [copied, runId]);
}

const runOf = ({ runIds }: Copying, id: number | null) => (id === null ? null : (runIds.get(id) ?? null));

/**
 * A page of settled records after (`:target`, `:after`, a key's bytes). The unary + drops the CAST's affinity,
 * so that the row value seeks the index on (target_id, key), not on target_id alone (key-filter-store.ts).
 */
export const copySettledPage = `SELECT r.*, CAST(r.key AS BLOB) AS key_bytes FROM records AS r
  WHERE (r.target_id, r.key) > (:target, +CAST(:after AS TEXT)) AND NOT EXISTS (SELECT 1 FROM inflight AS i
    WHERE i.target_id = r.target_id AND i.key = r.key)
  ORDER BY r.target_id, r.key LIMIT ${chunkSize}`;

/**
 * Settled records (delivered, rejected) a per-record row does not shadow, a chunk at a time: a page of `.all()`
 * (no statement iterator: native.ts), the cursor the key's bytes (a key holding a lone surrogate reads back as
 * other text than it is stored as, and a text cursor would skip the keys between the two).
 */
async function copySettled(copying: Copying): Promise<number> {
  type Row = RecordRow & { readonly key_bytes: Buffer };
  const settled = retain(copying.db.prepare(copySettledPage));
  const start = { target: -1, after: Buffer.alloc(0) };
  const page = (last?: Row) =>
    settled.all(last ? { target: last.target_id, after: last.key_bytes } : start) as Row[];
  let copied = 0;
  for (const rows of pages(page)) copied += await insertRecords(copying, rows, () => 0);
  return copied;
}

/**
 * The pending bodies of crashed runs, less those the destination knows already (copied before: its journal
 * row, pending or settled, or its records under its Idempotency-Key, moved there or delivered): a second
 * row would send the same body twice, to a server that may not deduplicate keys.
 */
async function unknownPendingBatches({ sql, db, targetIds }: Copying): Promise<BatchRow[]> {
  const pending = retain(
    db.prepare(
      `SELECT b.*, bb.body FROM batches AS b JOIN batch_bodies AS bb ON bb.batch_id = b.id
      WHERE b.state = 'pending' ORDER BY b.seq`,
    ),
  ).all() as BatchRow[];
  if (pending.length === 0) return pending;
  const found = await sql.unsafe(
    `SELECT target_id, idempotency_key FROM revimport.batches
      WHERE target_id = ANY ($1::bigint[]) AND idempotency_key = ANY ($2::text[])
    UNION SELECT target_id, idempotency_key FROM revimport.records
      WHERE target_id = ANY ($1::bigint[]) AND idempotency_key = ANY ($2::text[])`,
    [
      [...new Set(pending.map((b) => targetIds.get(b.target_id)!))],
      [...new Set(pending.map((b) => b.idempotency_key))],
    ] as never[],
  );
  const known = new Set<string>();
  for (const row of found) known.add(`${row.target_id}:${row.idempotency_key}`);
  return pending.filter((b) => !known.has(`${targetIds.get(b.target_id)}:${b.idempotency_key}`));
}

/**
 * Outstanding work, renumbered in its order (inflight.seq and batches.seq share one order), from one number
 * of the destination's sequence: outstanding() returns it in the order it had.
 */
async function renumber(
  sql: TransactionSql,
  inflight: readonly InflightRow[],
  batches: readonly BatchRow[],
): Promise<Map<object, number>> {
  const [{ first }] = (await sql.unsafe(
    `SELECT nextval('revimport.seq') * 16777216 AS first`,
  )) as unknown as [{ first: number }];
  const order = [
    ...inflight.map((row) => ({ seq: row.seq, size: 1, item: row as object })),
    ...batches.map((batch) => ({ seq: batch.seq, size: batch.size, item: batch as object })),
  ].sort((a, b) => a.seq - b.seq);
  const newSeq = new Map<object, number>();
  let next = first;
  for (const { item, size } of order) {
    newSeq.set(item, next);
    next += size;
  }
  return newSeq;
}

async function insertBatch(copying: Copying, batch: BatchRow, seq: number): Promise<void> {
  const keys = JSON.parse(batch.keys) as [string, string, string, number][];
  await copying.sql.unsafe(
    `INSERT INTO revimport.batches (target_id, run_id, seq, size, idempotency_key, state, keys, hashes,
      currencies, amounts, body, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, 'pending', $6::text[], $7::text[], $8::text[], $9::float8[], $10, $11, $12)`,
    [
      copying.targetIds.get(batch.target_id)!,
      runOf(copying, batch.run_id),
      seq,
      batch.size,
      batch.idempotency_key,
      keys.map((k) => k[0]),
      keys.map((k) => k[1]),
      keys.map((k) => k[2]),
      keys.map((k) => k[3]),
      batch.body,
      batch.created_at,
      batch.updated_at,
    ] as never[],
  );
}

interface TargetRow {
  id: number;
  base_url: string;
  account: string | null;
  key_fingerprint: string | null;
  created_at: number;
}

interface RecordRow {
  target_id: number;
  key: string;
  content_hash: string;
  state: string;
  idempotency_key: string | null;
  run_id: number | null;
  first_seen: number;
  updated_at: number;
  message: string | null;
  payload: string | null;
  amount?: string | null;
}

type InflightRow = RecordRow & { seq: number };

interface BatchRow {
  id: number;
  target_id: number;
  run_id: number | null;
  seq: number;
  size: number;
  idempotency_key: string;
  keys: string;
  body: string;
  created_at: number;
  updated_at: number;
}

/**
 * Upserts records. A key the destination knows already keeps its state, unless the copy has it delivered
 * and the destination does not: a delivery is never forgotten, whichever ledger saw it.
 */
async function insertRecords(
  copying: Copying,
  rows: readonly RecordRow[],
  seqOf: (row: RecordRow) => number,
): Promise<number> {
  const { sql, targetIds } = copying;
  if (rows.length === 0) return 0;
  const amounts = rows.map((row) => parseAmount(row.amount ?? null));
  const result = await sql.unsafe(
    `INSERT INTO revimport.records AS r (target_id, key, content_hash, state, idempotency_key, run_id, seq,
      first_seen, updated_at, message, payload, currency, value)
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[],
      $7::bigint[], $8::bigint[], $9::bigint[], $10::text[], $11::text[], $12::text[], $13::float8[])
    ON CONFLICT (target_id, key) DO UPDATE SET content_hash = excluded.content_hash, state = excluded.state,
      idempotency_key = excluded.idempotency_key, run_id = excluded.run_id, seq = excluded.seq,
      updated_at = excluded.updated_at, message = excluded.message, payload = excluded.payload,
      currency = excluded.currency, value = excluded.value
    WHERE excluded.state = 'delivered' AND r.state <> 'delivered'`,
    [
      rows.map((row) => targetIds.get(row.target_id)!),
      rows.map((row) => row.key),
      rows.map((row) => row.content_hash),
      rows.map((row) => row.state),
      rows.map((row) => row.idempotency_key),
      rows.map((row) => runOf(copying, row.run_id)),
      rows.map(seqOf),
      rows.map((row) => row.first_seen),
      rows.map((row) => row.updated_at),
      rows.map((row) => row.message),
      rows.map((row) => row.payload),
      amounts.map((a) => a?.[0] ?? null),
      amounts.map((a) => a?.[1] ?? null),
    ] as never[],
  );
  return result.count;
}

function parseAmount(text: string | null): [string, number] | undefined {
  if (text === null) return undefined;
  try {
    const [currency, value] = JSON.parse(text) as [unknown, unknown];
    return typeof currency === 'string' && typeof value === 'number' ? [currency, value] : undefined;
  } catch {
    return undefined;
  }
}
