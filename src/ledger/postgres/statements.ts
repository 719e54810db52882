// The PostgreSQL ledger's SQL, kept apart from the code that runs it (schema.ts for the tables). Lists go
// to the server as array parameters (unnest), one statement per call, never a statement per record.

const recordColumns = `target_id, key, content_hash, state, idempotency_key, run_id, seq, first_seen,
  updated_at, message, payload, currency, value`;

export const pgSql = {
  // A target is a base URL and an account (schema.ts migration 2); account NULL: unresolved, from before.
  target: `INSERT INTO revimport.targets (base_url, account, created_at) VALUES ($1, $2, $3)
    ON CONFLICT (base_url, account) DO UPDATE SET base_url = excluded.base_url RETURNING id`,
  unresolvedAny: `SELECT EXISTS (SELECT 1 FROM revimport.targets WHERE base_url = $1 AND account IS NULL)
    AS any`,
  // As the SQLite ledger's `accounts` (ledger/statements.ts): not on a push's path.
  accounts: `SELECT t.id, t.base_url, t.account, t.key_fingerprint,
      (SELECT count(*) FROM revimport.records WHERE target_id = t.id AND state = 'delivered')
        + coalesce((SELECT sum(size) FROM revimport.batches WHERE target_id = t.id AND state = 'delivered'), 0)
        AS delivered,
      (SELECT count(*) FROM revimport.records WHERE target_id = t.id AND state IN ('pending', 'failed'))
        + coalesce((SELECT sum(size) FROM revimport.batches WHERE target_id = t.id AND state = 'pending'), 0)
        AS outstanding,
      greatest((SELECT max(updated_at) FROM revimport.records WHERE target_id = t.id),
        (SELECT max(updated_at) FROM revimport.batches WHERE target_id = t.id),
        (SELECT max(started_at) FROM revimport.runs WHERE target_id = t.id)) AS last_used
    FROM revimport.targets AS t ORDER BY t.base_url, t.account IS NULL, t.account, t.id`,
  nameTarget: 'UPDATE revimport.targets SET account = $2 WHERE id = $1',
  // assign (ledger/statements.ts moveRecords): a delivery wins over any other state, the newer over the older.
  moveRecords: `INSERT INTO revimport.records AS r (${recordColumns})
    SELECT $2, key, content_hash, state, idempotency_key, run_id, seq, first_seen, updated_at, message,
      payload, currency, value
    FROM revimport.records WHERE target_id = $1
    ON CONFLICT (target_id, key) DO UPDATE SET content_hash = excluded.content_hash, state = excluded.state,
      idempotency_key = excluded.idempotency_key, run_id = excluded.run_id, seq = excluded.seq,
      first_seen = least(r.first_seen, excluded.first_seen), updated_at = excluded.updated_at,
      message = excluded.message, payload = excluded.payload, currency = excluded.currency,
      value = excluded.value
    WHERE (excluded.state = 'delivered' AND (r.state <> 'delivered' OR excluded.updated_at > r.updated_at))
      OR (r.state <> 'delivered' AND excluded.updated_at > r.updated_at)`,
  dropRecords: 'DELETE FROM revimport.records WHERE target_id = $1',
  pendingBatchesOf: `SELECT id FROM revimport.batches WHERE target_id IN ($1, $2) AND state = 'pending'
    ORDER BY seq`,
  moveBatches: 'UPDATE revimport.batches SET target_id = $2 WHERE target_id = $1',
  moveRuns: 'UPDATE revimport.runs SET target_id = $2 WHERE target_id = $1',
  // Problems reported already (schema.ts migration 3): a merged target keeps what either side reported.
  moveKnownProblems: `INSERT INTO revimport.known_problems (target_id, fingerprint, run_id, reported_at)
    SELECT $2, fingerprint, run_id, reported_at FROM revimport.known_problems WHERE target_id = $1
    ON CONFLICT DO NOTHING`,
  dropKnownProblems: 'DELETE FROM revimport.known_problems WHERE target_id = $1',
  knownProblems: 'SELECT fingerprint, run_id, reported_at FROM revimport.known_problems WHERE target_id = $1',
  rememberProblems: `INSERT INTO revimport.known_problems (target_id, fingerprint, run_id, reported_at)
    SELECT $1, f, $2, $3 FROM unnest($4::text[]) AS f ON CONFLICT DO NOTHING`,
  dropTarget: 'DELETE FROM revimport.targets WHERE id = $1',
  beginRun: `INSERT INTO revimport.runs (command, files, started_at, pid, host, target_id, key_fingerprint)
    VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
  finishRun: `UPDATE revimport.runs SET counts = $1, exit_code = $2, duration_ms = $3, finished_at = $4
    WHERE id = $5`,
  history: `SELECT id, command, files, started_at, finished_at, counts, exit_code, duration_ms, pid, key_fingerprint
    FROM revimport.runs ORDER BY id DESC LIMIT $1`,
  saveRunReport: 'UPDATE revimport.runs SET report = $1 WHERE id = $2',
  runReport: 'SELECT report FROM revimport.runs WHERE id = $1',
  targetReports: `SELECT report FROM revimport.runs WHERE target_id = $1 AND report IS NOT NULL
    ORDER BY id DESC LIMIT $2`,
  runExists: 'SELECT 1 FROM revimport.runs WHERE id = $1',

  lookup: `SELECT key, state, content_hash, currency, value FROM revimport.records
    WHERE target_id = $1 AND key = ANY ($2::text[])`,

  // A delivered key is left as it is unless $resend (the guard of ledger.ts markPending).
  markPending: `INSERT INTO revimport.records AS r (${recordColumns})
    SELECT $1, e.key, e.hash, 'pending', e.idempotency_key, $2, $3 + e.n, $4, $4, NULL, e.payload, NULL, NULL
    FROM unnest($5::text[], $6::text[], $7::text[], $8::text[]) WITH ORDINALITY
      AS e (key, hash, payload, idempotency_key, n)
    ON CONFLICT (target_id, key) DO UPDATE SET content_hash = excluded.content_hash, state = 'pending',
      idempotency_key = excluded.idempotency_key, run_id = excluded.run_id, seq = excluded.seq,
      updated_at = excluded.updated_at, message = NULL, payload = excluded.payload, currency = NULL,
      value = NULL
    WHERE $9 OR r.state <> 'delivered'`,

  // Pending or failed records take the amount their payload carries; delivered or rejected ones keep theirs.
  markDelivered: `UPDATE revimport.records AS r SET state = 'delivered', idempotency_key = $3, updated_at = $4,
      message = NULL, payload = NULL,
      currency = CASE WHEN r.state IN ('pending', 'failed') THEN revimport.payload_currency(r.payload)
        ELSE r.currency END,
      value = CASE WHEN r.state IN ('pending', 'failed') THEN revimport.payload_value(r.payload) ELSE r.value END
    WHERE r.target_id = $1 AND r.key = ANY ($2::text[])`,

  // Rejections keep the payload a pending or failed record had (a later failure report resends it).
  markRejected: `UPDATE revimport.records AS r SET state = 'rejected', message = e.message, updated_at = $4
    FROM unnest($2::text[], $3::text[]) AS e (key, message)
    WHERE r.target_id = $1 AND r.key = e.key`,

  // A delivered key is never downgraded; a rejected one with its payload comes back failed with a new seq.
  markFailed: `UPDATE revimport.records AS r SET state = 'failed', message = $3, updated_at = $4,
      seq = CASE WHEN r.state = 'rejected' THEN $5 + e.n ELSE r.seq END
    FROM unnest($2::text[]) WITH ORDINALITY AS e (key, n)
    WHERE r.target_id = $1 AND r.key = e.key
      AND (r.state IN ('pending', 'failed') OR (r.state = 'rejected' AND r.payload IS NOT NULL))`,

  reprice: `UPDATE revimport.records SET content_hash = $3, currency = $4, value = $5, updated_at = $6
    WHERE target_id = $1 AND key = $2 AND state = 'delivered'`,

  // Groups (records sharing a key) ordered by their first seq, then seq inside: a batch comes back whole.
  outstanding: `SELECT key, content_hash, payload, idempotency_key, state, seq FROM revimport.records
    WHERE target_id = $1 AND (state = 'failed' OR (state = 'pending' AND run_id IS DISTINCT FROM $2))
    ORDER BY min(seq) OVER (PARTITION BY idempotency_key), seq`,
  journalOutstanding: `SELECT id, seq, idempotency_key, keys, hashes, body FROM revimport.batches
    WHERE target_id = $1 AND state = 'pending' AND run_id IS DISTINCT FROM $2 ORDER BY seq`,

  nextSeq: `SELECT nextval('revimport.seq') * 16777216 AS first`,
  journalBatch: `INSERT INTO revimport.batches (target_id, run_id, seq, size, idempotency_key, state, keys,
      hashes, currencies, amounts, body, created_at, updated_at)
    VALUES ($1, $2, nextval('revimport.seq') * 16777216, $3, $4, 'pending', $5::text[], $6::text[],
      $7::text[], $8::float8[], $9, $10, $10)
    RETURNING id`,
  // One statement, one round trip, committed without waiting for the WAL flush: set_config(..., true) holds
  // for this statement's own (implicit) transaction, whose commit reads it (postgres-ledger.ts, module comment).
  settleBatch: `UPDATE revimport.batches SET state = 'delivered', body = NULL, updated_at = $2
    WHERE id = $1 AND state = 'pending'
      AND (SELECT set_config('synchronous_commit', 'off', true)) IS NOT NULL
    RETURNING size`,
  journalRow: `SELECT target_id, run_id, seq, idempotency_key, keys, hashes, body FROM revimport.batches
    WHERE id = $1 AND state = 'pending' FOR UPDATE`,
  dropBatch: 'DELETE FROM revimport.batches WHERE id = $1',
  journalSettled: `SELECT coalesce(sum(size), 0)::float8 AS n FROM revimport.batches WHERE state = 'delivered'`,

  // The merge: delivered journal rows leave the journal and their records are upserted, sorted by key, in
  // one statement (a row settled meanwhile by another run is either in it or stays for the next merge).
  // A key in two rows: the newer row (seq) wins. An older pending or failed record of a key a row
  // delivered since is overwritten; a newer one stays (it shadows the delivery, as in SQLite).
  merge: `WITH gone AS (DELETE FROM revimport.batches WHERE state = 'delivered' RETURNING *),
    e AS (SELECT DISTINCT ON (g.target_id, k.key) g.target_id, k.key, k.hash, g.idempotency_key, g.run_id,
        g.seq + k.n AS seq, g.created_at, g.updated_at, k.currency, k.value
      FROM gone AS g, unnest(g.keys, g.hashes, g.currencies, g.amounts) WITH ORDINALITY
        AS k (key, hash, currency, value, n)
      ORDER BY g.target_id, k.key, g.seq DESC)
    INSERT INTO revimport.records AS r (${recordColumns})
    SELECT target_id, key, hash, 'delivered', idempotency_key, run_id, seq, created_at, updated_at, NULL, NULL,
      currency, value
    FROM e ORDER BY target_id, key
    ON CONFLICT (target_id, key) DO UPDATE SET content_hash = excluded.content_hash, state = 'delivered',
      idempotency_key = excluded.idempotency_key, run_id = excluded.run_id, seq = excluded.seq,
      updated_at = excluded.updated_at, message = NULL, payload = NULL, currency = excluded.currency,
      value = excluded.value
    WHERE r.state IN ('delivered', 'rejected') OR r.seq < excluded.seq`,

  hasRecords: `SELECT EXISTS (SELECT 1 FROM revimport.records WHERE target_id = $1)
    OR EXISTS (SELECT 1 FROM revimport.batches WHERE target_id = $1) AS any`,

  // counts (see PostgresLedger.counts): a journal row's key is counted in its row's state, over its records
  // row, unless that records row is pending or failed (the per-record state is the newer one then), as in the
  // SQLite ledger. Times are epoch ms, so a delivery in the journal row's millisecond counts beside it.
  counts: `WITH bk AS (SELECT b.state, b.created_at, k.key FROM revimport.batches AS b,
      unnest(b.keys) AS k (key) WHERE b.target_id = $1)
    SELECT state, count(*)::integer AS n FROM (
      SELECT r.state FROM revimport.records AS r WHERE r.target_id = $1
        AND NOT (r.state = 'rejected' AND EXISTS (SELECT 1 FROM bk WHERE bk.key = r.key))
        AND NOT (r.state = 'delivered'
          AND EXISTS (SELECT 1 FROM bk WHERE bk.key = r.key AND bk.created_at > r.updated_at))
      UNION ALL
      SELECT bk.state FROM bk WHERE NOT EXISTS (SELECT 1 FROM revimport.records AS r
        WHERE r.target_id = $1 AND r.key = bk.key AND r.state IN ('pending', 'failed'))) AS s
    GROUP BY state`,
} as const;
