// A journal row's entries written as the bytes `batches.keys` holds (issue 23): `[key, hash, currency, value]` per
// record, the JSON packJournal writes (journal-entries.ts), built in a reused buffer on the caller's thread without
// a tuple or a string per record. A record whose content hash is not taken yet goes with its content bytes
// (contentHash's serialization, record-key.ts) and a blank where its hash goes: the ledger's writer thread hashes
// them there (`fillHashes`), off the main thread, which spent ~0.8 s of a 1M-row push hashing each record and
// packing the tuples (bench/README.md, "Session 33").
import { hash } from 'node:crypto';
import { doubled } from '../grown-array.js';
import { jsonStringBound, writeJsonNumber, writeJsonString } from '../record/json-bytes.js';
import { numberBytesMax } from '../record/number-bytes.js';
import { ContentBytes, contentHashLength } from './record-key.js';

/** What a blank hash holds until it is filled: hex digits, so the text is JSON whatever happens. */
const blank = 0x30;
/** Bytes between two records that a run copies along rather than start another (a span's next key, ~40 bytes). */
const maxGap = 1024;

/** The parts of a draft a ledger copies: its keys JSON, the content bytes to hash, and where each hash goes. */
export interface DraftParts {
  /** The entries' JSON, a blank of `contentHashLength` bytes for each hash to fill. */
  readonly keys: Uint8Array;
  /** The content bytes of the records to hash, one after another. */
  readonly content: Uint8Array;
  /** Per hash to fill: the blank's offset in `keys`, and its record's bytes in `content` (from, to). */
  readonly table: Int32Array;
}

/** One batch's journal entries, in body order; cleared and written again for the next batch. */
export class JournalDraft {
  #keys: Buffer = Buffer.allocUnsafeSlow(64 * 1024);
  #at = 0;
  readonly #content = new ContentBytes(64 * 1024);
  #table = new Int32Array(3 * 512);
  #hashes = 0;
  /**
   * Content bytes not copied yet: a run of records that lie one after another in one source (a span's records,
   * each after its key), copied whole at `#flush` (a record's bytes copied one by one were half of its entry's cost).
   */
  #run: ContentBytes | undefined;
  #runFrom = 0;
  #runTo = 0;
  /** Where the run goes in #content. */
  #runAt = 0;
  /** Entries written since `clear`. */
  size = 0;

  clear(): void {
    this.#at = 0;
    this.#content.clear();
    this.#hashes = 0;
    this.#run = undefined;
    this.size = 0;
  }

  /** An entry whose content hash is known. */
  add(key: string, contentHash: string, currency: string, value: number): void {
    this.#entry(key, contentHash, currency, value);
  }

  /**
   * An entry whose content hash is taken from `bytes` (`from` to `to`: contentHash's serialization of its record) where
   * the draft is filled (`fillHashes`). The bytes are read as late as `parts`: they must not change before.
   */
  addContent(
    key: string,
    bytes: ContentBytes,
    from: number,
    to: number,
    currency: string,
    value: number,
  ): void {
    const offset = this.#entry(key, undefined, currency, value);
    if (bytes !== this.#run || from < this.#runTo || from - this.#runTo > maxGap) {
      this.#flush();
      this.#run = bytes;
      this.#runFrom = from;
      this.#runAt = this.#content.length;
    }
    this.#runTo = to;
    const start = this.#runAt + (from - this.#runFrom);
    if (3 * this.#hashes + 3 > this.#table.length) this.#table = doubled(this.#table);
    const at = 3 * this.#hashes++;
    this.#table[at] = offset;
    this.#table[at + 1] = start;
    this.#table[at + 2] = start + (to - from);
  }

  /** Copies the pending run into #content. */
  #flush(): void {
    if (this.#run === undefined) return;
    this.#content.append(this.#run, this.#runFrom, this.#runTo);
    this.#run = undefined;
  }

  /** The draft's bytes (views, valid until the next write). */
  parts(): DraftParts {
    this.#flush();
    this.#room(2);
    // `]` after the last entry, not counted in #at: a later entry writes its `,` over it.
    let end = this.#at;
    if (this.size === 0) this.#keys[end++] = 0x5b;
    this.#keys[end++] = 0x5d;
    return {
      keys: this.#keys.subarray(0, end),
      content: this.#content.view(),
      table: this.#table.subarray(0, 3 * this.#hashes),
    };
  }

  /** Writes one entry (`,` before all but the first, `[` before the first); returns where its hash is. */
  #entry(key: string, contentHash: string | undefined, currency: string, value: number): number {
    this.#room(jsonStringBound(key) + contentHashLength + jsonStringBound(currency) + numberBytesMax + 12);
    const out = this.#keys;
    let at = this.#at;
    out[at++] = this.size++ === 0 ? 0x5b : 0x2c;
    out[at++] = 0x5b;
    at = writeJsonString(out, at, key);
    out[at++] = 0x2c;
    out[at++] = 0x22;
    const offset = at;
    if (contentHash === undefined) out.fill(blank, at, at + contentHashLength);
    else out.write(contentHash, at, contentHashLength, 'latin1');
    at += contentHashLength;
    out[at++] = 0x22;
    out[at++] = 0x2c;
    at = writeJsonString(out, at, currency);
    out[at++] = 0x2c;
    at = writeJsonNumber(out, at, value);
    out[at++] = 0x5d;
    this.#at = at;
    return offset;
  }

  /** Room for `bytes` more, what is written kept. */
  #room(bytes: number): void {
    if (this.#at + bytes <= this.#keys.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(2 * this.#keys.length, this.#at + bytes));
    this.#keys.copy(bigger, 0, 0, this.#at);
    this.#keys = bigger;
  }
}

/**
 * Writes each record's content hash into its blank in `keys` (contentHash's digest of its bytes in `content`, as
 * `table` says): the keys JSON is then what packJournal writes for the same entries. Run on the ledger's writer thread.
 */
export function fillHashes(keys: Uint8Array, content: Uint8Array, table: Int32Array): void {
  const out = Buffer.from(keys.buffer, keys.byteOffset, keys.byteLength);
  for (let at = 0; at < table.length; at += 3) {
    const digest = hash('sha256', content.subarray(table[at + 1], table[at + 2]), 'hex');
    out.write(digest, table[at]!, contentHashLength, 'latin1');
  }
}
