// The ledger's SQL, kept apart from the code that runs it. Tables (migrations.ts): inflight (pending,
// failed), staged (delivered, not merged yet), records (delivered, rejected). A key's state is the
// first found in that order; every statement below keeps that precedence true.

/**
 * One key bound alone, as its JSON text (ledger.ts `reprice`, `markRejected`): keys reach the ledger through
 * JSON everywhere else (json_each), where SQLite keeps a lone surrogate as its three generalized UTF-8 bytes,
 * while Node 24 converts a string bound directly to U+FFFD; bound as text, such a key's row would not be found.
 */
const boundKey = "(:key ->> '$')";

/** A key's newest staged row (a key is staged again when it is delivered again before a merge). */
const newestStaged = (target: string, key: string) =>
  `(SELECT max(id) FROM staged WHERE target_id = ${target} AND key = ${key})`;

/** lookupHot's rows: each key's newest staged row, then its inflight row (`k`: the chunk's keys). */
const hotRows = `SELECT k.n, 'delivered', s.content_hash, s.amount FROM k
      CROSS JOIN staged AS s ON s.target_id = :target AND s.key = k.key
    WHERE s.id = ${newestStaged(':target', 'k.key')}
    UNION ALL
    SELECT k.n, i.state, i.content_hash, NULL FROM k
      CROSS JOIN inflight AS i ON i.target_id = :target AND i.key = k.key`;

export const sql = {
  // markPending's own durability (see there); prepared once (native.ts).
  syncFull: 'PRAGMA synchronous = FULL',
  syncNormal: 'PRAGMA synchronous = NORMAL',
  // A target is a base URL and an account (migrations.ts v4); account NULL: a target carried over from
  // before v4 that is not resolved to an account yet (`revimport ledger assign`).
  target: `INSERT INTO targets (base_url, account, key_fingerprint, created_at) VALUES (?, ?, NULL, ?)
    ON CONFLICT (base_url, account) DO UPDATE SET base_url = excluded.base_url RETURNING id`,
  unresolvedAny: 'SELECT EXISTS (SELECT 1 FROM targets WHERE base_url = ? AND account IS NULL) AS any',
  // Every target with what it holds and when it was last written: `revimport ledger accounts`, and the
  // list a push to an unresolved URL stops with. Counts scan the target's rows: not on a push's path.
  accounts: `SELECT t.id, t.base_url, t.account, t.key_fingerprint,
      (SELECT count(*) FROM records WHERE target_id = t.id AND state = 'delivered')
        + (SELECT count(DISTINCT key) FROM staged WHERE target_id = t.id)
        + coalesce((SELECT sum(size) FROM batches WHERE target_id = t.id AND state = 'delivered'), 0)
        AS delivered,
      (SELECT count(*) FROM inflight WHERE target_id = t.id)
        + coalesce((SELECT sum(size) FROM batches WHERE target_id = t.id AND state = 'pending'), 0)
        AS outstanding,
      max(coalesce((SELECT max(updated_at) FROM records WHERE target_id = t.id), 0),
        coalesce((SELECT max(updated_at) FROM inflight WHERE target_id = t.id), 0),
        coalesce((SELECT max(delivered_at) FROM staged WHERE target_id = t.id), 0),
        coalesce((SELECT max(updated_at) FROM batches WHERE target_id = t.id), 0),
        coalesce((SELECT max(started_at) FROM runs WHERE target_id = t.id), 0)) AS last_used
    FROM targets AS t ORDER BY t.base_url, t.account IS NULL, t.account, t.id`,
  nameTarget: 'UPDATE targets SET account = :account WHERE id = :id',
  // assign: one target's rows move into another (both of one URL, judged one account by the user). A
  // delivered record wins over a rejected one, and the newer delivery over the older (rows come oldest first).
  moveRecords: `INSERT INTO records AS r (target_id, key, content_hash, state, idempotency_key, run_id,
      first_seen, updated_at, message, payload, amount)
    SELECT :into, key, content_hash, state, idempotency_key, run_id, first_seen, updated_at, message,
      payload, amount
    FROM records WHERE target_id = :from ORDER BY updated_at
    ON CONFLICT (target_id, key) DO UPDATE SET content_hash = excluded.content_hash, state = excluded.state,
      idempotency_key = excluded.idempotency_key, run_id = excluded.run_id,
      first_seen = min(r.first_seen, excluded.first_seen), updated_at = excluded.updated_at,
      message = excluded.message, payload = excluded.payload, amount = excluded.amount
    WHERE excluded.state = 'delivered' OR r.state <> 'delivered'`,
  dropRecords: 'DELETE FROM records WHERE target_id = :from',
  pendingBatchesOf: `SELECT id FROM batches WHERE target_id = :from AND state = 'pending' ORDER BY seq`,
  // A record outstanding under one key that the other delivered is not resent; otherwise it moves.
  dropDeliveredInflight: `DELETE FROM inflight WHERE target_id = :from AND key IN
    (SELECT key FROM records WHERE target_id = :into AND state = 'delivered')`,
  moveInflight: 'UPDATE OR IGNORE inflight SET target_id = :into WHERE target_id = :from',
  dropInflightOf: 'DELETE FROM inflight WHERE target_id = :from',
  moveStaged: 'UPDATE staged SET target_id = :into WHERE target_id = :from',
  moveBatches: 'UPDATE batches SET target_id = :into WHERE target_id = :from',
  moveRuns: 'UPDATE runs SET target_id = :into WHERE target_id = :from',
  // Problems reported already (migrations.ts v5): a merged target keeps what either side reported.
  moveKnownProblems: 'UPDATE OR IGNORE known_problems SET target_id = :into WHERE target_id = :from',
  dropKnownProblems: 'DELETE FROM known_problems WHERE target_id = :from',
  knownProblems: 'SELECT fingerprint, run_id, reported_at FROM known_problems WHERE target_id = ?',
  rememberProblems: `INSERT OR IGNORE INTO known_problems (target_id, fingerprint, run_id, reported_at)
    SELECT :target, value, :run, :now FROM json_each(:fingerprints)`,
  dropTarget: 'DELETE FROM targets WHERE id = :from',
  beginRun: `INSERT INTO runs (command, files, started_at, pid, target_id, key_fingerprint)
    VALUES (?, ?, ?, ?, ?, ?)`,
  finishRun: 'UPDATE runs SET counts = ?, exit_code = ?, duration_ms = ?, finished_at = ? WHERE id = ?',
  history: `SELECT id, command, files, started_at, finished_at, counts, exit_code, duration_ms, pid, key_fingerprint
    FROM runs ORDER BY id DESC LIMIT ?`,
  saveRunReport: 'UPDATE runs SET report = ? WHERE id = ?',
  runReport: 'SELECT report FROM runs WHERE id = ?',
  targetReports: `SELECT report FROM runs WHERE target_id = ? AND report IS NOT NULL ORDER BY id DESC LIMIT ?`,
  liveRuns: 'SELECT pid FROM runs WHERE finished_at IS NULL',

  // lookup (ledger.ts): the records table for the keys the key filter cannot rule out, then, when inflight or
  // staged hold anything, the hot tables for the whole chunk; the caller lets a later row overwrite an earlier
  // one, so the hotter state wins. Each row names its key by its position in :keys (json_each's key), so no
  // key text comes back. The keys drive the join, probing the table once each in the caller's order: `key IN
  // (SELECT ...)` first built and sorted a temporary index of the chunk's keys, which cost more than the
  // probes' order saved (bench/README.md, "the lookup").
  lookupRecords: `SELECT k.key, r.state, r.content_hash, r.amount FROM json_each(:keys) AS k
      CROSS JOIN records AS r ON r.target_id = :target AND r.key = k.value`,
  lookupHot: `WITH k (n, key) AS MATERIALIZED (SELECT key, value FROM json_each(:keys)) ${hotRows}`,
  // The keys a merge is about to add to records, for the key filter (key-filter-store.ts), a page at a time
  // (native.ts `paged`).
  stagedKeys: 'SELECT id, target_id, key FROM staged WHERE id > ? ORDER BY id LIMIT 10000',
  // The journal's keys alone, its rows' entries read by SQLite: in JavaScript, a page of whole entries (64 rows'
  // text, ~3.5 MiB) and its parse grew a 1M-entry merge's heap by 15 MiB (issue 23). A row without entries still
  // gives one row (key NULL): a page of such rows alone must not read as the end. The batches whose keys the
  // writer added ahead (key-filter-store.ts addAhead), a JSON array of ids, are left out.
  journalKeys: `SELECT b.id, b.target_id, e.value ->> 0 FROM (SELECT id, target_id, keys FROM batches
      WHERE state = 'delivered' AND id > ? AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT 2)
      AS b LEFT JOIN jsonb_each(b.keys) AS e
    ORDER BY b.id`,
  // A key's page cursor is its bytes (a BLOB, cast back): a key holding a lone surrogate reads back as other
  // text than it is stored as (key-filter.ts filterForm), and a cursor of that text would skip keys.
  targetKeys: `SELECT key, CAST(key AS BLOB) FROM records WHERE target_id = :from AND key > CAST(:after AS TEXT)
    ORDER BY key LIMIT 10000`,
  hotAny: 'SELECT EXISTS (SELECT 1 FROM inflight) OR EXISTS (SELECT 1 FROM staged) AS any',
  // Spans of delivered records (migrations.ts v8, pipeline/delivered-spans.ts): a span known, and one noted.
  spanKnown: 'SELECT records FROM delivered_spans WHERE target_id = :target AND digest = :digest',
  noteSpan: `INSERT INTO delivered_spans (target_id, digest, records) VALUES (:target, :digest, :records)
    ON CONFLICT (target_id, digest) DO NOTHING`,
  // Spans of rows already delivered (migrations.ts v11, pipeline/raw-spans.ts).
  rawSpanKnown: 'SELECT records, ids, body FROM raw_spans WHERE target_id = :target AND digest = :digest',
  rawSpanDigests: 'SELECT digest FROM raw_spans WHERE target_id = ?',
  noteRawSpan: `INSERT INTO raw_spans (target_id, digest, records, ids, body)
    VALUES (:target, :digest, :records, :ids, :body) ON CONFLICT (target_id, digest) DO NOTHING`,

  reserveSeq: `UPDATE meta SET value = value + ? WHERE name = 'next_seq' RETURNING value - ? AS first`,
  // A key not in inflight is delivered when it is staged or delivered in records: left alone unless
  // :resend. The records row is probed once, for the guard and for first_seen.
  markPending: `INSERT INTO inflight AS i (target_id, key, content_hash, state, idempotency_key, run_id,
      seq, first_seen, updated_at, message, payload)
    SELECT :target, e.value ->> 0, e.value ->> 1, 'pending', e.value ->> 3, :run, :seq + e.key,
      coalesce(r.first_seen,
        (SELECT first_seen FROM staged WHERE target_id = :target AND key = e.value ->> 0 LIMIT 1), :now),
      :now, NULL, e.value ->> 2
    FROM json_each(:entries) AS e
      LEFT JOIN records AS r ON r.target_id = :target AND r.key = e.value ->> 0
    WHERE :resend
      OR EXISTS (SELECT 1 FROM inflight WHERE target_id = :target AND key = e.value ->> 0)
      OR (r.state IS NOT 'delivered'
        AND NOT EXISTS (SELECT 1 FROM staged WHERE target_id = :target AND key = e.value ->> 0))
    ON CONFLICT (target_id, key) DO UPDATE SET content_hash = excluded.content_hash, state = 'pending',
      idempotency_key = excluded.idempotency_key, run_id = excluded.run_id, seq = excluded.seq,
      updated_at = excluded.updated_at, message = NULL, payload = excluded.payload`,

  // markDelivered, step 1: inflight rows move to staged (step 3 deletes them from inflight).
  // The amount delivered is read from the payload (the record's wire JSON) before it is dropped.
  stageInflight: `INSERT INTO staged (target_id, key, content_hash, idempotency_key, run_id, first_seen,
      delivered_at, amount)
    SELECT target_id, key, content_hash, :idempotencyKey, run_id, first_seen, :now,
      CASE WHEN json_valid(payload) THEN json_array(payload ->> '$.conversionCurrency',
        payload -> '$.conversionValue') END
    FROM inflight
    WHERE target_id = :target AND key IN (SELECT value FROM json_each(:keys))`,
  // Step 2, only when some keys were not in inflight: keys already delivered or rejected are marked
  // delivered again (as the single-table ledger did), from their newest staged row or records row.
  stageSettled: `INSERT INTO staged (target_id, key, content_hash, idempotency_key, run_id, first_seen,
      delivered_at, amount)
    SELECT :target, k.key, coalesce(s.content_hash, r.content_hash), :idempotencyKey,
      coalesce(s.run_id, r.run_id), coalesce(s.first_seen, r.first_seen), :now,
      CASE WHEN s.id IS NOT NULL THEN s.amount ELSE r.amount END
    FROM (SELECT DISTINCT value AS key FROM json_each(:keys)) AS k
      LEFT JOIN records AS r ON r.target_id = :target AND r.key = k.key
      LEFT JOIN staged AS s ON s.id = ${newestStaged(':target', 'k.key')}
    WHERE (r.key IS NOT NULL OR s.id IS NOT NULL)
      AND NOT EXISTS (SELECT 1 FROM inflight WHERE target_id = :target AND key = k.key)`,
  unflight: `DELETE FROM inflight WHERE target_id = :target AND key IN (SELECT value FROM json_each(:keys))`,
  // Cheap upper bound of staged rows (rowid range; rejections leave gaps): decides when to merge.
  stagedSpan: 'SELECT coalesce((SELECT max(id) FROM staged) - (SELECT min(id) FROM staged) + 1, 0) AS n',
  stagedAny: 'SELECT EXISTS (SELECT 1 FROM staged) AS any',
  // The bulk merge: sorted by key, so each records page is written once per merge, not once per
  // record. Within a key, staged rows come in id order, so the newest one is applied last.
  // `WHERE true` lets the parser tell the upsert clause from a join constraint (SQLite docs, UPSERT).
  merge: `INSERT INTO records AS r (target_id, key, content_hash, state, idempotency_key, run_id,
      first_seen, updated_at, message, payload, amount)
    SELECT target_id, key, content_hash, 'delivered', idempotency_key, run_id, first_seen, delivered_at,
      NULL, NULL, amount
    FROM staged WHERE true ORDER BY target_id, key, id
    ON CONFLICT (target_id, key) DO UPDATE SET content_hash = excluded.content_hash, state = 'delivered',
      idempotency_key = excluded.idempotency_key, run_id = excluded.run_id,
      updated_at = excluded.updated_at, message = NULL, payload = NULL, amount = excluded.amount`,
  // An order whose refund was delivered as an adjustment now stands at its new content and amount.
  repriceRecord: `UPDATE records SET content_hash = :hash, amount = :amount, updated_at = :now
    WHERE target_id = :target AND key = ${boundKey} AND state = 'delivered'`,
  repriceStaged: `UPDATE staged SET content_hash = :hash, amount = :amount
    WHERE id = ${newestStaged(':target', boundKey)}`,
  clearStaged: 'DELETE FROM staged',

  // markRejected, one key at a time (rejections are few): from inflight, else from the newest staged
  // row, else the records row changes state; then the key leaves the hotter tables.
  rejectInflight: `INSERT INTO records AS r (target_id, key, content_hash, state, idempotency_key, run_id,
      first_seen, updated_at, message, payload)
    SELECT target_id, key, content_hash, 'rejected', idempotency_key, run_id, first_seen, :now,
      :message, payload
    FROM inflight WHERE target_id = :target AND key = ${boundKey}
    ON CONFLICT (target_id, key) DO UPDATE SET content_hash = excluded.content_hash, state = 'rejected',
      idempotency_key = excluded.idempotency_key, run_id = excluded.run_id,
      updated_at = excluded.updated_at, message = excluded.message, payload = excluded.payload`,
  rejectStaged: `INSERT INTO records AS r (target_id, key, content_hash, state, idempotency_key, run_id,
      first_seen, updated_at, message, payload)
    SELECT target_id, key, content_hash, 'rejected', idempotency_key, run_id, first_seen, :now,
      :message, NULL
    FROM staged WHERE id = ${newestStaged(':target', boundKey)}
    ON CONFLICT (target_id, key) DO UPDATE SET content_hash = excluded.content_hash, state = 'rejected',
      idempotency_key = excluded.idempotency_key, run_id = excluded.run_id,
      updated_at = excluded.updated_at, message = excluded.message, payload = NULL`,
  rejectRecord: `UPDATE records SET state = 'rejected', message = :message, updated_at = :now
    WHERE target_id = :target AND key = ${boundKey}`,
  dropInflight: `DELETE FROM inflight WHERE target_id = :target AND key = ${boundKey}`,
  dropStaged: `DELETE FROM staged WHERE target_id = :target AND key = ${boundKey}`,

  failInflight: `UPDATE inflight SET state = 'failed', message = :reason, updated_at = :now
    WHERE target_id = :target AND key IN (SELECT value FROM json_each(:keys))`,
  // A rejected record (with its payload) that is reported failed comes back to inflight, with a new
  // seq: it joins the end of its batch's group. Delivered records are never downgraded.
  failRejected: `INSERT INTO inflight (target_id, key, content_hash, state, idempotency_key, run_id, seq,
      first_seen, updated_at, message, payload)
    SELECT r.target_id, r.key, r.content_hash, 'failed', r.idempotency_key, r.run_id, :seq + e.key,
      r.first_seen, :now, :reason, r.payload
    FROM json_each(:keys) AS e
      CROSS JOIN records AS r ON r.target_id = :target AND r.key = e.value
    WHERE r.state = 'rejected' AND r.payload IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM inflight WHERE target_id = :target AND key = e.value)
      AND NOT EXISTS (SELECT 1 FROM staged WHERE target_id = :target AND key = e.value)`,

  // Groups ordered by their first seq, then seq inside: a batch comes back whole and in order.
  outstanding: `SELECT key, content_hash, payload, idempotency_key, state, seq FROM inflight
    WHERE target_id = :target AND (state = 'failed' OR run_id IS NOT :run)
    ORDER BY min(seq) OVER (PARTITION BY idempotency_key), seq`,

  // The batch journal (migrations.ts v3). keys: JSON [[key, contentHash, currency, value], ...] in body order.
  journalBatch: `INSERT INTO batches (target_id, run_id, seq, size, idempotency_key, state, keys, created_at,
      updated_at)
    VALUES (:target, :run, :seq, :size, :idempotencyKey, 'pending', CAST(:keys AS TEXT), :now, :now)`,
  // A body given as bytes (the pipeline's: transport/body-bytes.ts) is stored as the text it encodes.
  journalBody: 'INSERT INTO batch_bodies (batch_id, body) VALUES (?, CAST(? AS TEXT))',
  settleBatch: `UPDATE batches SET state = 'delivered', updated_at = :now WHERE id = :id AND state = 'pending'
    RETURNING size`,
  dropBody: 'DELETE FROM batch_bodies WHERE batch_id = ?',
  dropBatch: 'DELETE FROM batches WHERE id = ?',
  journalRow: `SELECT b.target_id, b.run_id, b.idempotency_key, b.keys, b.created_at, bb.body
    FROM batches AS b LEFT JOIN batch_bodies AS bb ON bb.batch_id = b.id WHERE b.id = ? AND b.state = 'pending'`,
  journalSettled: `SELECT coalesce(sum(size), 0) AS n FROM batches WHERE state = 'delivered'`,
  journalAny: `SELECT EXISTS (SELECT 1 FROM batches WHERE state = 'delivered') AS any`,
  journalOutstanding: `SELECT b.id, b.seq, b.idempotency_key, b.keys, bb.body FROM batches AS b
      JOIN batch_bodies AS bb ON bb.batch_id = b.id
    WHERE b.target_id = :target AND b.state = 'pending' AND b.run_id IS NOT :run ORDER BY b.seq`,
  // The journal's share of a merge: delivered rows' records, sorted by key (a key in two rows: the newer
  // row, by seq, is applied last and wins). first_seen of a new record is its batch's time. A row's entries
  // are read with jsonb_each, here and below: each entry comes as SQLite's binary JSON, whose fields `->>`
  // reads without parsing text again (json_each hands each entry on as text, parsed again by every `->>`).
  // 1M journal entries merged in 2.9 s against 3.5, the same records (bench/README.md, "Session 22").
  mergeJournal: `INSERT INTO records AS r (target_id, key, content_hash, state, idempotency_key, run_id,
      first_seen, updated_at, message, payload, amount)
    SELECT b.target_id, e.value ->> 0, e.value ->> 1, 'delivered', b.idempotency_key, b.run_id,
      b.created_at, b.updated_at, NULL, NULL, json_array(e.value ->> 2, e.value -> 3)
    FROM batches AS b, jsonb_each(b.keys) AS e WHERE b.state = 'delivered' ORDER BY 1, 2, b.seq
    ON CONFLICT (target_id, key) DO UPDATE SET content_hash = excluded.content_hash, state = 'delivered',
      idempotency_key = excluded.idempotency_key, run_id = excluded.run_id,
      updated_at = excluded.updated_at, message = NULL, payload = NULL, amount = excluded.amount`,
  // An older inflight row (failed or pending) of a key a journal row delivered since would shadow the
  // delivery in lookups and be resent: it goes with the merge. Only run when inflight has rows at all.
  inflightAny: 'SELECT EXISTS (SELECT 1 FROM inflight) AS any',
  unflightJournal: `DELETE FROM inflight WHERE id IN (
    SELECT i.id FROM batches AS b, jsonb_each(b.keys) AS e
      JOIN inflight AS i ON i.target_id = b.target_id AND i.key = e.value ->> 0
    WHERE b.state = 'delivered' AND i.seq < b.seq)`,
  clearJournal: `DELETE FROM batches WHERE state = 'delivered'`,
  countJournal: `SELECT b.state, count(*) AS n FROM batches AS b, jsonb_each(b.keys) AS e
    WHERE b.target_id = :target
      AND NOT EXISTS (SELECT 1 FROM inflight WHERE target_id = :target AND key = e.value ->> 0)
    GROUP BY b.state`,
  countJournalShadowed: `SELECT r.state, count(*) AS n FROM batches AS b, jsonb_each(b.keys) AS e
      CROSS JOIN records AS r ON r.target_id = :target AND r.key = e.value ->> 0
    WHERE b.target_id = :target
      AND NOT EXISTS (SELECT 1 FROM inflight WHERE target_id = :target AND key = e.value ->> 0)
    GROUP BY r.state`,

  // deliveredValues (delivered-values.ts), each bounded by :limit: records in key order (their (target, key)
  // index's order, so a range read, not a scan), the newest staged row of a key, the delivered journal rows' records.
  // :currency NULL reads every currency; else only that one (a probe: a scan of the target's records, where
  // the text prefix `["JPY",` rules a row out 4 times faster than parsing its JSON: 0.3 s per 1M records, not 0.75).
  deliveredRecords: `SELECT key, amount ->> 0, amount ->> 1 FROM records
    WHERE target_id = :target AND state = 'delivered' AND amount IS NOT NULL
      AND (:currency IS NULL OR (amount LIKE :prefix AND amount ->> 0 = :currency))
    ORDER BY key LIMIT :limit`,
  deliveredStaged: `SELECT key, amount ->> 0, amount ->> 1 FROM staged AS s
    WHERE target_id = :target AND amount IS NOT NULL AND id = ${newestStaged(':target', 's.key')}
      AND (:currency IS NULL OR amount ->> 0 = :currency)
    ORDER BY key LIMIT :limit`,
  deliveredJournal: `SELECT e.value ->> 0, e.value ->> 2, e.value ->> 3 FROM batches AS b, jsonb_each(b.keys) AS e
    WHERE b.target_id = :target AND b.state = 'delivered' AND (:currency IS NULL OR e.value ->> 2 = :currency)
    LIMIT :limit`,

  // hasRecords: each probe is one index seek (batches has none on target_id, but holds only the batches not
  // yet merged: a run merges before it asks).
  hasRecords: `SELECT EXISTS (SELECT 1 FROM records WHERE target_id = :target)
    OR EXISTS (SELECT 1 FROM inflight WHERE target_id = :target)
    OR EXISTS (SELECT 1 FROM staged WHERE target_id = :target)
    OR EXISTS (SELECT 1 FROM batches WHERE target_id = :target) AS any`,

  // counts: records and staged rows shadowed by a hotter table are subtracted, found from the small side.
  countInflight: 'SELECT state, count(*) AS n FROM inflight WHERE target_id = :target GROUP BY state',
  countStaged: `SELECT count(DISTINCT key) AS n FROM staged AS s WHERE target_id = :target
    AND NOT EXISTS (SELECT 1 FROM inflight WHERE target_id = :target AND key = s.key)`,
  countRecords: 'SELECT state, count(*) AS n FROM records WHERE target_id = :target GROUP BY state',
  countShadowed: `SELECT r.state, count(*) AS n
    FROM (SELECT key FROM inflight WHERE target_id = :target UNION SELECT key FROM staged WHERE target_id = :target) AS k
      CROSS JOIN records AS r ON r.target_id = :target AND r.key = k.key
    GROUP BY r.state`,
} as const;
