// The row thread's batches (issue 23): what the row path sends the main thread, in order, packed into one
// string and two typed arrays per batch, so that a batch crosses threads as a few copies of flat memory
// instead of a structured clone of hundreds of objects (measured: 3 us a record to clone, 0.5 to unpack).
import { doubled } from '../../grown-array.js';
import type { SourceInfo, SourceRow } from '../../input/types.js';
import { keyOf } from '../../ledger/record-key.js';
import { type ConversionRecord, type RecordField, recordFields } from '../../record/fields.js';
import type { CheckedRow, SkippedRow } from '../rows/types.js';

/**
 * A valid row with what the run needs of it already computed on the row thread: its local day (the report's
 * revenue per day, the guard's series) and, for a push, its identity (key and content hash).
 */
export type WireRow = Extract<CheckedRow, { ok: true }> & { wire?: Wire; day?: number };

/**
 * The record's ledger identity, computed where it was checked. Its JSON is not: written on the main thread
 * (transport/record-json.ts), it cost less than carrying the text across (bench/README.md, "The row thread").
 */
export interface Wire {
  key: string;
  contentHash: string;
}

/** An outcome the taker takes (folded rows are only counted). */
export type TakenOutcome = WireRow | Extract<CheckedRow, { ok: false }> | SkippedRow;

/** What the main thread does, in the order the row thread met it. */
export type RowEvent =
  | { kind: 'outcome'; outcome: TakenOutcome; counts: Counts }
  | { kind: 'fileStart'; file: string }
  | { kind: 'fileDone'; file: string; rows: number; counts: Counts }
  | { kind: 'warn'; message: string }
  | { kind: 'readerWarning'; message: string }
  | { kind: 'preset'; file: string; preset: string }
  | { kind: 'bytes'; bytes: number }
  | { kind: 'sums' }
  | { kind: 'end'; counts: Counts };

/** The run's rows read and folded at an event: the main thread's summary takes them as it gets there. */
export interface Counts {
  rowsRead: number;
  folded: number;
}

/** One batch as posted: `ends` and `nums` are transferred, `text` and `others` copied. */
export interface PackedBatch {
  text: string;
  ends: Uint32Array;
  nums: Float64Array;
  /** Outcomes other than a valid CSV row, and each file's SourceInfo the first time (structured clone). */
  others: unknown[];
}

const STRIDE = 6;
/**
 * Numbers a valid row adds after its event's six: mask, fromCell, cells, day, id column, occurrence (a record
 * without a conversionId: content-counts.ts), a cell per field.
 */
const EXTRA = 6 + 7;
/** Each event's first number in `nums`. */
const Kind = {
  ValidCsv: 0,
  Other: 1,
  FileStart: 2,
  FileDone: 3,
  Warn: 4,
  ReaderWarning: 5,
  Preset: 6,
  Bytes: 7,
  End: 8,
  Source: 9,
  IdColumn: 10,
  Sums: 11,
} as const;
type Kind = (typeof Kind)[keyof typeof Kind];
/** conversionValue aside, the record's fields in their wire order, each one bit of the presence mask. */
const stringFields = recordFields.filter(
  (field): field is Exclude<RecordField, 'conversionValue'> => field !== 'conversionValue',
);

/** Builds batches on the row thread: events appended in order, `take()` hands the batch over. */
export class BatchWriter {
  /**
   * The batch's text parts, in one array kept across batches (filling a new one grew and copied its store
   * some 15 times a batch, ~190 bytes a row to collect): the first `#fields` are this batch's, the rest ''.
   */
  readonly #parts: string[] = new Array<string>(8192).fill('');
  /** Parts the last batch used: those past this batch's are emptied before the join. */
  #lastFields = 0;
  #ends = new Uint32Array(8192);
  #fields = 0;
  #nums = new Float64Array(4096);
  #used = 0;
  #others: unknown[] = [];
  #length = 0;
  readonly #sources = new Map<SourceInfo, number>();
  readonly #idColumns = new Map<string, number>();
  readonly #cellAt = new Float64Array(stringFields.length);
  outcomes = 0;

  /**
   * An outcome; for a valid one, its local day (NaN: none) and, for a push, its content hash, computed on the
   * row thread and written beside it (not added to the outcome: a property added to an object grows a store).
   */
  outcome(outcome: TakenOutcome, counts: Counts, day = Number.NaN, contentHash?: string): void {
    this.outcomes++;
    if ('ok' in outcome && outcome.ok && outcome.row.kind === 'csv' && outcome.row.footer === undefined) {
      this.#validCsv(outcome, counts, day, contentHash);
      return;
    }
    const file = this.#sourceIndex(rowOf(outcome)?.source);
    this.#event(Kind.Other, counts.rowsRead, counts.folded, file, this.#others.length, 0);
    const sent = withoutSource(outcome);
    if ('ok' in sent && sent.ok) {
      if (!Number.isNaN(day)) sent.day = day;
      if (contentHash !== undefined)
        sent.wire = { key: keyOf(sent.record.conversionId, contentHash, sent.occurrence), contentHash };
    }
    this.#others.push(sent);
  }

  fileStart(file: string): void {
    this.#event(Kind.FileStart, 0, 0, 0, 0, 0);
    this.#text(file);
  }

  fileDone(file: string, rows: number, counts: Counts): void {
    this.#event(Kind.FileDone, counts.rowsRead, counts.folded, rows, 0, 0);
    this.#text(file);
  }

  warn(message: string, reader: boolean): void {
    this.#event(reader ? Kind.ReaderWarning : Kind.Warn, 0, 0, 0, 0, 0);
    this.#text(message);
  }

  preset(file: string, preset: string): void {
    this.#event(Kind.Preset, 0, 0, 0, 0, 0);
    this.#text(file);
    this.#text(preset);
  }

  bytes(bytes: number): void {
    this.#event(Kind.Bytes, bytes, 0, 0, 0, 0);
  }

  /** The run's summed conversions follow (mapping.sumBy): taken whatever stops the run after this. */
  sums(): void {
    this.#event(Kind.Sums, 0, 0, 0, 0, 0);
  }

  end(counts: Counts): void {
    this.#event(Kind.End, counts.rowsRead, counts.folded, 0, 0, 0);
  }

  get empty(): boolean {
    return this.#used === 0;
  }

  /** The batch so far, packed (arrays of its own, to transfer); the writer starts a new one. */
  take(): PackedBatch {
    const parts = this.#parts;
    for (let i = this.#fields; i < this.#lastFields; i++) parts[i] = '';
    this.#lastFields = this.#fields;
    const batch: PackedBatch = {
      text: parts.join(''),
      ends: this.#ends.slice(0, this.#fields),
      nums: this.#nums.slice(0, this.#used),
      others: this.#others,
    };
    this.#fields = 0;
    this.#used = 0;
    this.#others = [];
    this.#length = 0;
    this.outcomes = 0;
    return batch;
  }

  /**
   * A valid CSV row as its cells and what the cells do not hold: a record field equal to a cell (an id, a
   * currency, an e-mail as written) goes as that cell's index, the key is made again from the id and the
   * hash, the id column once per file. Parts per record 18 -> ~10: the join, the copy and the slices cost
   * per part (bench/README.md, "The row thread").
   */
  #validCsv(outcome: WireRow, counts: Counts, day: number, contentHash: string | undefined): void {
    const { record, row } = outcome;
    if (row.kind !== 'csv') return;
    // Their events first: they come before the row's, and an id column's text before the row's parts.
    const file = this.#sourceIndex(row.source);
    const idColumn = this.#idColumnIndex(outcome.idColumn);
    const cells = row.cells;
    for (const cell of cells) this.#text(cell);
    let mask = 0;
    let fromCell = 0;
    // The cells' indexes, in field order, into one reused array (an array per row was 170 bytes to collect).
    const at = this.#cellAt;
    let fromCells = 0;
    for (let i = 0; i < stringFields.length; i++) {
      const value = record[stringFields[i]!];
      if (value === undefined) continue;
      mask |= 1 << i;
      const cell = cells.indexOf(value);
      if (cell >= 0) {
        fromCell |= 1 << i;
        at[fromCells++] = cell;
      } else this.#text(value);
    }
    if (contentHash !== undefined) {
      mask |= 1 << stringFields.length;
      this.#text(contentHash);
    }
    this.#event(Kind.ValidCsv, counts.rowsRead, counts.folded, file, row.line, record.conversionValue);
    this.#number(mask);
    this.#number(fromCell);
    this.#number(cells.length);
    this.#number(day);
    this.#number(idColumn);
    this.#number(outcome.occurrence ?? 1);
    for (let i = 0; i < fromCells; i++) this.#number(at[i]!);
  }

  #idColumnIndex(idColumn: string): number {
    let index = this.#idColumns.get(idColumn);
    if (index === undefined) {
      index = this.#idColumns.size;
      this.#idColumns.set(idColumn, index);
      this.#event(Kind.IdColumn, 0, 0, index, 0, 0);
      this.#text(idColumn);
    }
    return index;
  }

  #sourceIndex(source: SourceInfo | undefined): number {
    if (source === undefined) return -1;
    let index = this.#sources.get(source);
    if (index === undefined) {
      index = this.#sources.size;
      this.#sources.set(source, index);
      this.#event(Kind.Source, 0, 0, index, this.#others.length, 0);
      this.#others.push(source);
    }
    return index;
  }

  #event(kind: Kind, a: number, b: number, c: number, d: number, e: number): void {
    if (this.#used + STRIDE + EXTRA > this.#nums.length) this.#nums = doubled(this.#nums);
    const nums = this.#nums;
    const at = this.#used;
    nums[at] = kind;
    nums[at + 1] = a;
    nums[at + 2] = b;
    nums[at + 3] = c;
    nums[at + 4] = d;
    nums[at + 5] = e;
    this.#used = at + STRIDE;
  }

  /** A number after the event's six (room for EXTRA was made by #event). */
  #number(value: number): void {
    this.#nums[this.#used++] = value;
  }

  #text(value: string): void {
    this.#parts[this.#fields] = value;
    this.#length += value.length;
    if (this.#fields === this.#ends.length) this.#ends = doubled(this.#ends);
    this.#ends[this.#fields++] = this.#length;
  }
}

/** Reads batches on the main thread, in order; keeps each file's SourceInfo across batches. */
export class BatchReader {
  readonly #sources: SourceInfo[] = [];
  readonly #idColumns: string[] = [];

  /** The batch's events, decoded. */
  *events(batch: PackedBatch): Generator<RowEvent> {
    const { text, ends, nums, others } = batch;
    let field = 0;
    let start = 0;
    const next = (): string => {
      const end = ends[field++]!;
      const value = text.slice(start, end);
      start = end;
      return value;
    };
    for (let i = 0; i < nums.length; ) {
      const kind = nums[i]! as Kind;
      const counts = { rowsRead: nums[i + 1]!, folded: nums[i + 2]! };
      const c = nums[i + 3]!;
      const d = nums[i + 4]!;
      const e = nums[i + 5]!;
      i += STRIDE;
      switch (kind) {
        case Kind.ValidCsv: {
          const outcome = this.#validCsv(next, nums, i, { file: c, line: d, value: e });
          i += 6 + bitCount(nums[i + 1]!);
          yield { kind: 'outcome', outcome, counts };
          break;
        }
        case Kind.IdColumn:
          this.#idColumns[c] = next();
          break;
        case Kind.Other:
          yield { kind: 'outcome', outcome: this.#other(others[d], c), counts };
          break;
        case Kind.Source:
          this.#sources[c] = others[d] as SourceInfo;
          break;
        case Kind.FileStart:
          yield { kind: 'fileStart', file: next() };
          break;
        case Kind.FileDone:
          yield { kind: 'fileDone', file: next(), rows: c, counts };
          break;
        case Kind.Warn:
          yield { kind: 'warn', message: next() };
          break;
        case Kind.ReaderWarning:
          yield { kind: 'readerWarning', message: next() };
          break;
        case Kind.Preset:
          yield { kind: 'preset', file: next(), preset: next() };
          break;
        case Kind.Bytes:
          yield { kind: 'bytes', bytes: counts.rowsRead };
          break;
        case Kind.End:
          yield { kind: 'end', counts };
          break;
        case Kind.Sums:
          yield { kind: 'sums' };
          break;
      }
    }
  }

  /** A valid CSV row (BatchWriter.#validCsv): its numbers from `nums[i]` on, its parts from `next`. */
  #validCsv(
    next: () => string,
    nums: Float64Array,
    i: number,
    at: { file: number; line: number; value: number },
  ): WireRow {
    const mask = nums[i]!;
    const fromCell = nums[i + 1]!;
    const cells = new Array<string>(nums[i + 2]!);
    for (let c = 0; c < cells.length; c++) cells[c] = next();
    let cellAt = i + 6;
    const field = (bit: number) =>
      mask & bit ? (fromCell & bit ? cells[nums[cellAt++]!]! : next()) : undefined;
    // The fields in their wire order (fields.ts, stringFields' bits), read in that order. One literal: every
    // record of the run has one shape, built in one allocation (fields added one by one grew a property store
    // per record). An absent field is undefined, which the record's JSON (transport/record-json.ts, as
    // JSON.stringify) leaves out as it leaves out a missing one: the same bytes as the original.
    const record = {
      conversionCurrency: field(1),
      conversionValue: at.value,
      conversionDatetime: field(2),
      conversionTimezone: field(4),
      serviceId: field(8),
      conversionId: field(16),
      conversionName: field(32),
      conversionEmail: field(64),
    } as ConversionRecord;
    const row: SourceRow = { kind: 'csv', source: this.#sources[at.file]!, line: at.line, cells };
    const contentHash = mask & (1 << stringFields.length) ? next() : undefined;
    const day = nums[i + 3]!;
    const occurrence = nums[i + 5]!;
    // One literal, wire and day included (added afterwards, they grew a property store per row).
    return {
      ok: true,
      record,
      row,
      idColumn: this.#idColumns[nums[i + 4]!]!,
      occurrence,
      wire:
        contentHash === undefined
          ? undefined
          : { key: keyOf(record.conversionId, contentHash, occurrence), contentHash },
      day: Number.isNaN(day) ? undefined : day,
    };
  }

  #other(sent: unknown, file: number): TakenOutcome {
    const outcome = sent as TakenOutcome;
    const source = this.#sources[file];
    if (source === undefined) return outcome;
    const row = rowOf(outcome);
    if (row) row.source = source;
    if ('rejection' in outcome && outcome.rejection.row) outcome.rejection.row.source = source;
    return outcome;
  }
}

function bitCount(mask: number): number {
  let count = 0;
  for (let bits = mask; bits !== 0; bits &= bits - 1) count++;
  return count;
}

function rowOf(outcome: TakenOutcome): SourceRow | undefined {
  if ('skipped' in outcome) return outcome.row;
  return outcome.ok ? outcome.row : outcome.rejection.row;
}

/**
 * The outcome with its rows' SourceInfo left out (sent once per file instead of once per row), and a JSON
 * row's parsed `value` too: past the checker only its `text` is read (the rejects file, known problems), and
 * the structured clone of a value nested 100,000 levels deep overflowed the stack (found by
 * test/e2e/bad-input.property.test.ts with the row thread on).
 */
function withoutSource(outcome: TakenOutcome): TakenOutcome {
  const strip = (row: SourceRow | undefined) => {
    if (row === undefined) return undefined;
    const sent = { ...row, source: undefined } as unknown as SourceRow;
    if (sent.kind === 'json') sent.value = {};
    return sent;
  };
  if ('skipped' in outcome) return { ...outcome, row: strip(outcome.row)! };
  if (outcome.ok) return { ...outcome, row: strip(outcome.row)! };
  return { ...outcome, rejection: { ...outcome.rejection, row: strip(outcome.rejection.row) } };
}
