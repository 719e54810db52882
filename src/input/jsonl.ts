// JSON-lines rows of one file: one object per physical line, split from UTF-8 byte chunks.
// A line is never buffered beyond maxFieldBytes: a longer one is reported and skipped.

import { ConfigError } from '../errors.js';
import { escapeControls } from '../quote.js';
import { RAW_BYTES, rawText } from './chunks.js';
import type { SourceInfo, SourceRow } from './types.js';

const LF = 0x0a;
const CR = 0x0d;

export interface JsonlReadOptions {
  maxFieldBytes: number;
  signal?: AbortSignal;
}

/** The lines' rows, a chunk's rows at a time (no batch empty), as csv.ts's readCsvBatches. */
export async function* readJsonBatches(
  chunks: AsyncIterable<Buffer>,
  source: SourceInfo,
  options: JsonlReadOptions,
): AsyncGenerator<SourceRow[], void, undefined> {
  const splitter = new JsonLineSplitter(source, options.maxFieldBytes);
  for await (const chunk of chunks) {
    if (options.signal?.aborted === true) return;
    splitter.write(chunk);
    if (splitter.rows.length > 0) {
      const rows = splitter.rows;
      splitter.rows = [];
      yield rows;
    }
  }
  if (options.signal?.aborted === true) return;
  splitter.end();
  if (splitter.rows.length > 0) yield splitter.rows;
}

export class JsonLineSplitter {
  rows: SourceRow[] = [];
  private readonly source: SourceInfo;
  private readonly maxLineBytes: number;
  private line = 1;
  /** Pieces of a line that spans chunks. */
  private parts: Buffer[] = [];
  private partsBytes = 0;
  /** The current line passed maxLineBytes: its bytes are dropped until the next LF. */
  private tooLong = false;
  private rawHead: Buffer | undefined;
  private seenContent = false;

  constructor(source: SourceInfo, maxLineBytes: number) {
    this.source = source;
    this.maxLineBytes = maxLineBytes;
  }

  write(buf: Buffer): void {
    let start = 0;
    for (;;) {
      const lf = buf.indexOf(LF, start);
      if (lf === -1) break;
      this.endLine(buf, start, lf);
      this.line++;
      start = lf + 1;
    }
    if (start < buf.length) this.keep(buf.subarray(start));
  }

  end(): void {
    if (this.partsBytes > 0 || this.tooLong) this.endLine(Buffer.alloc(0), 0, 0);
  }

  private keep(piece: Buffer): void {
    if (this.tooLong) return;
    this.partsBytes += piece.length;
    if (this.partsBytes > this.maxLineBytes) {
      this.startDiscarding([...this.parts, piece]);
      return;
    }
    this.parts.push(piece);
  }

  private startDiscarding(pieces: Buffer[]): void {
    this.tooLong = true;
    this.rawHead = Buffer.concat(pieces).subarray(0, RAW_BYTES);
    if (!this.seenContent) this.rejectLongFirstLine(this.rawHead);
    this.parts = [];
    this.partsBytes = 0;
  }

  private endLine(buf: Buffer, start: number, end: number): void {
    let bytes: Buffer;
    if (this.tooLong) {
      bytes = Buffer.alloc(0);
    } else if (this.parts.length === 0) {
      bytes = buf.subarray(start, end);
    } else {
      this.parts.push(buf.subarray(start, end));
      bytes = Buffer.concat(this.parts);
      this.parts = [];
      this.partsBytes = 0;
    }
    if (!this.tooLong && bytes.length > this.maxLineBytes) this.startDiscarding([bytes]);
    if (this.tooLong) {
      this.tooLong = false;
      const raw = rawText(this.rawHead ?? Buffer.alloc(0));
      this.rawHead = undefined;
      this.malformed(
        'line too long',
        `the line is longer than ${this.maxLineBytes} bytes (maxRowBytes)`,
        raw,
      );
      return;
    }
    let length = bytes.length;
    if (length > 0 && bytes[length - 1] === CR) length--;
    const text = bytes.toString('utf8', 0, length);
    if (isBlank(text)) return;
    if (!this.seenContent) {
      this.seenContent = true;
      this.rejectWholeDocumentJson(text);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      // V8 quotes the line in its message: its control characters are escaped like any cell (issue 24).
      const message = escapeControls((error as Error).message);
      this.malformed('malformed JSON', `invalid JSON: ${message}`, rawText(bytes));
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
      this.malformed('malformed JSON', `expected a JSON object on the line, got ${got}`, rawText(bytes));
      return;
    }
    this.rows.push({
      kind: 'json',
      source: this.source,
      line: this.line,
      value: value as Record<string, unknown>,
      text,
    });
  }

  /**
   * A first line past the bound ends the read at once: its end may never come (a file without line breaks
   * was read for ever, issue 24), and it is rarely one big record: more often a whole JSON array on one line.
   */
  private rejectLongFirstLine(head: Buffer): never {
    const file = this.source.file;
    const array = head.toString('utf8').trimStart().startsWith('[');
    throw new ConfigError(
      `${file}:${this.line}: the first line runs past ${this.maxLineBytes} bytes (maxRowBytes) without ending; stopped reading`,
      {
        hint: array
          ? "it starts like a JSON array on one line: convert it to JSON lines, one object per line, e.g. jq -c '.[]' in.json > out.jsonl"
          : 'JSON lines hold one object per line; if a line really is longer, raise maxRowBytes in the config',
      },
    );
  }

  /** A `.json` array or a pretty-printed object would give one useless error per line. */
  private rejectWholeDocumentJson(text: string): void {
    const first = text.trim();
    const hint = "convert it to JSON lines, one object per line, e.g. jq -c '.[]' in.json > out.jsonl";
    // In a .jsonl file a first line that is a whole array (`[]`) is one bad line; an array opened on the
    // first line and closed later, or any array in a .json file, is a JSON document.
    const jsonDocument = /\.json(\.gz)?$/i.test(this.source.file);
    if (first.startsWith('[') && (jsonDocument || !isCompleteJson(first))) {
      throw new ConfigError(`${this.source.file}: is a JSON array; revimport reads JSON lines`, { hint });
    }
    if (first === '{') {
      throw new ConfigError(
        `${this.source.file}: looks like pretty-printed JSON; revimport reads JSON lines`,
        {
          hint: "write one object per line (jq -c '.' in.json > out.jsonl)",
        },
      );
    }
  }

  private malformed(reason: string, message: string, raw: string): void {
    this.rows.push({ kind: 'malformed', source: this.source, line: this.line, reason, message, raw });
  }
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0xa0 && c !== 0xfeff) return false;
  }
  return true;
}
