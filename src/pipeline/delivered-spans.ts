// Spans of delivered records (issue 23: a re-push near the cost of --check). The valid records of a run are
// looked up in spans: runs of consecutive records cut where a record's key says so (content-defined, as in
// rsync's or restic's chunking), so a row added at the top of a daily export moves no later cut. A span's digest
// is SHA-256 over its records' keys and content hashes, in order. Once every record of a span is delivered (found
// delivered at the same content, or delivered by this run), the ledger notes the digest; a later run that meets
// the same span reads one row instead of a cold ledger page per record. The ledger drops a target's spans when a
// delivered record of it changes (migrations.ts v8), so a span noted is never stale.
import { createHash } from 'node:crypto';
import type { DeliveredSpan } from '../ledger/types.js';

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

/**
 * The span's digest: SHA-256 (hex, 32 chars: 128 bits) over each record's key length, key and content hash. The
 * key is hashed as UTF-16 code units (two bytes each, lone surrogates included: UTF-8 would make `\uD800` and
 * `\uFFFD` one key) after its length, and a content hash is 32 hex characters: one text per sequence of records.
 */
export function spanDigest(records: readonly { key: string; contentHash: string }[]): string {
  // Written into one reused buffer, a record at a time, and hashed a buffer's worth at once: the text built
  // per record (`${length}:${key}${hash}`) was a few strings a record to collect. The bytes are the same.
  const hash = createHash('sha256');
  let at = 0;
  for (const { key, contentHash } of records) {
    // Two bytes a unit: up to 16 digits of length and `:`, the key, the content hash.
    const bytes = 2 * (17 + key.length + contentHash.length);
    if (at + bytes > digestScratch.length) {
      hash.update(digestScratch.subarray(0, at));
      at = 0;
      if (bytes > digestScratch.length) digestScratch = Buffer.allocUnsafeSlow(bytes);
    }
    at += digestScratch.write(String(key.length), at, 'utf16le');
    at += digestScratch.write(':', at, 'utf16le');
    at += digestScratch.write(key, at, 'utf16le');
    at += digestScratch.write(contentHash, at, 'utf16le');
  }
  hash.update(digestScratch.subarray(0, at));
  return hash.digest('hex').slice(0, 32);
}

/** spanDigest's buffer: 16 KiB, grown (never shrunk) for a longer record. */
let digestScratch = Buffer.allocUnsafeSlow(16384);

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
