// A record's JSON written straight into shared byte chunks (issue 23): the bytes a body is made of, with no
// string per record. JSON.stringify left ~1 KB of garbage a record on the main thread (its growing parts, the
// string, then its UTF-8 for the body) and a per-record string to carry; here a record costs its bytes in a
// chunk, and the records of a body, written one after another, are copied into it as one run (body-bytes.ts).
//
// The bytes are JSON.stringify's own: the record's keys in its own order (for...in, as JSON.stringify walks a
// plain object), a field left out when undefined, a number as String() (the shortest round trip; not finite:
// null), a string quoted with JSON's escapes. A string with nothing to escape and only ASCII is copied char
// by char; any other string is written as JSON.stringify writes it. A value of another type (none in a
// ConversionRecord) sends the whole record through JSON.stringify. So a record resent from its journaled
// JSON, or from its per-record payload, is the same bytes, under the same Idempotency-Key.

import { jsonStringBound, writeJsonNumber, writeJsonString as writeString } from '../record/json-bytes.js';
import { numberBytesMax } from '../record/number-bytes.js';

/** Bytes a chunk holds at least: ~1,000 records of the usual size, so a body is one or two runs. */
const chunkBytes = 256 * 1024;

/** Where a record's JSON is: `bytes` bytes of `chunk` from `start`, followed by a `,` in the chunk. */
export interface RecordBytes {
  readonly chunk: Buffer;
  readonly start: number;
  readonly bytes: number;
}

/** The record's JSON as text (per-record paths: a pending payload, a test), decoded from its bytes. */
export function recordJson(at: RecordBytes): string {
  return at.chunk.toString('utf8', at.start, at.start + at.bytes);
}

const hasToJSON = (value: object): value is { toJSON(): object } =>
  typeof (value as { toJSON?: unknown }).toJSON === 'function';

/**
 * Writes records' JSON, each followed by a `,`, one after another into chunks of its own (a chunk is never
 * written again once left, so every RecordBytes handed out stays valid for as long as it is held).
 */
export class RecordWriter {
  #chunk: Buffer = Buffer.allocUnsafeSlow(chunkBytes);
  #at = 0;
  /**
   * The chunk and offset of the last record written: valid only until the next `write`, so read right after
   * it (deliver.ts toPart copies them into the Part); fields, not an object per record.
   */
  chunk: Buffer = this.#chunk;
  start = 0;

  /**
   * Writes `record`'s JSON (and a `,` after it) at `chunk`, `start`; returns its bytes. A record with a `toJSON`
   * (transport/sent-record.ts) is written as what it returns, as JSON.stringify does.
   */
  write(given: object): number {
    const record = hasToJSON(given) ? given.toJSON() : given;
    this.#room(boundOf(record));
    const start = this.#at;
    const end = writeObject(this.#chunk, start, record as Record<string, unknown>);
    // Buffer.write stops at the chunk's end without a word: a bound too small must not cut a record short.
    if (end >= this.#chunk.length)
      throw new Error(`a record's JSON passed its bound of ${this.#chunk.length - start} bytes`);
    this.#chunk[end] = 0x2c;
    this.#at = end + 1;
    this.chunk = this.#chunk;
    this.start = start;
    return end - start;
  }

  /** A new chunk when the current one cannot hold `bytes` more (a record larger than a chunk gets its own). */
  #room(bytes: number): void {
    if (this.#at + bytes <= this.#chunk.length) return;
    this.#chunk = Buffer.allocUnsafeSlow(Math.max(chunkBytes, bytes));
    this.#at = 0;
  }
}

/**
 * Bytes the record's JSON can take at most, its `,` included: a key or a string as json-bytes.ts bounds it (a UTF-16
 * unit at most 6 bytes escaped), a key's `:` and `,`, a number `numberBytesMax`.
 */
function boundOf(record: object): number {
  let bound = 3;
  for (const key in record) {
    const value = (record as Record<string, unknown>)[key];
    bound += jsonStringBound(key) + 2;
    if (typeof value === 'string') bound += jsonStringBound(value);
    else if (typeof value === 'number') bound += numberBytesMax;
    else if (value !== undefined) return 6 * JSON.stringify(record).length + 3;
  }
  return bound;
}

/** The object's JSON from `at`; returns where it ends. */
function writeObject(out: Buffer, from: number, record: Record<string, unknown>): number {
  let at = from;
  out[at++] = 0x7b;
  let first = true;
  for (const key in record) {
    const value = record[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number')
      return from + out.write(JSON.stringify(record), from);
    if (!first) out[at++] = 0x2c;
    first = false;
    const prefix = keyPrefixes.get(key) ?? keyPrefix(key);
    if (prefix === undefined) {
      at = writeString(out, at, key);
      out[at++] = 0x3a;
    } else {
      for (let i = 0; i < prefix.length; i++) out[at++] = prefix[i]!;
    }
    at = typeof value === 'string' ? writeString(out, at, value) : writeJsonNumber(out, at, value);
  }
  out[at++] = 0x7d;
  return at;
}

/**
 * `"key":` as bytes, by key: a record's eight field names, written for every record, are copied from here rather
 * than checked for escapes a character at a time (the writer took 0.89 x the time a record). Only keys JSON writes
 * as they are (printable ASCII but `"` and `\\`), and a few dozen at most (a record's keys are its eight fields).
 */
const keyPrefixes = new Map<string, Uint8Array>();
const keptPrefixes = 64;

function keyPrefix(key: string): Uint8Array | undefined {
  if (keyPrefixes.size >= keptPrefixes || !/^[\x20\x21\x23-\x5b\x5d-\x7e]*$/.test(key)) return undefined;
  const prefix = Buffer.from(`"${key}":`, 'latin1');
  keyPrefixes.set(key, prefix);
  return prefix;
}
