// Identity of a conversion in the ledger: the key it is tracked under and the hash of its content.
// Pure and hot (runs once per row of million-row files): one string build and one hash per call.

import { hash } from 'node:crypto';
import { type ConversionRecord, recordFields } from '../record/fields.js';

/** Hex characters kept from the SHA-256 digest: 128 bits, ample against accidental collisions. */
export const contentHashLength = 32;

/**
 * SHA-256 (hex, first 32 chars) of the record's eight fields in `recordFields` order.
 * Each field is written as `~` when absent, else a type tag (`s`/`n`), its length, `:` and its text,
 * so the serialization is injective: an absent field differs from "", and no value can spill into
 * the next field whatever characters it holds.
 */
export function contentHash(record: ConversionRecord): string {
  let text = '';
  for (const field of recordFields) {
    const value = record[field];
    if (value === undefined) {
      text += '~';
    } else if (typeof value === 'number') {
      // String() is the shortest round-trip form, the same digits JSON.stringify sends.
      const digits = String(value);
      text += `n${digits.length}:${digits}`;
    } else {
      text += `s${value.length}:${value}`;
    }
  }
  return hash('sha256', text, 'hex').slice(0, contentHashLength);
}

/**
 * `id:<conversionId>` when the record has one, else `h:<contentHash>`. An empty conversionId is
 * treated as absent: as a key it would merge every such record into one.
 */
export function recordKey(record: ConversionRecord): string {
  const id = record.conversionId;
  return id !== undefined && id !== '' ? `id:${id}` : `h:${contentHash(record)}`;
}

/** Both at once, hashing only once: what the pipeline needs for every record. */
export function recordIdentity(record: ConversionRecord): { key: string; contentHash: string } {
  const digest = contentHash(record);
  return { key: keyOf(record.conversionId, digest), contentHash: digest };
}

/** recordKey from its parts: a record's conversionId and its content hash. */
export function keyOf(conversionId: string | undefined, contentHash: string): string {
  return conversionId !== undefined && conversionId !== '' ? `id:${conversionId}` : `h:${contentHash}`;
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
