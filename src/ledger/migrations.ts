// The ledger schema as an ordered list of migrations. PRAGMA user_version holds how many have been
// applied; each runs in its own transaction together with the version bump, so a crash leaves
// the file at a whole version. Never edit a released migration: append a new one.

import type Database from 'better-sqlite3';
import { ConfigError } from '../errors.js';
import { retain } from './native.js';

/** Migration 1, the first release's schema. Exported on its own so tests and tools can reuse it. */
export const schemaV1 = `
CREATE TABLE targets (
  id              INTEGER PRIMARY KEY,
  base_url        TEXT    NOT NULL,
  key_fingerprint TEXT    NOT NULL,
  created_at      INTEGER NOT NULL,
  UNIQUE (base_url, key_fingerprint)
) STRICT;

CREATE TABLE runs (
  id          INTEGER PRIMARY KEY,
  command     TEXT    NOT NULL CHECK (command IN ('push', 'retry')),
  files       TEXT    NOT NULL,
  started_at  INTEGER NOT NULL,
  finished_at INTEGER,
  counts      TEXT,
  exit_code   INTEGER,
  duration_ms INTEGER,
  pid         INTEGER NOT NULL
) STRICT;

-- The ledger is split by temperature so that a batch's writes never touch the big table at random
-- keys (one B-tree page per record, millions of pages). A key's state is read in this order: inflight,
-- then staged (newest row), then records.
--
-- records: delivered and rejected records, the big cold table. Written in bulk, sorted by key, when
-- staged is merged into it (and directly by the few rejections). payload is kept for rejected records
-- only (the issue: the payload lives while the record is not delivered).
CREATE TABLE records (
  target_id       INTEGER NOT NULL REFERENCES targets (id),
  key             TEXT    NOT NULL,
  content_hash    TEXT    NOT NULL,
  state           TEXT    NOT NULL CHECK (state IN ('delivered', 'rejected')),
  idempotency_key TEXT,
  run_id          INTEGER REFERENCES runs (id),
  first_seen      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  message         TEXT,
  payload         TEXT,
  PRIMARY KEY (target_id, key)
) STRICT, WITHOUT ROWID;

-- inflight: records not delivered yet (pending before and during their request, failed after), with
-- their payload. Small: what is in flight plus what failed. A rowid table, so that a batch's rows are
-- appended (and later deleted) together on a few pages; the unique index finds a key.
-- seq: ledger-wide order in which records were marked pending, so a batch that shares an
-- idempotency key can be rebuilt in its original order.
CREATE TABLE inflight (
  id              INTEGER PRIMARY KEY,
  target_id       INTEGER NOT NULL REFERENCES targets (id),
  key             TEXT    NOT NULL,
  content_hash    TEXT    NOT NULL,
  state           TEXT    NOT NULL CHECK (state IN ('pending', 'failed')),
  idempotency_key TEXT,
  run_id          INTEGER REFERENCES runs (id),
  seq             INTEGER NOT NULL,
  first_seen      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  message         TEXT,
  payload         TEXT    NOT NULL
) STRICT;
CREATE UNIQUE INDEX inflight_key ON inflight (target_id, key);

-- staged: delivered records not yet merged into records, appended in delivery order (sequential pages).
-- A key may appear more than once (delivered again after --resend): the newest row wins.
CREATE TABLE staged (
  id              INTEGER PRIMARY KEY,
  target_id       INTEGER NOT NULL,
  key             TEXT    NOT NULL,
  content_hash    TEXT    NOT NULL,
  idempotency_key TEXT,
  run_id          INTEGER,
  first_seen      INTEGER NOT NULL,
  delivered_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX staged_key ON staged (target_id, key);

CREATE TABLE meta (
  name  TEXT    PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
INSERT INTO meta (name, value) VALUES ('next_seq', 1);
`;

/**
 * v2: the amount each key was delivered at, `["USD",232.81]` (JSON), so a later export of the same order
 * with less money (a refund after delivery) is reported with its difference, or adjusted once.
 */
const schemaV2 = `
ALTER TABLE records ADD COLUMN amount TEXT;
ALTER TABLE staged ADD COLUMN amount TEXT;
`;

/**
 * v3 (issue 14): the batch journal. A batch goes out as one `batches` row (its keys, hashes and amounts,
 * in body order) plus its body (`batch_bodies`), committed with synchronous=FULL before the request; the
 * answer settles the row (delivered: the body is dropped); delivered rows are merged into `records` in
 * large sorted steps (ledger.ts `merge`). One row per batch instead of a row per record keeps a commit on
 * a few sequential pages. Rare outcomes (a rejection, a failure, a split body) move the row's records
 * into `inflight` and take the per-record path of v1. Existing ledgers need no data moved: their
 * inflight, staged and records rows keep their meaning, and the journal starts empty.
 *
 * seq: the first of `size` numbers drawn from meta.next_seq, the order shared with inflight.seq, so a
 * resend and a merge can tell which of a journal row and an inflight row is newer.
 */
const schemaV3 = `
CREATE TABLE batches (
  id              INTEGER PRIMARY KEY,
  target_id       INTEGER NOT NULL REFERENCES targets (id),
  run_id          INTEGER REFERENCES runs (id),
  seq             INTEGER NOT NULL,
  size            INTEGER NOT NULL,
  idempotency_key TEXT    NOT NULL,
  state           TEXT    NOT NULL CHECK (state IN ('pending', 'delivered')),
  keys            TEXT    NOT NULL,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
) STRICT;
CREATE TABLE batch_bodies (
  batch_id INTEGER PRIMARY KEY,
  body     TEXT    NOT NULL
) STRICT;
`;

/**
 * v4 (issue 19): a target is the CRM account, not the key. Until v3 a target was a base URL plus the
 * fingerprint of the key used, so a rotated key started an empty target and resent everything. Now a
 * target is a base URL plus an account name ('' for the URL's one account, a name where one URL serves
 * several accounts); the key's fingerprint is kept per run (runs.key_fingerprint) to show rotations.
 *
 * The table is rebuilt (SQLite cannot drop the UNIQUE (base_url, key_fingerprint) constraint), with
 * foreign keys off as SQLite's documented procedure requires (`foreignKeysOff`); ids are kept, so the
 * records, inflight, staged and batches rows keep pointing at their target. A URL with one target makes it
 * the URL's account (''); the targets of a URL with several keys stay unresolved (account NULL) until the
 * first push to that URL: it merges them into one account when at most one of them has deliveries (a key
 * refused or only tried), and otherwise stops (exit 2) until `revimport ledger assign` names or merges them,
 * since revimport cannot tell one account with a rotated key from two accounts (accounts.ts).
 */
const schemaV4 = `
CREATE TABLE targets_v4 (
  id              INTEGER PRIMARY KEY,
  base_url        TEXT    NOT NULL,
  account         TEXT,
  key_fingerprint TEXT,
  created_at      INTEGER NOT NULL,
  UNIQUE (base_url, account)
) STRICT;
INSERT INTO targets_v4 (id, base_url, account, key_fingerprint, created_at)
  SELECT id, base_url, NULL, key_fingerprint, created_at FROM targets;
DROP TABLE targets;
ALTER TABLE targets_v4 RENAME TO targets;

-- A URL with one target: that is its account. The others are resolved at the first push to their URL
-- (accounts.ts automaticAssignment) or by the user (revimport ledger assign).
UPDATE targets SET account = '' WHERE base_url IN (SELECT base_url FROM targets GROUP BY base_url HAVING count(*) = 1);

ALTER TABLE runs ADD COLUMN target_id INTEGER;
ALTER TABLE runs ADD COLUMN key_fingerprint TEXT;
`;

/**
 * v5 (issue 20): problems reported already. One row per invalid row a run reported (written to the rejects
 * file, counted in the summary), by target and fingerprint of the row's content plus its reasons
 * (pipeline/known-problems.ts), with the run that first reported it. A later run that reads the same row
 * counts it `knownInvalid` and does not report it again, so one bad export left in the folder no longer
 * makes every later run exit 1. Existing ledgers start with none known.
 */
const schemaV5 = `
CREATE TABLE known_problems (
  target_id   INTEGER NOT NULL REFERENCES targets (id),
  fingerprint TEXT    NOT NULL,
  run_id      INTEGER NOT NULL,
  reported_at INTEGER NOT NULL,
  PRIMARY KEY (target_id, fingerprint)
) STRICT, WITHOUT ROWID;
`;

/**
 * v6 (issue 25): each run's report (report/run-report.ts RunReport as JSON): revenue per local day and
 * currency, counts by outcome, the value guard's comparison. `revimport report` draws it; the gap check reads
 * the days of a target's earlier runs from it. Earlier runs have none (NULL).
 */
const schemaV6 = `
ALTER TABLE runs ADD COLUMN report TEXT;
`;

/**
 * v7 (issue 23): the key filter (key-filter.ts, key-filter-store.ts): a Bloom filter of every (target, key) in
 * records, kept in 64 KiB pages, so a lookup of a key the ledger never held skips the records table. A new or
 * empty ledger starts with a complete (empty) filter; one that holds records gets its filter built from them by
 * the next opener with write access when no other run is live (ledger.ts `buildKeyFilter`), and is looked up
 * without it until then.
 */
const schemaV7 = `
CREATE TABLE key_filter_segments (
  segment INTEGER PRIMARY KEY,
  pages   INTEGER NOT NULL,
  keys    INTEGER NOT NULL
) STRICT;
CREATE TABLE key_filter_pages (
  segment INTEGER NOT NULL,
  page    INTEGER NOT NULL,
  version INTEGER NOT NULL,
  bits    BLOB    NOT NULL,
  PRIMARY KEY (segment, page)
) STRICT;
INSERT INTO meta (name, value) VALUES ('key_filter_version', 0),
  ('key_filter_complete', NOT EXISTS (SELECT 1 FROM records));
`;

/** The rule that keeps a span true (see v8), on the records table; v9 makes it again on the rebuilt table. */
const spanTriggers = `
CREATE TRIGGER records_delivered_changed AFTER UPDATE ON records
  WHEN OLD.state = 'delivered' AND (NEW.state IS NOT 'delivered' OR NEW.content_hash IS NOT OLD.content_hash
    OR NEW.target_id IS NOT OLD.target_id OR NEW.key IS NOT OLD.key)
  BEGIN DELETE FROM delivered_spans WHERE target_id = OLD.target_id; END;
CREATE TRIGGER records_delivered_gone AFTER DELETE ON records WHEN OLD.state = 'delivered'
  BEGIN DELETE FROM delivered_spans WHERE target_id = OLD.target_id; END;
`;

/**
 * v8 (issue 23): spans of delivered records (pipeline/delivered-spans.ts). A span is a run of consecutive valid
 * records of an export, cut where a record's key says so (content-defined, so a row added at the top moves no
 * later cut), and its digest is SHA-256 over the records' keys and contents in order (SpanContent; until Session
 * 30 over their keys and content hashes: such a row matches no span any more, a few dead bytes per ~380 records
 * until the target's next change drops it). A row here says: every record of that span is in `records` for this
 * target as delivered, at that content. A re-push of the same rows
 * then looks up one span, not a key a record (a cold page each). The rule that keeps it true is held by SQLite
 * itself: any change to a delivered row of records (its state, its content hash, its target or key, or the row
 * deleted) drops every span of that target, in the same statement, whatever code made the change. SQLite only,
 * like the key filter: an index, not part of the ledger's contract.
 */
const schemaV8 = `
CREATE TABLE delivered_spans (
  target_id INTEGER NOT NULL,
  digest    TEXT    NOT NULL,
  records   INTEGER NOT NULL,
  PRIMARY KEY (target_id, digest)
) STRICT, WITHOUT ROWID;
${spanTriggers}`;

/**
 * v9 (issue 23): records becomes a rowid table with a unique index on (target, key), in place of a table keyed by
 * (target, key) itself (WITHOUT ROWID). A merge adds a run's records sorted by key: into the keyed table each one
 * landed between the rows already held, and SQLite rebalanced the full leaf pages around it (up to three pages
 * rewritten a split), so the merge's cost followed the table's size: 1M records merged into 5M in 6.5-7.4 s
 * against 2.3-2.4 into an empty ledger. Now a record's row is appended and only its index entry (target, key,
 * rowid: a fifth of the row) lands between others: 3.0-3.5 s into 5M, 2.0-2.4 into an empty ledger (bench/README.md,
 * "Session 34"). A lookup reads the index and then the row: ~7.8 us a cold key against ~6.5. Same columns, same
 * rows, same constraint (ON CONFLICT (target_id, key) finds the unique index); the spans' triggers go with the old
 * table and are made again. Rebuilt with foreign keys off, as v4 (SQLite's procedure), and in key order, so a
 * migrated ledger's rows lie in its index's order.
 */
const schemaV9 = `
CREATE TABLE records_v9 (
  target_id       INTEGER NOT NULL REFERENCES targets (id),
  key             TEXT    NOT NULL,
  content_hash    TEXT    NOT NULL,
  state           TEXT    NOT NULL CHECK (state IN ('delivered', 'rejected')),
  idempotency_key TEXT,
  run_id          INTEGER REFERENCES runs (id),
  first_seen      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  message         TEXT,
  payload         TEXT,
  amount          TEXT
) STRICT;
INSERT INTO records_v9 (target_id, key, content_hash, state, idempotency_key, run_id, first_seen, updated_at,
    message, payload, amount)
  SELECT target_id, key, content_hash, state, idempotency_key, run_id, first_seen, updated_at, message, payload,
    amount
  FROM records ORDER BY target_id, key;
DROP TABLE records;
ALTER TABLE records_v9 RENAME TO records;
CREATE UNIQUE INDEX records_key ON records (target_id, key);
${spanTriggers}`;

/**
 * v10 (issue 23): the key filter's log (key-filter-store.ts): each key's two hashes as the filter set them, from
 * which one segment is built in place of many without reading the records table; that segment is sealed (no key is
 * added to it after). A ledger that holds records, or whose filter holds keys (a rejection of a key found nowhere adds
 * it), has no log of them yet: its filter is marked not complete, and the next opener with write access builds it
 * again from the records (as after v7: ~8 s for 5M records), writing the log with it; without that, the log would
 * hold fewer keys than the segments and no compaction would ever run.
 */
const schemaV10 = `
CREATE TABLE key_filter_log (
  id     INTEGER PRIMARY KEY,
  pairs  INTEGER NOT NULL,
  hashes BLOB    NOT NULL
) STRICT;
ALTER TABLE key_filter_segments ADD COLUMN sealed INTEGER NOT NULL DEFAULT 0;
UPDATE meta SET value = 0 WHERE name = 'key_filter_complete'
  AND (EXISTS (SELECT 1 FROM records) OR EXISTS (SELECT 1 FROM key_filter_segments WHERE keys > 0));
`;

/**
 * v11 (issue 23): spans of rows already delivered (pipeline/raw-spans.ts). A raw span is a run of consecutive rows
 * of an export, cut where a row's text says so; its digest is SHA-256 over a fingerprint of everything that turns a
 * row into a record (the settings, the file's header, preset and date formats, revimport's version) and the rows'
 * text. A row here says: every row of that span became a valid record with a conversionId (`ids`, a JSON array in
 * row order), and each of those records is in `records` for this target as delivered, at that content; `body`
 * holds what a run counts of them without reading the rows (their currencies, values and local days: RawSpanBody).
 * A push that meets the span counts its rows already sent without checking them. The triggers of v8 are made again
 * to drop a target's raw spans with its delivered spans, in the same statement, on any change to a delivered row.
 */
const schemaV11 = `
CREATE TABLE raw_spans (
  target_id INTEGER NOT NULL,
  digest    TEXT    NOT NULL,
  records   INTEGER NOT NULL,
  ids       TEXT    NOT NULL,
  body      TEXT    NOT NULL,
  PRIMARY KEY (target_id, digest)
) STRICT, WITHOUT ROWID;
DROP TRIGGER records_delivered_changed;
DROP TRIGGER records_delivered_gone;
CREATE TRIGGER records_delivered_changed AFTER UPDATE ON records
  WHEN OLD.state = 'delivered' AND (NEW.state IS NOT 'delivered' OR NEW.content_hash IS NOT OLD.content_hash
    OR NEW.target_id IS NOT OLD.target_id OR NEW.key IS NOT OLD.key)
  BEGIN
    DELETE FROM delivered_spans WHERE target_id = OLD.target_id;
    DELETE FROM raw_spans WHERE target_id = OLD.target_id;
  END;
CREATE TRIGGER records_delivered_gone AFTER DELETE ON records WHEN OLD.state = 'delivered'
  BEGIN
    DELETE FROM delivered_spans WHERE target_id = OLD.target_id;
    DELETE FROM raw_spans WHERE target_id = OLD.target_id;
  END;
`;

/** A migration's SQL, and whether it must run with foreign keys off (a table rebuild). */
export type Migration = string | { readonly sql: string; readonly foreignKeysOff: true };

/** Migration n+1 is `ledgerMigrations[n]`. */
export const ledgerMigrations: readonly Migration[] = [
  schemaV1,
  schemaV2,
  schemaV3,
  { sql: schemaV4, foreignKeysOff: true },
  schemaV5,
  schemaV6,
  schemaV7,
  schemaV8,
  { sql: schemaV9, foreignKeysOff: true },
  schemaV10,
  schemaV11,
];

/** Brings `db` up to `migrations.length`; refuses a file written by a newer revimport. */
export function migrate(db: Database.Database, migrations: readonly Migration[] = ledgerMigrations): void {
  // Fast path without a write lock: a reader (history) must not queue behind a running push.
  if (readVersion(db, migrations) === migrations.length) return;
  const step = db.transaction((): boolean => {
    // Re-read under the write lock: another process may have migrated in between.
    const version = readVersion(db, migrations);
    if (version === migrations.length) return false;
    const migration = migrations[version]!;
    db.exec(typeof migration === 'string' ? migration : migration.sql);
    // A rebuild with foreign keys off must leave every reference whole (SQLite's procedure, step 10).
    if (typeof migration !== 'string' && retain(db.prepare('PRAGMA foreign_key_check')).all().length > 0) {
      throw new Error(`ledger migration ${version + 1} left rows pointing at nothing`);
    }
    // user_version lives in the file header page, so it commits or rolls back with the DDL.
    db.exec(`PRAGMA user_version = ${version + 1}`);
    return true;
  });
  for (;;) {
    const next = migrations[readVersion(db, migrations)];
    // PRAGMA foreign_keys is a no-op inside a transaction: it is switched around the step.
    const keysOff = next !== undefined && typeof next !== 'string' && next.foreignKeysOff;
    if (keysOff) db.exec('PRAGMA foreign_keys = OFF');
    try {
      if (!step.immediate()) return;
    } finally {
      if (keysOff) db.exec('PRAGMA foreign_keys = ON');
    }
  }
}

/**
 * A ledger opened without the run lock must already have this revimport's schema: another run owns it, so it
 * is not migrated then. A new file (version 0: nothing in it yet) gets its schema by `create`.
 */
export function requireCurrent(
  db: Database.Database,
  create: () => void,
  migrations: readonly Migration[] = ledgerMigrations,
): void {
  const version = readVersion(db, migrations);
  if (version === migrations.length) return;
  if (version === 0) {
    create();
    return;
  }
  throw new ConfigError(
    `the ledger ${db.name} has schema version ${version}, not ${migrations.length}, and another run holds it`,
  );
}

function readVersion(db: Database.Database, migrations: readonly Migration[]): number {
  const version = retain(db.prepare('PRAGMA user_version')).pluck().get() as number;
  if (version > migrations.length) {
    throw new ConfigError(
      `the ledger ${db.name} has schema version ${version}, newer than this revimport supports (${migrations.length})`,
      { hint: 'Upgrade revimport, or point REVIMPORT_STATE at another ledger file.' },
    );
  }
  return version;
}
