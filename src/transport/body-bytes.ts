// A body's bytes, built once (issue 23): the JSON array of its records as the server receives it. The same
// bytes are hashed for the Idempotency-Key, copied for the journal (ledger/journal-slots.ts), and written to
// the socket; a body kept as a string was flattened and encoded for each of the three (bench/README.md,
// "Session 20").
import type { RecordBytes } from './record-json.js';

/**
 * `[` the records' JSON joined by `,` `]`, in a buffer of its own (not a slice of Node's pool, whose other
 * bytes would go wherever the buffer is posted). Records written one after another by the run's
 * RecordWriter lie in its chunk with their `,` between them, so such a run of them is copied at once.
 */
export function bodyBytes(parts: readonly RecordBytes[]): Buffer {
  let size = parts.length > 0 ? parts.length + 1 : 2;
  for (const part of parts) size += part.bytes;
  const body = Buffer.allocUnsafeSlow(size);
  body[0] = 0x5b;
  let at = 1;
  for (let i = 0; i < parts.length; ) {
    const first = parts[i]!;
    let end = first.start + first.bytes;
    for (i++; i < parts.length && parts[i]!.chunk === first.chunk && parts[i]!.start === end + 1; i++)
      end = parts[i]!.start + parts[i]!.bytes;
    if (at > 1) body[at++] = 0x2c;
    at += first.chunk.copy(body, at, first.start, end);
  }
  body[at++] = 0x5d;
  // A part running past its chunk copies fewer bytes than counted: never send a record cut short.
  if (at !== size) throw new Error(`body of ${size} bytes filled with ${at}: a part's byte count is wrong`);
  return body;
}
