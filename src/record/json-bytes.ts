// JSON's text for a string or a number, written as UTF-8 bytes where it goes (issue 23): a record's JSON
// (transport/record-json.ts) and a journal row's entries (ledger/journal-draft.ts) are built in buffers, not as
// strings, and must be the bytes JSON.stringify writes. Pure.
import { writeNumber } from './number-bytes.js';

/** Bytes `writeJsonString` may write for `text`: a UTF-16 unit is at most 6 escaped (\u001f), and the quotes. */
export const jsonStringBound = (text: string): number => 6 * text.length + 2;

/** `text` as a JSON string from `at`; returns where it ends. ASCII with nothing to escape: a byte a unit. */
export function writeJsonString(out: Buffer, from: number, text: string): number {
  let at = from;
  out[at++] = 0x22;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // Control characters, `"`, `\` and anything past ASCII: the whole string as JSON.stringify writes it.
    if (unit < 0x20 || unit > 0x7e || unit === 0x22 || unit === 0x5c)
      return from + out.write(JSON.stringify(text), from, 'utf8');
    out[at++] = unit;
  }
  out[at++] = 0x22;
  return at;
}

/** A number as JSON.stringify writes it (String(); not finite: null) from `at`; returns where it ends. */
export function writeJsonNumber(out: Buffer, at: number, value: number): number {
  if (Number.isFinite(value)) return writeNumber(out, at, value);
  return at + out.write('null', at, 'latin1');
}
