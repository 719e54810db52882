// What the pipeline needs of the ledger during a run, as one interface that the ledger itself (every call
// synchronous) and the ledger on a worker thread (worker-ledger.ts: writes answered later) both satisfy.
// The pipeline awaits what it must know (a lookup, a journal row being durable) and tracks the rest.
import type { JournalDraft } from './journal-draft.js';
import type {
  DeliveredAmount,
  DeliveredSpan,
  JournalBody,
  JournalEntries,
  LedgerEntry,
  MarkPendingOptions,
  OutstandingRecord,
  PendingEntry,
  RawSpan,
  SpanLookup,
} from './types.js';

export type Awaitable<T> = T | Promise<T>;

/** The methods of `Ledger` a run calls between `beginRun` and `finishRun` (see there for each). */
export interface LedgerPort {
  lookup(targetId: number, keys: readonly string[]): Awaitable<Map<string, LedgerEntry>>;
  /**
   * A span's keys (pipeline/delivered-spans.ts) looked up through its digest: one row read when the ledger
   * noted the span delivered, the keys' lookup otherwise. Optional: an index of SQLite's (PostgreSQL looks
   * every chunk up in one indexed statement).
   */
  lookupSpan?(targetId: number, keys: readonly string[], digest: string): Awaitable<SpanLookup>;
  /** Notes spans whose every record is delivered (after merging what this run delivered into records). */
  noteSpans?(targetId: number, spans: readonly DeliveredSpan[]): Awaitable<number>;
  /**
   * A span of rows noted delivered (pipeline/raw-spans.ts), unless a hotter table (pending, failed, staged) names
   * a key of it: then undefined, as for a span never noted. Optional, SQLite's like lookupSpan.
   */
  lookupRawSpan?(targetId: number, digest: string): Awaitable<RawSpan | undefined>;
  /** The digests of the spans of rows noted for the target (a run reads them once, before its rows). */
  rawSpanDigests?(targetId: number): Awaitable<string[]>;
  /** Notes spans of rows whose every record is delivered, during the run (no merge first: Ledger.noteRawSpans). */
  noteRawSpans?(targetId: number, spans: readonly RawSpan[]): Awaitable<number>;
  /**
   * From here to `lookupsDone` the run looks up only keys it has not delivered itself: what it resent from
   * earlier runs is merged already (resend.ts), and the in-run duplicate checks stop a repeated conversionId, and
   * a record without one past its file's count of it, before the lookup (checked-rows.ts, content-counts.ts). So
   * the lookups may keep SQLite's key filter as it stands at the first (what earlier runs delivered) and skip the
   * pages this run's own merges add: 9.7 MiB at 5M records. Optional: a memory hint only.
   */
  lookupsBegin?(): void;
  /**
   * The run looks nothing up any more: what its lookups held in memory (SQLite's key filter copy, the page cache)
   * goes before the final merge. Later lookups still answer, reading it again. Optional: a memory hint only.
   */
  lookupsDone?(): void;
  journalBatch(
    targetId: number,
    runId: number,
    idempotencyKey: string,
    entries: JournalEntries,
    body: JournalBody,
  ): Awaitable<number>;
  /**
   * journalBatch with the entries in a draft (journal-draft.ts), whose records' content hashes are taken on the
   * ledger's own thread; the draft is read before this returns (the caller writes the next batch's into it).
   * Optional: a ledger on the caller's thread, or one that stores entries as arrays, takes journalBatch.
   */
  journalDraft?(
    targetId: number,
    runId: number,
    idempotencyKey: string,
    draft: JournalDraft,
    body: JournalBody,
  ): Awaitable<number>;
  settleBatch(batchId: number): Awaitable<number>;
  unjournal(batchId: number): Awaitable<number>;
  markPending(
    targetId: number,
    runId: number,
    entries: readonly PendingEntry[],
    options?: MarkPendingOptions,
  ): Awaitable<number>;
  markDelivered(targetId: number, keys: readonly string[], idempotencyKey: string): Awaitable<number>;
  markRejected(targetId: number, entries: readonly { key: string; message: string }[]): Awaitable<number>;
  markFailed(targetId: number, keys: readonly string[], reason: string): Awaitable<number>;
  reprice(targetId: number, key: string, contentHash: string, amount: DeliveredAmount): Awaitable<number>;
  outstanding(targetId: number, currentRunId: number): Awaitable<OutstandingRecord[]>;
  merge(): Awaitable<number>;
}
