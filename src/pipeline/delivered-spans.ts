// Spans of delivered records (issue 23: a re-push near the cost of --check). The valid records of a run are
// looked up in spans: runs of consecutive records cut where a record's key says so (content-defined, as in
// rsync's or restic's chunking), so a row added at the top of a daily export moves no later cut. A span's digest
// is SHA-256 over its records' keys and contents, in order (SpanContent). Once every record of a span is delivered
// (found delivered at the same content, or delivered by this run), the ledger notes the digest; a later run that meets
// the same span reads one row instead of a cold ledger page per record. The ledger drops a target's spans when a
// delivered record of it changes (migrations.ts v8), so a span noted is never stale.
import { createHash } from 'node:crypto';
import type { JournalDraft } from '../ledger/journal-draft.js';
import { ContentBytes, contentHash, contentHashOf } from '../ledger/record-key.js';
import type { DeliveredSpan } from '../ledger/types.js';
import type { ConversionRecord } from '../record/fields.js';

/** A span holds at least this many records: below, a cut costs more statements than it saves. */
export const SPAN_MIN = 128;
/** ...and at most this many (a run of keys with no cut is cut here: bounds the records a look-up holds). */
export const SPAN_MAX = 1024;
/** Past SPAN_MIN, one key in this many ends a span: ~SPAN_MIN + 256 records a span on average. */
const CUT_ONE_IN = 256;

/** Whether a span of `length` records, the last with `key`, ends there. */
export function endsSpan(key: string, length: number): boolean {
  if (length >= SPAN_MAX) return true;
  return length >= SPAN_MIN && keyCut(key) % CUT_ONE_IN === 0;
}

/** FNV-1a over the key's UTF-16 units: cheap, and a function of the key alone (not of its position). */
function keyCut(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  // The low bits of FNV mix least: fold the high half in.
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** Content bytes a span keeps for its records' own hashes; past them, bytes go into the digest and are dropped. */
const keptBytes = 256 * 1024;

/**
 * A span's digest, and its records' content hashes from the same bytes. The digest is SHA-256 (hex, 32 chars: 128
 * bits) over each record's key (its length, `:`, its UTF-16 code units: UTF-8 would make `\uD800` and `\uFFFD` one
 * key) and its content bytes (contentHash's serialization, record-key.ts), in order: one text per sequence of
 * records. A record's own content hash is taken only when the look-up needs it (a record the span's answer does not
 * say delivered): a re-push of a noted span hashes no record on its own (before, each record was hashed alone and its
 * hash again into the digest).
 * One per span in flight (LookupQueue keeps them for reuse).
 */
export class SpanContent {
  readonly #bytes = new ContentBytes(64 * 1024);
  /** Each record's content bytes in #bytes (start, end); -1 once they went into the digest and were dropped. */
  readonly #bounds: number[] = [];
  /** Records whose bytes an item still reads (`hold`): the span is written again only once none does. */
  #held = 0;
  /** Whether its look-up still reads it (from `digest` to `done`). */
  #looking = false;
  /** Called once the span may be written again (its look-up done, no record held). */
  readonly #free: (content: SpanContent) => void;

  constructor(free: (content: SpanContent) => void = () => undefined) {
    this.#free = free;
  }

  /** Writes the records' keys and contents, and returns the span's digest. */
  digest(records: readonly { key: string; record: ConversionRecord }[]): string {
    const bytes = this.#bytes;
    const bounds = this.#bounds;
    if (this.#held > 0) throw new Error('a span written again while a record of it is held');
    this.#looking = true;
    bytes.clear();
    bounds.length = 0;
    const hash = createHash('sha256');
    for (const { key, record } of records) {
      bytes.units(key);
      const start = bytes.length;
      bytes.content(record);
      bounds.push(start, bytes.length);
      // Long records (a span of them could be hundreds of MiB): hashed and dropped, each hashed again from its record.
      if (bytes.length > keptBytes) {
        hash.update(bytes.view());
        bytes.clear();
        bounds.fill(-1);
      }
    }
    hash.update(bytes.view());
    return hash.digest('hex').slice(0, 32);
  }

  /** The content hash of the span's `index`th record (`record`): contentHash, from the bytes written for the digest. */
  contentHash(index: number, record: ConversionRecord): string {
    const start = this.#bounds[2 * index] ?? -1;
    return start < 0 ? contentHash(record) : contentHashOf(this.#bytes, start, this.#bounds[2 * index + 1]!);
  }

  /**
   * Holds the `index`th record's bytes for its item, which takes its hash later (`takeHash`) or hands them to its
   * journal row (`draftEntry`): false where they were dropped (a long span), the hash then to be taken now.
   */
  hold(index: number): boolean {
    if ((this.#bounds[2 * index] ?? -1) < 0) return false;
    this.#held++;
    return true;
  }

  /** The look-up is done with the span: written again once no record of it is held. */
  done(): void {
    this.#looking = false;
    if (this.#held === 0) this.#free(this);
  }

  /** A held record's content hash; lets it go. */
  takeHash(index: number, record: ConversionRecord): string {
    const digest = this.contentHash(index, record);
    this.#release();
    return digest;
  }

  /** A held record's journal entry, its hash to be taken from its bytes on the ledger's thread; lets it go. */
  draftEntry(draft: JournalDraft, index: number, key: string, currency: string, value: number): void {
    draft.addContent(
      key,
      this.#bytes,
      this.#bounds[2 * index]!,
      this.#bounds[2 * index + 1]!,
      currency,
      value,
    );
    this.#release();
  }

  #release(): void {
    if (--this.#held === 0 && !this.#looking) this.#free(this);
  }
}

/**
 * One span of a run: counted once per record that ends delivered at the content the digest names. Complete
 * when every record is: the run then notes it (RunSpans).
 */
export class SpanTally {
  #delivered = 0;
  readonly #span: DeliveredSpan;
  readonly #complete: DeliveredSpan[];

  constructor(span: DeliveredSpan, complete: DeliveredSpan[]) {
    this.#span = span;
    this.#complete = complete;
  }

  /** A record of the span is delivered at the span's content (known so, or this run's delivery recorded). */
  delivered(): void {
    if (++this.#delivered === this.#span.records) this.#complete.push(this.#span);
  }
}

/** The spans of a run whose every record was delivered: noted in the ledger when the run's delivery closes. */
export class RunSpans {
  readonly complete: DeliveredSpan[] = [];

  open(digest: string, records: number): SpanTally {
    return new SpanTally({ digest, records }, this.complete);
  }
}
