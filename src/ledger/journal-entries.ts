// A journaled batch's entries in the form `batches.keys` holds them, `[key, hash, currency, value]` per
// record: packed once on the caller's thread. Entries given already packed (the pipeline's) are kept as
// they are, so a record costs one allocation on its way to the ledger, not an object and then a tuple.
import type { JournalBody, JournalEntries, JournalEntry, PackedJournalEntry } from './types.js';

export const isPacked = (entry: JournalEntry | PackedJournalEntry): entry is PackedJournalEntry =>
  Array.isArray(entry);

/** One entry in its packed form (a new tuple only for an entry given as an object). */
export const packed = (entry: JournalEntry | PackedJournalEntry): PackedJournalEntry =>
  isPacked(entry) ? entry : [entry.key, entry.contentHash, entry.currency, entry.value];

/**
 * The entries as the `batches.keys` column holds them, in body order. Built on the caller's thread: a worker
 * then receives one string, which is copied, instead of a thousand objects, which are cloned field by field
 * (3x the cost, measured).
 */
export function packJournal(entries: JournalEntries): string {
  return JSON.stringify(entries.every(isPacked) ? entries : entries.map(packed));
}

/** The entries' column `at` (0 key, 1 hash, 2 currency, 3 value), for a backend that stores arrays. */
export function journalColumn<I extends 0 | 1 | 2 | 3>(
  entries: JournalEntries,
  at: I,
): PackedJournalEntry[I][] {
  return entries.map((entry) => packed(entry)[at]);
}

/** A journaled body or entries as text: a push gives their UTF-8 bytes (transport/body-bytes.ts, journal-slots.ts). */
export function journalText(body: JournalBody): string {
  return typeof body === 'string'
    ? body
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}
