// Identity of a conversion in the ledger: the key it is tracked under and the hash of its content.
// Pure and hot (runs once per row of million-row files): one buffer written and one hash per call.

import { hash } from 'node:crypto';
import type { ConversionRecord } from '../record/fields.js';
import { digitCount, numberBytesMax, writeNumber } from '../record/number-bytes.js';

/** Hex characters kept from the SHA-256 digest: 128 bits, ample against accidental collisions. */
export const contentHashLength = 32;

/**
 * SHA-256 (hex, first 32 chars) of the record's eight fields in `recordFields` order, as UTF-8.
 * Each field is written as `~` when absent, else a type tag (`s`/`n`), its length, `:` and its text,
 * so the serialization is injective: an absent field differs from "", and no value can spill into
 * the next field whatever characters it holds. A string's length is its UTF-16 length; a lone surrogate
 * is written as U+FFFD, as a string given to the hash is.
 */
export function contentHash(record: ConversionRecord): string {
  // The text's bytes are written into one reused buffer and hashed from there: the text built by `+=` was
  // ~1.1 KB of strings a record to collect (bench/README.md, "Session 17").
  single.clear();
  single.content(record);
  return single.digest();
}

/** contentHash of a record whose content bytes `bytes` holds from `from` to `to` (a span's, delivered-spans.ts). */
export function contentHashOf(bytes: ContentBytes, from: number, to: number): string {
  single.clear();
  single.append(bytes, from, to);
  return single.digest();
}

/**
 * Records' content bytes (contentHash's serialization) and other text, appended to one growable buffer: what
 * contentHash hashes one record at a time, and a span's digest (pipeline/delivered-spans.ts) many at once.
 */
export class ContentBytes {
  /** Grown (never shrunk) to hold what is appended. */
  #buffer: Buffer;
  /**
   * Views of the first n bytes, by n (a view per call was ~90 bytes a record to collect): a file's records come in a
   * few dozen lengths.
   */
  #views: Buffer[] = [];
  /** Bytes appended since the last clear(). */
  length = 0;

  constructor(bytes = 4096) {
    this.#buffer = Buffer.allocUnsafeSlow(bytes);
  }

  clear(): void {
    this.length = 0;
  }

  /**
   * Appends the record's eight fields as contentHash serializes them, in `recordFields` order (fields.ts), each read
   * by its name: a loop over the names took 8 % longer a span (keyed reads).
   */
  content(record: ConversionRecord): void {
    this.#field(record.conversionCurrency);
    this.#field(record.conversionValue);
    this.#field(record.conversionDatetime);
    this.#field(record.conversionTimezone);
    this.#field(record.serviceId);
    this.#field(record.conversionId);
    this.#field(record.conversionName);
    this.#field(record.conversionEmail);
  }

  #field(value: string | number | undefined): void {
    if (value === undefined) {
      this.#reserve(1);
      this.#buffer[this.length++] = 0x7e;
    } else if (typeof value === 'number') {
      this.#number(value);
    } else {
      // A UTF-16 unit is at most 3 bytes of UTF-8; the tag, the length and `:` at most 18.
      this.#reserve(18 + value.length * 3);
      this.#length(0x73, value.length);
      this.#text(value);
    }
  }

  /** A number as String() writes it (number-bytes.ts), after its tag and length. */
  #number(value: number): void {
    const length = writeNumber(numberText, 0, value);
    this.#reserve(18 + length);
    this.#length(0x6e, length);
    const buffer = this.#buffer;
    let at = this.length;
    for (let i = 0; i < length; i++) buffer[at++] = numberText[i]!;
    this.length = at;
  }

  /** Appends `text`'s length in decimal, `:` and its UTF-16 code units, two bytes each (lone surrogates kept). */
  units(text: string): void {
    this.#reserve(18 + text.length * 2);
    const buffer = this.#buffer;
    let at = this.length;
    const digits = digitCount(text.length);
    for (let i = digits - 1, rest = text.length; i >= 0; i--, rest = Math.floor(rest / 10)) {
      buffer[at + 2 * i] = 0x30 + (rest % 10);
      buffer[at + 2 * i + 1] = 0;
    }
    at += 2 * digits;
    buffer[at++] = 0x3a;
    buffer[at++] = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      buffer[at++] = unit & 0xff;
      buffer[at++] = unit >>> 8;
    }
    this.length = at;
  }

  /** The bytes appended, as a view (valid until the next append). */
  view(): Buffer {
    return this.#buffer.subarray(0, this.length);
  }

  /** Appends bytes `from` to `to` of `other`. */
  append(other: ContentBytes, from: number, to: number): void {
    this.#reserve(to - from);
    const source = other.#buffer;
    const target = this.#buffer;
    if (to - from > copiedByLoop) {
      this.length += source.copy(target, this.length, from, to);
      return;
    }
    // A record's bytes, one by one: Buffer.copy of a range makes a view of it first (~90 bytes a record).
    let at = this.length;
    for (let i = from; i < to; i++) target[at++] = source[i]!;
    this.length = at;
  }

  /** SHA-256 of the bytes appended, hex, its first `contentHashLength` characters: contentHash's digest. */
  digest(): string {
    const length = this.length;
    let view = this.#views[length];
    if (view === undefined) {
      view = this.#buffer.subarray(0, length);
      this.#views[length] = view;
    }
    return hash('sha256', view, 'hex').slice(0, contentHashLength);
  }

  /** Room for `bytes` more past `length`, what is written before kept. */
  #reserve(bytes: number): void {
    if (this.length + bytes <= this.#buffer.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(this.#buffer.length * 2, this.length + bytes));
    this.#buffer.copy(bigger, 0, 0, this.length);
    this.#buffer = bigger;
    this.#views = [];
  }

  /** A field's tag (`s` or `n`), its length in decimal and `:`. */
  #length(tag: number, length: number): void {
    const buffer = this.#buffer;
    const from = this.length;
    buffer[from] = tag;
    const digits = digitCount(length);
    for (let i = digits, rest = length; i >= 1; i--, rest = Math.floor(rest / 10))
      buffer[from + i] = 0x30 + (rest % 10);
    buffer[from + digits + 1] = 0x3a;
    this.length = from + digits + 2;
  }

  /** A text's UTF-8 bytes: ASCII unit by unit; from the first unit past it, Buffer.write (a lone surrogate: U+FFFD). */
  #text(text: string): void {
    const buffer = this.#buffer;
    let at = this.length;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit >= 0x80) {
        this.length = at + buffer.write(i === 0 ? text : text.slice(i), at, 'utf8');
        return;
      }
      buffer[at++] = unit;
    }
    this.length = at;
  }
}

/** A number's text, written before its length is known (ContentBytes #number). */
const numberText = new Uint8Array(numberBytesMax);

/** Bytes `append` copies in a loop rather than with Buffer.copy. */
const copiedByLoop = 512;

/** contentHash's bytes. */
const single = new ContentBytes();

/**
 * `id:<conversionId>` when the record has one, else `h:<contentHash>`, and for the nth identical record of a file
 * (`occurrence`, pipeline/content-counts.ts) `h:<contentHash>#n` past the first. An empty conversionId is treated
 * as absent: as a key it would merge every such record into one.
 */
export function recordKey(record: ConversionRecord, occurrence = 1): string {
  return keyOf(record.conversionId, contentHash(record), occurrence);
}

/** Both at once, hashing only once: what the pipeline needs for every record. */
export function recordIdentity(
  record: ConversionRecord,
  occurrence = 1,
  digest = contentHash(record),
): { key: string; contentHash: string } {
  return { key: keyOf(record.conversionId, digest, occurrence), contentHash: digest };
}

/**
 * The record's key, and its content hash where the key needs it (a record without a conversionId) or `digest` gives
 * it; a record with a conversionId is keyed without hashing, and hashed later only if it must be (its span's look-up:
 * pipeline/lookup-queue.ts).
 */
export function recordKeyFirst(
  record: ConversionRecord,
  occurrence = 1,
  digest?: string,
): { key: string; contentHash: string | undefined } {
  const key = idKey(record.conversionId);
  return key === undefined ? recordIdentity(record, occurrence, digest) : { key, contentHash: digest };
}

/** recordKey from its parts: a record's conversionId, its content hash and occurrence. */
export function keyOf(conversionId: string | undefined, contentHash: string, occurrence = 1): string {
  return idKey(conversionId) ?? (occurrence > 1 ? `h:${contentHash}#${occurrence}` : `h:${contentHash}`);
}

/** `id:<conversionId>`, or undefined for no conversionId or an empty one. */
function idKey(conversionId: string | undefined): string | undefined {
  return conversionId !== undefined && conversionId !== '' ? `id:${conversionId}` : undefined;
}

/**
 * The conversionId of the adjustment record that brings a delivered order to `newValue` (refunds:
 * adjust): the order's id, `~adjust~`, and the new value (`#1001~adjust~218.81`). Deterministic, so a
 * re-run of the same export finds it delivered and never sends it twice; a later, further refund of the
 * same order gets a new id.
 */
export function adjustmentId(orderId: string, newValue: number): string {
  return `${orderId}~adjust~${newValue}`;
}
