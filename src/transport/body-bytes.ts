// A body's bytes, encoded once (issue 23): the JSON array of its records as the server receives it. The same
// bytes are hashed for the Idempotency-Key, copied to the ledger's thread for the journal, and written to the
// socket; a body kept as a string was flattened and encoded for each of the three (a 140 KB body posted to a
// worker as a string costs ~5x what its bytes cost, bench/README.md "Session 20").
import type { Part } from './outcomes.js';

/**
 * `[` the records' JSON joined by `,` `]`, as UTF-8, in a buffer of its own (not a slice of Node's pool: a
 * view posted to another thread takes its whole ArrayBuffer with it). The same bytes as
 * `Buffer.from('[' + parts.join(',') + ']')`: a record's JSON is well-formed (JSON.stringify escapes lone
 * surrogates), so encoding it part by part changes nothing.
 */
export function bodyBytes(parts: readonly Pick<Part<unknown>, 'json' | 'bytes'>[]): Buffer {
  let size = parts.length > 0 ? parts.length + 1 : 2;
  for (const part of parts) size += part.bytes;
  const bytes = Buffer.allocUnsafeSlow(size);
  bytes[0] = 0x5b;
  let at = 1;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) bytes[at++] = 0x2c;
    at += bytes.write(parts[i]!.json, at, 'utf8');
  }
  bytes[at++] = 0x5d;
  // A part's `bytes` is its JSON's byte length (deliver.ts toPart); a wrong one would cut a record short.
  if (at !== size) throw new Error(`body of ${size} bytes filled with ${at}: a part's byte count is wrong`);
  return bytes;
}
