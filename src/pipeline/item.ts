// What the pipeline hands the deliverer per record: the wire record, its ledger identity and provenance.
import type { SourceRow } from '../input/types.js';
import type { JournalDraft } from '../ledger/journal-draft.js';
import { contentHash } from '../ledger/record-key.js';
import type { DeliveredAmount } from '../ledger/types.js';
import type { ConversionRecord } from '../record/fields.js';
import type { SpanContent, SpanTally } from './delivered-spans.js';
import type { RawSpanTally } from './raw-spans.js';

/** What the deliverer carries per record: the wire record and where it came from. */
export interface Item {
  record: ConversionRecord;
  key: string;
  /**
   * contentHash(record): given where the key needed it (no conversionId) or the row thread computed it, else taken
   * at the record's look-up (lookup-queue.ts), and only for a record not found delivered; let go once its batch's
   * journal row holds it (deliver/delivery-ledger.ts). Read through hashOf.
   */
  contentHash: string | undefined;
  /**
   * Where a record looked up without its hash (a new one) keeps its content bytes, in its span's (`contentIndex`th):
   * its journal row's entry takes them, and its hash is taken from them on the ledger's thread (journal-draft.ts);
   * any other reader takes the hash from them through hashOf. Let go once read.
   */
  content?: SpanContent | undefined;
  contentIndex?: number;
  /** The record's local day (record/local-day.ts): from the row thread, or taken as the look-up hands it on. */
  day?: number;
  /** Whether the ledger holds this record as outstanding, once this run wrote it (ledger-writes.ts). */
  held?: boolean | Promise<boolean>;
  row: SourceRow | undefined;
  file: string;
  line: number;
  /** The source column conversionId came from (its header as written). */
  idColumn: string;
  /** A record of an earlier run resent first (resend.ts): its outcome is counted apart (`retried*`). */
  earlier?: boolean;
  /** An adjustment record: once it is delivered, the order it adjusts stands at this content and amount. */
  reprice?: { key: string; contentHash: string; amount: DeliveredAmount };
  /** The batch journal row this record went out in (deliver-items.ts), while the row holds it. */
  batch?: JournalRef;
  /**
   * The ledger tracks this key record by record (its per-record tables know it as pending or failed, or
   * its journal row was moved there): its batches are written with markPending, not journaled.
   */
  perRecord?: boolean;
  /** The span this record was looked up in (delivered-spans.ts): told once its delivery is recorded. */
  span?: SpanTally;
  /** The span of rows this record's row was read in (raw-spans.ts): told likewise. */
  rawSpan?: RawSpanTally | undefined;
}

/** A batch journal row as the pipeline knows it (Ledger.journalBatch). */
export interface JournalRef {
  /** The row's id; -1 until a ledger on another thread has written it. */
  id: number;
  readonly idempotencyKey: string;
  /** Records in the row (the body). */
  size: number;
  /** Moved to the per-record tables (Ledger.unjournal): no longer settled as a whole. */
  moved?: boolean;
}

/**
 * The item's content hash: from its content bytes where its look-up kept them, else from its record now if its look-up
 * did not take it (a record pushed without one).
 */
export function hashOf(item: Item): string {
  if (item.contentHash === undefined) {
    const content = item.content;
    item.content = undefined;
    item.contentHash = content ? content.takeHash(item.contentIndex!, item.record) : contentHash(item.record);
  }
  return item.contentHash;
}

/** The item's entry into its batch's journal draft: with its content bytes where it kept them, else with its hash. */
export function draftEntry(draft: JournalDraft, item: Item): void {
  const { conversionCurrency: currency, conversionValue: value } = item.record;
  const content = item.content;
  if (content && item.contentHash === undefined) {
    item.content = undefined;
    content.draftEntry(draft, item.contentIndex!, item.key, currency, value);
  } else {
    draft.add(item.key, hashOf(item), currency, value);
  }
}
