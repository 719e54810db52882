// Identity of a conversion in the ledger: the key it is tracked under and the hash of its content.
// Pure and hot (runs once per row of million-row files): one buffer written and one hash per call.

import { hash } from 'node:crypto';
import { type ConversionRecord, recordFields } from '../record/fields.js';

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
  let at = 0;
  for (const field of recordFields) {
    const value = record[field];
    if (value === undefined) {
      reserve(at, 1);
      scratch[at++] = 0x7e;
    } else {
      // String() is the shortest round-trip form, the same digits JSON.stringify sends.
      const text = typeof value === 'number' ? String(value) : value;
      // A UTF-16 unit is at most 3 bytes of UTF-8; the tag, the length and `:` at most 18.
      reserve(at, 18 + text.length * 3);
      at = writeText(text, writeLength(typeof value === 'number' ? 0x6e : 0x73, text.length, at));
    }
  }
  // A view of the first `at` bytes, one per length met (a view per call was ~90 bytes a record to collect).
  let view = views[at];
  if (view === undefined) {
    view = scratch.subarray(0, at);
    views[at] = view;
  }
  return hash('sha256', view, 'hex').slice(0, contentHashLength);
}

/** contentHash's buffer: grown (never shrunk) to hold the largest record met. */
let scratch = Buffer.allocUnsafeSlow(4096);
/** Views of scratch's first n bytes, by n: a file's records come in a few dozen lengths. */
let views: Buffer[] = [];

/** Room for `bytes` more from `at`, what is written before `at` kept. */
function reserve(at: number, bytes: number): void {
  if (at + bytes <= scratch.length) return;
  const bigger = Buffer.allocUnsafeSlow(Math.max(scratch.length * 2, at + bytes));
  scratch.copy(bigger, 0, 0, at);
  scratch = bigger;
  views = [];
}

/** A field's tag (`s` or `n`), its length in decimal and `:`. */
function writeLength(tag: number, length: number, from: number): number {
  scratch[from] = tag;
  let digits = 1;
  for (let rest = length; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  for (let i = digits, rest = length; i >= 1; i--, rest = Math.floor(rest / 10))
    scratch[from + i] = 0x30 + (rest % 10);
  scratch[from + digits + 1] = 0x3a;
  return from + digits + 2;
}

/** A text's UTF-8 bytes: ASCII unit by unit; from the first unit past it, Buffer.write (a lone surrogate: U+FFFD). */
function writeText(text: string, from: number): number {
  let at = from;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x80) return at + scratch.write(i === 0 ? text : text.slice(i), at, 'utf8');
    scratch[at++] = unit;
  }
  return at;
}

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

/** recordKey from its parts: a record's conversionId, its content hash and occurrence. */
export function keyOf(conversionId: string | undefined, contentHash: string, occurrence = 1): string {
  if (conversionId !== undefined && conversionId !== '') return `id:${conversionId}`;
  return occurrence > 1 ? `h:${contentHash}#${occurrence}` : `h:${contentHash}`;
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
