// The buffers a journal row crosses to the ledger's writer thread in (issue 23). A body and its packed keys are
// copied into one of them, which is transferred (moved, not copied) to the writer and transferred back with the
// answer, to be used again. A buffer posted as a copy became an ArrayBuffer of the writer's own for every row,
// dead once written but freed only when that thread's isolate next collects, which it seldom does: the writer
// held 20.2 MiB of external memory at the peak of a 1M-row push against 6.4 when bodies crossed as strings (the
// push's peak RSS 1.12 x); with the buffers cycled, 6.5 MiB. A row drafted with content bytes to hash
// (journal-draft.ts) brings them and their table after its keys; the writer fills the hashes in before it writes.
import type { DraftParts } from './journal-draft.js';

/**
 * The smallest buffer made: a usual body (500 records of ~280 bytes), its keys and its records' content bytes to hash
 * fit (~270 KB in the bench's push; at 256 KiB nearly every row needed a buffer of its own size, and one a byte
 * larger than all the free ones a new buffer).
 */
const slotBytes = 384 * 1024;
/** Buffers kept for use again; a run has at most a few journal rows in flight. */
const keptSlots = 8;
/** A larger buffer (a large body, a large resent row) is not kept: the run would hold it to its end. */
const keptBytes = 4 * slotBytes;

/**
 * A body and its keys in one buffer: the body's bytes from 0, the keys' after them; for a drafted row, from the next
 * multiple of 4 its hash table (`tableLength` Int32s) and then its content bytes.
 */
export interface JournalSlot {
  buffer: ArrayBuffer;
  bodyBytes: number;
  keysBytes: number;
  tableLength?: number;
  contentBytes?: number;
}

export class JournalSlots {
  readonly #free: ArrayBuffer[] = [];

  /** `body` and `keys` (text, written as UTF-8) copied into a free buffer, or a new one. */
  fill(body: Uint8Array, keys: string): JournalSlot {
    const keysBytes = Buffer.byteLength(keys);
    const buffer = this.#take(body.byteLength + keysBytes);
    const view = Buffer.from(buffer);
    view.set(body, 0);
    view.write(keys, body.byteLength, 'utf8');
    return { buffer, bodyBytes: body.byteLength, keysBytes };
  }

  /** `body` and a draft's parts (journal-draft.ts) copied into a free buffer, or a new one. */
  fillDraft(body: Uint8Array, draft: DraftParts): JournalSlot {
    const keysEnd = body.byteLength + draft.keys.byteLength;
    const tableStart = align4(keysEnd);
    const contentStart = tableStart + draft.table.byteLength;
    const buffer = this.#take(contentStart + draft.content.byteLength);
    const view = new Uint8Array(buffer);
    view.set(body, 0);
    view.set(draft.keys, body.byteLength);
    new Int32Array(buffer, tableStart, draft.table.length).set(draft.table);
    view.set(draft.content, contentStart);
    return {
      buffer,
      bodyBytes: body.byteLength,
      keysBytes: draft.keys.byteLength,
      tableLength: draft.table.length,
      contentBytes: draft.content.byteLength,
    };
  }

  /** A buffer back from the writer, for the next row. */
  give(buffer: ArrayBuffer): void {
    if (buffer.byteLength > 0 && buffer.byteLength <= keptBytes && this.#free.length < keptSlots)
      this.#free.push(buffer);
  }

  #take(bytes: number): ArrayBuffer {
    const at = this.#free.findIndex((buffer) => buffer.byteLength >= bytes);
    if (at >= 0) return this.#free.splice(at, 1)[0]!;
    return new ArrayBuffer(Math.max(slotBytes, bytes));
  }
}

const align4 = (offset: number): number => (offset + 3) & ~3;

/**
 * The body and the keys of a slot, as views (bound by SQLite as the bytes they cover); for a drafted row, its hash
 * table and content bytes too (DraftParts: `fillHashes` completes the keys).
 */
export function slotParts(slot: JournalSlot): {
  body: Uint8Array;
  keys: Uint8Array;
  draft?: Omit<DraftParts, 'keys'>;
} {
  const body = new Uint8Array(slot.buffer, 0, slot.bodyBytes);
  const keys = new Uint8Array(slot.buffer, slot.bodyBytes, slot.keysBytes);
  if (!slot.tableLength) return { body, keys };
  const tableStart = align4(slot.bodyBytes + slot.keysBytes);
  const table = new Int32Array(slot.buffer, tableStart, slot.tableLength);
  const content = new Uint8Array(slot.buffer, tableStart + table.byteLength, slot.contentBytes ?? 0);
  return { body, keys, draft: { table, content } };
}
