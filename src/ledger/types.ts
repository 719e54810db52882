// Row shapes the ledger reads and writes. Kept apart from ledger.ts so callers (pipeline, cli
// history/status) can import the types without the better-sqlite3 edge.

export const recordStates = ['pending', 'delivered', 'rejected', 'failed'] as const;
/**
 * `pending`: about to be sent, or in flight (payload kept). `delivered`: the server accepted it
 * (payload dropped). `rejected`: the server refused this record; resending the same content is
 * pointless. `failed`: the batch could not be delivered (network, 5xx after retries); resend it.
 */
export type RecordState = (typeof recordStates)[number];

export const runCommands = ['push', 'retry'] as const;
export type RunCommand = (typeof runCommands)[number];

/** What `lookup` knows about one key. */
export interface LedgerEntry {
  readonly state: RecordState;
  readonly contentHash: string;
  /** What a delivered key was delivered at (ledgers before schema 2 did not keep it). */
  readonly amount?: DeliveredAmount;
}

/**
 * A span's lookup (LedgerPort.lookupSpan): `delivered`, every key of the span is delivered at the content the
 * span's digest was made from, and `entries` holds only the keys a hotter table knows (pending, failed, staged),
 * which win as in any lookup; else `entries` is the keys' lookup.
 */
export interface SpanLookup {
  readonly delivered: boolean;
  readonly entries: Map<string, LedgerEntry>;
}

/** A span of records all delivered (pipeline/delivered-spans.ts): its digest and how many records it holds. */
export interface DeliveredSpan {
  readonly digest: string;
  readonly records: number;
}

/**
 * A span of rows already delivered (pipeline/raw-spans.ts; migrations.ts v11): its digest, how many rows (each a
 * record), their conversionIds in row order (a JSON array) and what a run counts of them (RawSpanBody, JSON).
 */
export interface RawSpan {
  readonly digest: string;
  readonly records: number;
  readonly ids: string;
  readonly body: string;
}

export interface DeliveredAmount {
  readonly currency: string;
  readonly value: number;
}

/** One record about to be sent in a batch. */
export interface PendingEntry {
  readonly key: string;
  readonly contentHash: string;
  /** The record's wire JSON; kept until delivery so a later run can resend the same bytes. */
  readonly payload: string;
  /** The Idempotency-Key of the batch this record goes out in. */
  readonly idempotencyKey: string;
}

/** One record of a journaled batch (Ledger.journalBatch), in body order. */
export interface JournalEntry {
  readonly key: string;
  readonly contentHash: string;
  /** The record's currency and value: kept as the amount it was delivered at. */
  readonly currency: string;
  readonly value: number;
}

/** A JournalEntry in the form the journal stores it: `[key, contentHash, currency, value]`. */
export type PackedJournalEntry = readonly [key: string, contentHash: string, currency: string, value: number];

/**
 * What Ledger.journalBatch takes, in body order: entries as objects, or already packed (the pipeline's:
 * one allocation per record, and no second one to pack it, see journal-entries.ts).
 */
export type JournalEntries = readonly (JournalEntry | PackedJournalEntry)[];

/**
 * A journaled body: the bytes sent (UTF-8 JSON), or the same as text. Bytes cross to the ledger's thread in a
 * buffer moved there and back (journal-slots.ts; bench/README.md "Session 20") and are stored as the same text.
 */
export type JournalBody = string | Uint8Array;

/** A record a later run must resend: `failed`, or `pending` left behind by another run. */
export interface OutstandingRecord {
  readonly key: string;
  readonly contentHash: string;
  readonly payload: string;
  readonly idempotencyKey: string;
  readonly state: 'pending' | 'failed';
  /**
   * The journal row (Ledger.journalBatch) the record is pending in, when it is one: its batch is resent
   * as that body and settled through that row. Absent for records of the per-record tables.
   */
  readonly batchId?: number;
}

export interface MarkPendingOptions {
  /**
   * Turn records that are already `delivered` back into `pending` (an explicit resend).
   * Default false: a delivered key is left untouched and not counted.
   */
  readonly resend?: boolean;
}

export interface BeginRunInput {
  readonly command: RunCommand;
  readonly files: readonly string[];
  /** Epoch ms. Default: the ledger's `now()`. */
  readonly startedAt?: number;
  /** Default: process.pid. */
  readonly pid?: number;
  /** The target the run delivers to (ledger.target). Absent for a run refused before it knew one. */
  readonly targetId?: number;
  /** The fingerprint of the key the run used (target.ts), so `history` shows a rotation. */
  readonly keyFingerprint?: string;
}

export interface FinishRunInput {
  /** The summary counts, stored as JSON. */
  readonly counts: Readonly<Record<string, number>>;
  readonly exitCode: number;
  readonly durationMs: number;
  /** Epoch ms. Default: the ledger's `now()`. */
  readonly finishedAt?: number;
  /**
   * Problems this run reported for the first time (issue 20), remembered with the run's outcome in the same
   * transaction, so a later run counts them known: fingerprints from pipeline/known-problems.ts.
   */
  readonly reported?: { readonly targetId: number; readonly fingerprints: readonly string[] };
}

/** The run that first reported a problem (issue 20), and when (epoch ms). */
export interface ReportedIn {
  readonly runId: number;
  readonly at: number;
}

/** One row of `revimport history`. Times are epoch ms; the `finish` fields are null while running or after a crash. */
export interface RunRow {
  readonly id: number;
  readonly command: RunCommand;
  readonly files: string[];
  readonly startedAt: number;
  readonly finishedAt: number | null;
  readonly counts: Record<string, number> | null;
  readonly exitCode: number | null;
  readonly durationMs: number | null;
  readonly pid: number;
  /** The fingerprint of the key the run used; null for runs recorded before schema 4 or refused early. */
  readonly keyFingerprint: string | null;
}

/**
 * One target of the ledger as `revimport ledger accounts` lists it. `account` null: carried over from a
 * ledger before schema 4 with several keys on one URL, not resolved to an account yet.
 */
export interface AccountRow {
  readonly id: number;
  readonly baseUrl: string;
  readonly account: string | null;
  /** The key this target was keyed by before schema 4; null for targets created since. */
  readonly keyFingerprint: string | null;
  readonly delivered: number;
  readonly outstanding: number;
  /** Epoch ms of the newest write for this target; null when nothing was ever written. */
  readonly lastUsed: number | null;
}

/** What `revimport ledger assign` did: the target kept, and how many others were merged into it. */
export interface AssignResult {
  readonly targetId: number;
  readonly merged: number;
}

export type StateCounts = Record<RecordState, number>;
