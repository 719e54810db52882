// RFC 4180 tokenizer over UTF-8 byte chunks: records of cells, each with the physical line where
// it starts. It never throws: a broken record becomes one malformed report and parsing goes on.

import { isAscii } from 'node:buffer';
import { RAW_BYTES, rawText } from './chunks.js';

// Hand-written rather than csv-parse 6.2.1 because there: info.lines counts a CRLF inside a quoted
// cell twice; max_record_size with skip_records_with_error re-reports and re-reads instead of
// recovering; a skipped record has no start line. It is also about 2.5x faster on arrays.

// In an ASCII chunk every cell is a slice of the chunk's text, decoded once (a string slice costs a sixth of a
// Buffer decode); in any other chunk each cell is decoded alone. V8 copies a slice shorter than 13 characters; a
// longer one is a view that keeps the chunk's 64 KiB text alive as long as the cell. What outlives its chunk is
// bounded: records in flight and the guard's hold are consecutive rows, so they keep alive about the text they
// came from; the summary keeps a few examples per reason; what is kept to the run's end (a file's header, the
// zone and currency caches' keys, SeenIds' prefixes and arena, the lookup table) is copied (detached.ts).

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** A quote was seen inside a quoted field: a second quote escapes it, anything else closes the field. */
const QUOTE_IN_QUOTED = 3;

/** Receives the tokenizer's output, in file order. */
export interface CsvTokenSink {
  /**
   * `cells` is a fresh array the sink may keep. `text` is the record as written (without its line break) when it
   * lies in one ASCII chunk: a slice of that chunk's text, from which the same cells are read again
   * (compact-row.ts); undefined otherwise.
   */
  onRecord(cells: string[], line: number, text: string | undefined): void;
  onMalformed(line: number, reason: 'malformed CSV' | 'field too large', message: string, raw: string): void;
  /**
   * The record starting on `line` has just passed maxRecordBytes, before its end is seen (which may never
   * come: a file without line breaks). It is still reported through onMalformed when it ends.
   */
  onOversized?(line: number): void;
}

export interface CsvTokenizerOptions {
  /** One ASCII character. */
  delimiter: string;
  /** A record (all its fields) above this many bytes is reported as `field too large` and not kept. */
  maxRecordBytes: number;
}

export class CsvTokenizer {
  private readonly sink: CsvTokenSink;
  private readonly delimiter: number;
  private readonly maxRecordBytes: number;
  private state = FIELD_START;
  /** The record's cells, `fields` of them until it is oversized (then none); made as long as the last record's. */
  private cells: string[] = [];
  /** Pieces of the current field that could not be sliced from one chunk in one go. */
  private parts: Buffer[] = [];
  /** Physical line at the current position. */
  private line = 1;
  private recordLine = 1;
  private quoteLine = 1;
  /** Absolute byte offsets: start of the current chunk and of the current record. */
  private base = 0;
  private recordStart = 0;
  /** A CR ended the previous chunk: an LF starting this one belongs to the same line break. */
  private crPending = false;
  /** The first bytes of a record that began in an earlier chunk, for `raw`. */
  private rawHead: Buffer | undefined;
  private problem: string | undefined;
  private oversized = false;
  /** Fields completed in the current record, counted even when an oversized record drops its cells. */
  private fields = 0;
  /** The chunk being written as text, when it is ASCII (byte offsets are then text offsets). */
  private text: string | undefined;

  constructor(sink: CsvTokenSink, options: CsvTokenizerOptions) {
    this.sink = sink;
    this.delimiter = options.delimiter.charCodeAt(0);
    this.maxRecordBytes = options.maxRecordBytes;
  }

  write(buf: Buffer): void {
    const n = buf.length;
    const d = this.delimiter;
    let state = this.state;
    this.text = isAscii(buf) ? buf.toString('latin1') : undefined;
    let i = this.crPending ? this.skipSplitCrLf(buf) : 0;
    // A line break's LF skipped inside a quoted field is part of the field's text.
    let segStart = state === QUOTED ? 0 : i;
    while (i < n) {
      if (state === UNQUOTED) {
        // A quote inside an unquoted field is kept as a literal character (like relax_quotes).
        i = unquotedEnd(buf, i, d);
        if (i === n) break;
        this.pushField(buf, segStart, i);
        state = FIELD_START;
        i = this.afterSeparator(buf, i);
        segStart = i;
      } else if (state === FIELD_START) {
        const c = buf[i]!;
        if (c === QUOTE) {
          state = QUOTED;
          this.quoteLine = this.line;
          segStart = ++i;
        } else if (c === d || c === LF || c === CR) {
          this.pushField(buf, i, i);
          i = this.afterSeparator(buf, i);
          segStart = i;
        } else {
          state = UNQUOTED;
          segStart = i;
        }
      } else if (state === QUOTED) {
        i = this.quotedEnd(buf, i);
        if (i === n) break;
        this.take(buf, segStart, i);
        state = QUOTE_IN_QUOTED;
        i++;
      } else {
        const c = buf[i]!;
        if (c === QUOTE) {
          state = QUOTED;
          segStart = i++;
        } else if (c === d || c === LF || c === CR) {
          this.pushField(buf, i, i);
          state = FIELD_START;
          i = this.afterSeparator(buf, i);
          segStart = i;
        } else {
          this.failAfterQuote(c);
          state = UNQUOTED;
          segStart = i;
        }
      }
    }
    this.endChunk(buf, state, segStart);
    this.text = undefined;
  }

  /** A CR ended the previous chunk: an LF starting this one is the rest of that line break. */
  private skipSplitCrLf(buf: Buffer): number {
    this.crPending = false;
    if (buf.length === 0 || buf[0] !== LF) return 0;
    if (this.state !== QUOTED) this.recordStart = this.base + 1;
    return 1;
  }

  /** Past the delimiter or line break at `at`. */
  private afterSeparator(buf: Buffer, at: number): number {
    const c = buf[at]!;
    return c === this.delimiter ? at + 1 : this.lineBreak(buf, at, c);
  }

  /** The next quote inside a quoted field (or the chunk's end), counting the line breaks on the way. */
  private quotedEnd(buf: Buffer, from: number): number {
    const n = buf.length;
    let i = from;
    while (i < n) {
      const c = buf[i]!;
      if (c === QUOTE) break;
      if (c === LF) {
        this.line++;
      } else if (c === CR) {
        this.line++;
        if (i + 1 === n) this.crPending = true;
        else if (buf[i + 1] === LF) i++;
      }
      i++;
    }
    return i;
  }

  private failAfterQuote(c: number): void {
    this.fail(
      `unexpected ${describeByte(c)} after the closing quote of column ${this.fields + 1}` +
        ' (a quote inside a quoted field must be doubled: "")',
    );
  }

  /** Keeps the open field's bytes, the record's size check and raw head, and the state for the next chunk. */
  private endChunk(buf: Buffer, state: number, segStart: number): void {
    const n = buf.length;
    if (state === UNQUOTED || state === QUOTED) this.take(buf, segStart, n);
    if (!this.oversized && this.base + n - this.recordStart > this.maxRecordBytes) this.markOversized();
    this.keepRawHead(buf);
    this.base += n;
    this.state = state;
  }

  /** Flushes the last record (a file need not end with a line break). */
  end(): void {
    const empty = Buffer.alloc(0);
    const state = this.state;
    if (state === QUOTED) {
      this.fail(
        `the quoted field in column ${this.fields + 1} opened on line ${this.quoteLine} is never closed` +
          `; the rest of the file was read as that one field`,
      );
    }
    if (state !== FIELD_START || this.base > this.recordStart) {
      this.pushField(empty, 0, 0);
      this.endRecord(empty, 0);
    }
    this.state = FIELD_START;
    this.recordStart = this.base;
  }

  private lineBreak(buf: Buffer, at: number, c: number): number {
    this.endRecord(buf, at);
    this.line++;
    let next = at + 1;
    if (c === CR) {
      if (next === buf.length) this.crPending = true;
      else if (buf[next] === LF) next++;
    }
    this.recordLine = this.line;
    this.recordStart = this.base + next;
    return next;
  }

  private take(buf: Buffer, start: number, end: number): void {
    if (end > start && !this.oversized) this.parts.push(buf.subarray(start, end));
  }

  private pushField(buf: Buffer, start: number, end: number): void {
    this.fields++;
    if (this.oversized) return;
    const parts = this.parts;
    let value: string;
    if (parts.length === 0) {
      const text = this.text;
      if (end === start) value = '';
      else if (text !== undefined) value = text.slice(start, end);
      else value = buf.toString('utf8', start, end);
    } else {
      if (end > start) parts.push(buf.subarray(start, end));
      value = parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts).toString('utf8');
      parts.length = 0;
    }
    this.cells[this.fields - 1] = value;
    if (this.base + end - this.recordStart > this.maxRecordBytes) this.markOversized();
  }

  private endRecord(buf: Buffer, end: number): void {
    if (this.problem !== undefined || this.oversized) {
      const raw = this.rawOf(buf, end);
      if (this.problem !== undefined)
        this.sink.onMalformed(this.recordLine, 'malformed CSV', this.problem, raw);
      else {
        this.sink.onMalformed(
          this.recordLine,
          'field too large',
          `the row is larger than ${this.maxRecordBytes} bytes (maxRowBytes); a quote may be missing`,
          raw,
        );
      }
      this.problem = undefined;
      this.oversized = false;
    } else {
      const cells = this.cells;
      if (cells.length !== this.fields) cells.length = this.fields;
      const from = this.recordStart - this.base;
      const text = this.text !== undefined && from >= 0 ? this.text.slice(from, end) : undefined;
      this.sink.onRecord(cells, this.recordLine, text);
    }
    this.cells = presized(this.fields);
    this.fields = 0;
    this.rawHead = undefined;
  }

  private fail(message: string): void {
    if (this.problem === undefined) this.problem = message;
  }

  private markOversized(): void {
    this.oversized = true;
    this.cells = [];
    this.parts.length = 0;
    this.sink.onOversized?.(this.recordLine);
  }

  private keepRawHead(buf: Buffer): void {
    const have = this.rawHead?.length ?? 0;
    if (have >= RAW_BYTES) return;
    const from = Math.max(this.recordStart - this.base, 0);
    const to = Math.min(buf.length, from + RAW_BYTES - have);
    if (to <= from) return;
    const piece = Buffer.from(buf.subarray(from, to));
    this.rawHead = this.rawHead === undefined ? piece : Buffer.concat([this.rawHead, piece]);
  }

  private rawOf(buf: Buffer, end: number): string {
    if (this.rawHead === undefined) {
      const from = Math.max(this.recordStart - this.base, 0);
      return rawText(buf.subarray(from, Math.min(end, from + RAW_BYTES)));
    }
    const more = Math.min(end, RAW_BYTES - this.rawHead.length);
    return rawText(more > 0 ? Buffer.concat([this.rawHead, buf.subarray(0, more)]) : this.rawHead);
  }
}

/**
 * A record's array, as long as the last record's (up to 256 cells): pushing into `[]` grew a 16-slot store
 * and then again past 16 cells, copying, on every row; one of the right length is one allocation.
 */
function presized(cells: number): string[] {
  return cells > 0 && cells <= 256 ? new Array<string>(cells) : [];
}

/** The end of an unquoted field: the next delimiter, LF or CR, or the chunk's end. */
function unquotedEnd(buf: Buffer, from: number, d: number): number {
  const n = buf.length;
  let i = from;
  while (i < n) {
    const c = buf[i]!;
    if (c === d || c === LF || c === CR) return i;
    i++;
  }
  return n;
}

function describeByte(c: number): string {
  return c >= 0x20 && c < 0x7f ? `"${String.fromCharCode(c)}"` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}
