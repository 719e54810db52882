// Entry point of the input stage: one file (or stdin) → an async stream of SourceRows, decoding,
// decompressing and detecting format and delimiter on the way, in memory bounded by maxFieldBytes.

import { ConfigError } from '../errors.js';
import { peek } from './chunks.js';
import { readCsvBatches } from './csv.js';
import { detectEncoding, ENCODING_SAMPLE_BYTES, normalizeEncoding, toUtf8 } from './encoding.js';
import { readJsonBatches } from './jsonl.js';
import { describeNotText } from './not-text.js';
import { openBytes } from './open.js';
import { detectFormat, type InputFormat, parseDelimiter, sniffDelimiter } from './sniff.js';
import type { HeaderTest, SourceInfo, SourceRow } from './types.js';

export type { InputFormat } from './sniff.js';
export { detectFormat } from './sniff.js';

/** Default bound on one CSV row or JSON line: 1 MiB. */
export const DEFAULT_MAX_FIELD_BYTES = 1024 * 1024;

export interface ReadOptions {
  /** Overrides detection. Default: from the extension (`.csv .tsv .txt`, `.jsonl .ndjson .json`), else sniffed. */
  format?: InputFormat;
  /** CSV delimiter: one character or `tab`. Default: sniffed among `,` `;` tab `|`. */
  delimiter?: string;
  /** utf-8, utf-16le, utf-16be, windows-1252 or latin1. Default: BOM, UTF-16 NUL pattern, UTF-8 check, else windows-1252. */
  encoding?: string;
  /** Which row is the CSV header; gets the row's trimmed cells. Default: the first non-blank row. */
  isHeader?: HeaderTest;
  /** What the header must hold, in words, for the error when no row is the header (e.g. the mapped columns). */
  expectedHeader?: string;
  /** Read when `file` is `-`. */
  stdin?: NodeJS.ReadableStream;
  /**
   * Bound on one CSV row or JSON line; a bigger one becomes a MalformedRow, and one above the CSV header (or a
   * first JSON line) ends the read with a ConfigError. Default 1 MiB.
   */
  maxFieldBytes?: number;
  /** A gzip input may inflate to this many times the compressed bytes read, past its first 16 MiB. Default 100. */
  maxGzipRatio?: number;
  /** Non-fatal notes, e.g. the windows-1252 fallback. Default: dropped. */
  onWarning?: (message: string) => void;
  /** Aborting ends the iteration quietly after the current chunk. */
  signal?: AbortSignal;
  /** Told the size of each chunk read from the file (compressed bytes for gzip), for progress. */
  onBytes?: (bytes: number) => void;
  /** Told the file's SourceInfo once its format is known (CSV: header filled in as read), rows or none. */
  onSource?: (source: SourceInfo) => void;
}

/**
 * The rows of `file` (`-` = options.stdin), in file order. Throws ConfigError (naming the file) only
 * when the whole file is unusable: unreadable, corrupt gzip, no header, a JSON document instead of
 * JSON lines, or bad options. Everything else is a row, malformed ones included. An empty file (no
 * bytes, or blank lines only) has no rows.
 */
export async function* readRows(
  file: string,
  options: ReadOptions = {},
): AsyncGenerator<SourceRow, void, undefined> {
  for await (const rows of readRowBatches(file, options)) yield* rows;
}

/** readRows a chunk's rows at a time (no batch empty): the run's read loop takes them so (check-files.ts). */
export async function* readRowBatches(
  file: string,
  options: ReadOptions = {},
): AsyncGenerator<SourceRow[], void, undefined> {
  const givenEncoding =
    options.encoding === undefined ? undefined : normalizeEncoding(options.encoding, file);
  const givenDelimiter =
    options.delimiter === undefined ? undefined : parseDelimiter(options.delimiter, file);
  const maxFieldBytes = options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES;
  if (!Number.isInteger(maxFieldBytes) || maxFieldBytes < 1) {
    throw new ConfigError(`${file}: maxFieldBytes must be a positive integer, got ${maxFieldBytes}`);
  }

  const bytes = await peek(openBytes(file, options), ENCODING_SAMPLE_BYTES);
  let close = bytes.close;
  try {
    const notText = describeNotText(bytes.head, bytes.ended);
    if (notText) throw new ConfigError(`${file}: ${notText.what}`, { hint: notText.hint });
    let encoding = givenEncoding;
    if (encoding === undefined) {
      const detected = detectEncoding(bytes.head, bytes.ended);
      encoding = detected.encoding;
      if (detected.guessed) {
        options.onWarning?.(`${file}: not valid UTF-8, read as windows-1252 (set the encoding to override)`);
      }
    }
    const text = await peek(
      toUtf8(bytes.chunks, encoding, (offset) =>
        options.onWarning?.(
          `${file}: invalid UTF-8 near byte ${offset}: those characters were read as U+FFFD (if the file is windows-1252, pass --encoding windows-1252)`,
        ),
      ),
      ENCODING_SAMPLE_BYTES,
    );
    close = text.close;
    const format = options.format ?? detectFormat(file, text.head);
    const source: SourceInfo = { file, format, encoding };
    options.onSource?.(source);
    if (format === 'jsonl') {
      yield* readJsonBatches(text.chunks, source, { maxFieldBytes, signal: options.signal });
      return;
    }
    const delimiter =
      givenDelimiter ?? sniffDelimiter(text.head.subarray(0, ENCODING_SAMPLE_BYTES), options.isHeader);
    yield* readCsvBatches(text.chunks, source, {
      delimiter,
      isHeader: options.isHeader,
      expectedHeader: options.expectedHeader,
      maxFieldBytes,
      signal: options.signal,
    });
  } finally {
    await close();
  }
}
