// The PostgreSQL ledger's schema: the tables live in their own schema `revimport` (so they never meet a
// database's own tables), versioned by the `revimport.migrations` table (one row per migration applied).
// Each migration runs in one transaction with its row, under a transaction advisory lock, so two hosts
// opening a new ledger at once migrate it once. Never edit a released migration: append one.

/**
 * Migration 1. One `records` table holds every state (PostgreSQL updates rows in place, so SQLite's split
 * by temperature buys nothing here); `batches` is the journal of issue 14: one row per batch about to be
 * sent, with its keys, hashes and amounts as arrays in body order and the body itself, committed before
 * the request. Keys and hashes are the same strings the SQLite ledger stores (ledger/record-key.ts).
 * Times are epoch ms, as in SQLite. seq orders what was marked pending: a batch draws one number from
 * the sequence and its records are that number times 2^24 plus their place (batches are at most 100,000).
 */
const schemaV1 = `
CREATE TABLE revimport.targets (
  id              bigserial PRIMARY KEY,
  base_url        text   NOT NULL,
  key_fingerprint text   NOT NULL,
  created_at      bigint NOT NULL,
  UNIQUE (base_url, key_fingerprint)
);

CREATE TABLE revimport.runs (
  id          bigserial PRIMARY KEY,
  command     text    NOT NULL CHECK (command IN ('push', 'retry')),
  files       text    NOT NULL,
  started_at  bigint  NOT NULL,
  finished_at bigint,
  counts      text,
  exit_code   integer,
  duration_ms bigint,
  pid         integer NOT NULL,
  host        text
);

-- No foreign keys on records: a merge writes hundreds of thousands of rows at once, and the two key
-- checks per row doubled its time (EXPLAIN ANALYZE, 200,000 records: 3.1 s of 6.8 s). Every target_id and
-- run_id written comes from a journal row (whose keys are checked) or from markPending, which checks its run.
CREATE TABLE revimport.records (
  target_id       bigint NOT NULL,
  key             text   NOT NULL,
  content_hash    text   NOT NULL,
  state           text   NOT NULL CHECK (state IN ('pending', 'delivered', 'rejected', 'failed')),
  idempotency_key text,
  run_id          bigint,
  seq             bigint NOT NULL DEFAULT 0,
  first_seen      bigint NOT NULL,
  updated_at      bigint NOT NULL,
  message         text,
  payload         text,
  currency        text,
  value           double precision,
  PRIMARY KEY (target_id, key)
);
CREATE INDEX records_outstanding ON revimport.records (target_id, seq) WHERE state IN ('pending', 'failed');

CREATE TABLE revimport.batches (
  id              bigserial PRIMARY KEY,
  target_id       bigint  NOT NULL REFERENCES revimport.targets (id),
  run_id          bigint  REFERENCES revimport.runs (id),
  seq             bigint  NOT NULL,
  size            integer NOT NULL,
  idempotency_key text    NOT NULL,
  state           text    NOT NULL CHECK (state IN ('pending', 'delivered')),
  keys            text[]  NOT NULL,
  hashes          text[]  NOT NULL,
  currencies      text[]  NOT NULL,
  amounts         double precision[] NOT NULL,
  body            text,
  created_at      bigint  NOT NULL,
  updated_at      bigint  NOT NULL
);
CREATE INDEX batches_state ON revimport.batches (state, target_id);

CREATE SEQUENCE revimport.seq;

-- The amount a record's wire JSON carries, or NULL for a payload that is not such JSON (never an error:
-- a delivery is recorded whatever its payload looks like).
CREATE FUNCTION revimport.payload_json(payload text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN payload::jsonb;
EXCEPTION WHEN others THEN
  RETURN NULL;
END $$;
CREATE FUNCTION revimport.payload_currency(payload text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(j -> 'conversionCurrency') = 'string'
    AND jsonb_typeof(j -> 'conversionValue') = 'number' THEN j ->> 'conversionCurrency' END
  FROM (SELECT revimport.payload_json(payload) AS j) AS p $$;
CREATE FUNCTION revimport.payload_value(payload text) RETURNS double precision LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(j -> 'conversionCurrency') = 'string'
    AND jsonb_typeof(j -> 'conversionValue') = 'number' THEN (j ->> 'conversionValue')::float8 END
  FROM (SELECT revimport.payload_json(payload) AS j) AS p $$;
`;

/**
 * Migration 2 (issue 19): a target is the CRM account (base URL plus account name), not the key; the key's
 * fingerprint is kept per run. Carried over as in the SQLite ledger's v4 (ledger/migrations.ts): a URL
 * with one target makes it that URL's account (''); a URL with several stays unresolved (account NULL)
 * until its first push or `revimport ledger assign` (accounts.ts). UNIQUE treats NULLs as distinct, so
 * several unresolved targets may share a URL.
 */
const schemaV2 = `
ALTER TABLE revimport.targets ADD COLUMN account text;
ALTER TABLE revimport.targets ALTER COLUMN key_fingerprint DROP NOT NULL;
ALTER TABLE revimport.targets DROP CONSTRAINT targets_base_url_key_fingerprint_key;
UPDATE revimport.targets SET account = '' WHERE base_url IN
  (SELECT base_url FROM revimport.targets GROUP BY base_url HAVING count(*) = 1);
ALTER TABLE revimport.targets ADD CONSTRAINT targets_account UNIQUE (base_url, account);
ALTER TABLE revimport.runs ADD COLUMN target_id bigint, ADD COLUMN key_fingerprint text;
`;

/**
 * Migration 3 (issue 20): problems reported already, as the SQLite ledger's v5 (ledger/migrations.ts): one
 * row per invalid row a run reported, by target and content fingerprint, with the run that reported it first.
 */
const schemaV3 = `
CREATE TABLE revimport.known_problems (
  target_id   bigint NOT NULL,
  fingerprint text   NOT NULL,
  run_id      bigint NOT NULL,
  reported_at bigint NOT NULL,
  PRIMARY KEY (target_id, fingerprint)
);
`;

/** Migration 4 (issue 25): each run's report, as the SQLite ledger's v6 (ledger/migrations.ts). */
const schemaV4 = `
ALTER TABLE revimport.runs ADD COLUMN report text;
`;

/** Migration n+1 is `postgresMigrations[n]`. */
export const postgresMigrations: readonly string[] = [schemaV1, schemaV2, schemaV3, schemaV4];

/**
 * Created before any migration: where the schema version is kept. The schema is created only when it is
 * missing (migrate.ts): even with IF NOT EXISTS, CREATE SCHEMA needs the CREATE right on the database,
 * which a runtime role given an existing `revimport` schema may not have.
 */
export const bootstrap = `
DO $$ BEGIN
  IF to_regnamespace('revimport') IS NULL THEN
    CREATE SCHEMA revimport;
  END IF;
END $$;
CREATE TABLE IF NOT EXISTS revimport.migrations (
  version    integer PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
);
`;
