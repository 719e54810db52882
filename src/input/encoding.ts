// Detects a file's text encoding from its first bytes and re-encodes the stream as UTF-8,
// so that the CSV and JSON readers only ever see UTF-8 bytes.

import { isUtf8 } from 'node:buffer';
import { ConfigError } from '../errors.js';

/** How many leading bytes decide the encoding (UTF-8 validity is checked over this much). */
export const ENCODING_SAMPLE_BYTES = 64 * 1024;
const NUL_SAMPLE_BYTES = 4096;

const ALIASES: Record<string, string> = {
  utf8: 'utf-8',
  'utf-8': 'utf-8',
  utf16le: 'utf-16le',
  'utf-16le': 'utf-16le',
  'utf-16': 'utf-16le',
  ucs2: 'utf-16le',
  'ucs-2': 'utf-16le',
  utf16be: 'utf-16be',
  'utf-16be': 'utf-16be',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  win1252: 'windows-1252',
  // As in the WHATWG Encoding Standard: files labelled latin1 are windows-1252 in practice.
  latin1: 'windows-1252',
  'iso-8859-1': 'windows-1252',
  ascii: 'windows-1252',
};

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** The canonical name for a user-given encoding, or a ConfigError listing the supported ones. */
export function normalizeEncoding(name: string, file: string): TextEncodingName {
  const canonical = ALIASES[name.trim().toLowerCase()];
  if (canonical === undefined) {
    throw new ConfigError(
      `${file}: unsupported encoding "${name}" (use utf-8, utf-16le, utf-16be, windows-1252 or latin1)`,
    );
  }
  return canonical as TextEncodingName;
}

export interface DetectedEncoding {
  encoding: TextEncodingName;
  /** True when nothing identified the encoding and windows-1252 is a guess. */
  guessed: boolean;
}

/**
 * BOM first, then the UTF-16 NUL pattern, then UTF-8 validity of `head`, else windows-1252.
 * `complete` says `head` is the whole file (a multi-byte character cut at its end is then an error).
 */
export function detectEncoding(head: Uint8Array, complete: boolean): DetectedEncoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', guessed: false };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', guessed: false };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', guessed: false };
  const utf16 = detectUtf16ByNuls(head);
  if (utf16 !== undefined) return { encoding: utf16, guessed: false };
  const sample = head.length > ENCODING_SAMPLE_BYTES ? head.subarray(0, ENCODING_SAMPLE_BYTES) : head;
  try {
    // stream: true tolerates a character cut by the sample boundary.
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: !complete || sample !== head });
    return { encoding: 'utf-8', guessed: false };
  } catch {
    return { encoding: 'windows-1252', guessed: true };
  }
}

function detectUtf16ByNuls(head: Uint8Array): TextEncodingName | undefined {
  const pairs = Math.floor(Math.min(head.length, NUL_SAMPLE_BYTES) / 2);
  if (pairs < 2) return undefined;
  let evenNuls = 0;
  let oddNuls = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (head[i] === 0) evenNuls++;
    if (head[i + 1] === 0) oddNuls++;
  }
  // ASCII text in UTF-16 has a NUL in every other byte; non-Latin text lowers the ratio.
  if (oddNuls >= pairs * 0.5 && evenNuls <= pairs * 0.1) return 'utf-16le';
  if (evenNuls >= pairs * 0.5 && oddNuls <= pairs * 0.1) return 'utf-16be';
  // Mostly CJK text has few ASCII characters, but a CSV has its delimiters, digits and line breaks, each with
  // a NUL on the same side; UTF-8 and single-byte text have none. A code unit ending in 00 (U+3000, U+4E00)
  // puts some on the other side. Such a file was read as windows-1252 (issue 24).
  const minimum = Math.max(4, pairs * 0.02);
  if (oddNuls >= minimum && evenNuls * 2 <= oddNuls && readsAsUtf16(head, 'utf-16le')) return 'utf-16le';
  if (evenNuls >= minimum && oddNuls * 2 <= evenNuls && readsAsUtf16(head, 'utf-16be')) return 'utf-16be';
  return undefined;
}

/**
 * Whether the first bytes are UTF-16 text: no unpaired surrogate (a cut at the end allowed), and every
 * ASCII code unit printable or a tab or line break. Binary data with NULs has control characters there.
 */
function readsAsUtf16(head: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): boolean {
  const sample = head.subarray(0, Math.min(head.length, NUL_SAMPLE_BYTES) & ~1);
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(sample, { stream: true });
  } catch {
    return false;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return false;
  }
  return true;
}

/** The chunks re-encoded as UTF-8, BOM removed. Characters split across chunks are kept whole. */
export async function* toUtf8(
  chunks: AsyncIterable<Buffer>,
  encoding: TextEncodingName,
  onInvalidUtf8?: (offset: number) => void,
): AsyncGenerator<Buffer, void, undefined> {
  if (encoding === 'utf-8') {
    yield* onInvalidUtf8 ? checkUtf8(stripUtf8Bom(chunks), onInvalidUtf8) : stripUtf8Bom(chunks);
    return;
  }
  const decoder = encoding === 'windows-1252' ? new Windows1252Decoder() : new TextDecoder(encoding);
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    if (text.length > 0) yield Buffer.from(text, 'utf8');
  }
  const tail = decoder.decode();
  if (tail.length > 0) yield Buffer.from(tail, 'utf8');
}

/**
 * Detection looks at the first 64 KiB only: invalid UTF-8 further on would silently become U+FFFD in
 * the cells. Each chunk is checked natively (buffer.isUtf8) and the first bad one reported, once.
 */
async function* checkUtf8(
  chunks: AsyncIterable<Buffer>,
  onInvalid: (offset: number) => void,
): AsyncGenerator<Buffer, void, undefined> {
  let carry: Buffer | undefined;
  let offset = 0;
  let reported = false;
  for await (const chunk of chunks) {
    if (!reported) {
      const check = carry ? Buffer.concat([carry, chunk]) : chunk;
      const cut = incompleteTail(check);
      carry = cut > 0 ? Buffer.from(check.subarray(check.length - cut)) : undefined;
      if (!isUtf8(check.subarray(0, check.length - cut))) {
        reported = true;
        onInvalid(offset);
      }
    }
    offset += chunk.length;
    yield chunk;
  }
  if (!reported && carry) onInvalid(offset - carry.length);
}

/** How many bytes at the end of `buf` start a multi-byte character that the next chunk completes. */
function incompleteTail(buf: Buffer): number {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const byte = buf[buf.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

async function* stripUtf8Bom(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer, void, undefined> {
  let first = true;
  for await (const chunk of chunks) {
    if (first && chunk.length > 0) {
      first = false;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        if (chunk.length > 3) yield chunk.subarray(3);
        continue;
      }
    }
    yield chunk;
  }
}

// windows-1252 bytes 0x80-0x9F (the rest is ISO-8859-1). Node's own TextDecoder decodes them as
// C1 controls since 20.18.3 / 22.13 (nodejs/node#60888), which would turn `€` into U+0080.
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const C1_RANGE = /[\u0080-\u009f]/g;
const mapC1 = (char: string): string => CP1252_HIGH[char.charCodeAt(0) - 0x80]!;

/** A single-byte decoder, so chunk boundaries need no state. */
export class Windows1252Decoder {
  decode(bytes?: Uint8Array, _options?: { stream?: boolean }): string {
    if (bytes === undefined || bytes.length === 0) return '';
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    return text.replace(C1_RANGE, mapC1);
  }
}
