// The buffers a journal row crosses to the ledger's writer thread in (issue 23). A body and its packed keys are
// copied into one of them, which is transferred (moved, not copied) to the writer and transferred back with the
// answer, to be used again. A buffer posted as a copy became an ArrayBuffer of the writer's own for every row,
// dead once written but freed only when that thread's isolate next collects, which it seldom does: the writer
// held 20.2 MiB of external memory at the peak of a 1M-row push against 6.4 when bodies crossed as strings (the
// push's peak RSS 1.12 x); with the buffers cycled, 6.5 MiB.

/** The smallest buffer made: a usual body (500 records of ~250 bytes) and its keys fit. */
const slotBytes = 256 * 1024;
/** Buffers kept for use again; a run has at most a few journal rows in flight. */
const keptSlots = 8;
/** A larger buffer (a large body, a large resent row) is not kept: the run would hold it to its end. */
const keptBytes = 4 * slotBytes;

/** A body and its keys in one buffer: the body's bytes from 0, the keys' after them. */
export interface JournalSlot {
  buffer: ArrayBuffer;
  bodyBytes: number;
  keysBytes: number;
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

/** The body and the keys of a slot, as views (bound by SQLite as the bytes they cover). */
export function slotParts(slot: JournalSlot): { body: Uint8Array; keys: Uint8Array } {
  return {
    body: new Uint8Array(slot.buffer, 0, slot.bodyBytes),
    keys: new Uint8Array(slot.buffer, slot.bodyBytes, slot.keysBytes),
  };
}
