// CSV rows of one file: finds the header below any preamble (reading `Parameters:` rows on the way),
// then yields data rows, dropping blank and `--` rows and marking report footers (`Total: ...`, trailers).

import { detached } from '../detached.js';
import { ColumnMismatchError, ConfigError } from '../errors.js';
import { CsvTokenizer, type CsvTokenSink } from './csv-tokenizer.js';
import type { CsvRow, HeaderNearMiss, HeaderTest, SourceInfo, SourceRow } from './types.js';

/** Rows searched for the header before giving up. */
export const MAX_PREAMBLE_ROWS = 100;

/** Footer-shaped rows held back until the end of the file: more of them in a row are data (a narrow file). */
const MAX_TRAILER_ROWS = 20;

export interface CsvReadOptions {
  /** One ASCII character, already resolved (given or sniffed). */
  delimiter: string;
  /** Receives the trimmed cells of each non-blank row above the header; default: the first such row. */
  isHeader?: HeaderTest;
  /** Named in the error when no header is found. */
  expectedHeader?: string;
  maxFieldBytes: number;
  signal?: AbortSignal;
}

/**
 * The file's rows, a chunk's rows at a time (no batch empty): a consumer of a million rows pays one async step
 * per chunk, not the promises and microtasks of a yield per row in each generator on the way. `source` gets
 * delimiter, header, headerLine and parameters set on it.
 */
export async function* readCsvBatches(
  chunks: AsyncIterable<Buffer>,
  source: SourceInfo,
  options: CsvReadOptions,
): AsyncGenerator<SourceRow[], void, undefined> {
  source.delimiter = options.delimiter;
  const collector = new CsvRowCollector(
    source,
    options.isHeader ?? (() => true),
    options.expectedHeader,
    options.maxFieldBytes,
  );
  const tokenizer = new CsvTokenizer(collector, {
    delimiter: options.delimiter,
    maxRecordBytes: options.maxFieldBytes,
  });
  for await (const chunk of chunks) {
    if (options.signal?.aborted === true) return;
    tokenizer.write(chunk);
    if (collector.rows.length > 0) {
      const rows = collector.rows;
      collector.rows = [];
      yield rows;
    }
  }
  if (options.signal?.aborted === true) return;
  tokenizer.end();
  collector.finish();
  if (collector.rows.length > 0) yield collector.rows;
}

class CsvRowCollector implements CsvTokenSink {
  rows: SourceRow[] = [];
  private readonly source: SourceInfo;
  private readonly isHeader: HeaderTest;
  private headerFound = false;
  /** The row holding the most wanted columns, though not all: the header with columns missing. */
  private nearest: { miss: HeaderNearMiss; line: number; cells: string[] } | undefined;
  private rowsBeforeHeader = 0;
  private firstNonBlank: string[] | undefined;
  /** A non-blank or malformed row above the header: the file is not empty. */
  private textBeforeHeader = false;
  /** Rows shaped like a footer, held until a data row (they were data) or the end (they are footers). */
  private held: CsvRow[] = [];

  constructor(
    source: SourceInfo,
    isHeader: HeaderTest,
    private readonly expectedHeader: string | undefined,
    private readonly maxRowBytes: number,
  ) {
    this.source = source;
    this.isHeader = isHeader;
  }

  /**
   * Above the header, a row past the bound ends the read at once: its end may never come (`/dev/zero`, a
   * file without line breaks was read for ever, issue 24), and no header is in it anyway.
   */
  onOversized(line: number): void {
    if (this.headerFound) return;
    const file = this.source.file;
    throw new ConfigError(
      `${file}:${line}: no header row: the row starting on line ${line} runs past ${this.maxRowBytes} bytes (maxRowBytes) without ending; stopped reading`,
      {
        hint:
          'is it a CSV export? A header is one line of column names; this file has no line break where one ' +
          'should be (or a quote that never closes). If its header really is longer, raise maxRowBytes in the config',
      },
    );
  }

  onRecord(cells: string[], line: number, text: string | undefined): void {
    if (this.headerFound) {
      this.onDataRecord(cells, line, text);
      return;
    }
    this.rowsBeforeHeader++;
    if (!isBlankRow(cells)) {
      this.textBeforeHeader = true;
      const trimmed = cells.map((cell) => cell.trim());
      if (/^parameters:/i.test(trimmed[0] ?? '')) {
        this.readParameters(cells);
      } else {
        this.firstNonBlank ??= trimmed;
        if (this.isHeader(trimmed)) {
          this.headerFound = true;
          // Copies: kept for the run, a cell would keep the file's first chunk of text alive (detached.ts).
          this.source.header = trimmed.map(detached);
          this.source.headerLine = line;
          return;
        }
        const miss = this.isHeader.nearMiss?.(trimmed);
        if (miss && miss.held > 0 && miss.held > (this.nearest?.miss.held ?? 0))
          this.nearest = { miss, line, cells: trimmed };
      }
    }
    // Blank rows alone are an empty file (finish), however many: only text that is not a header counts.
    if (this.rowsBeforeHeader >= MAX_PREAMBLE_ROWS && this.textBeforeHeader)
      throw this.noHeaderError(`in the first ${MAX_PREAMBLE_ROWS} rows`);
  }

  private onDataRecord(cells: string[], line: number, text: string | undefined): void {
    const row: CsvRow = { kind: 'csv', source: this.source, line, cells, text };
    if (isNonDataRow(cells)) {
      // A `Total` row is a footer wherever it is; blank and `--` rows are nothing.
      if (isLabelFooter(cells)) this.held.push({ ...row, footer: 'label' });
      return;
    }
    if (this.held.length < MAX_TRAILER_ROWS && isTrailerShaped(cells, this.source.header?.length ?? 0)) {
      this.held.push({ ...row, footer: 'trailer' });
      return;
    }
    this.release(false);
    this.rows.push(row);
  }

  /** Held rows in file order: footers at the end of the file, else the trailer-shaped ones were data. */
  private release(atEnd: boolean): void {
    for (const row of this.held) {
      if (!atEnd && row.footer === 'trailer') delete row.footer;
      this.rows.push(row);
    }
    this.held = [];
  }

  onMalformed(line: number, reason: string, message: string, raw: string): void {
    if (this.headerFound) {
      this.release(false);
      this.rows.push({ kind: 'malformed', source: this.source, line, reason, message, raw });
      return;
    }
    this.textBeforeHeader = true;
    this.rowsBeforeHeader++;
    if (this.rowsBeforeHeader >= MAX_PREAMBLE_ROWS)
      throw this.noHeaderError(`in the first ${MAX_PREAMBLE_ROWS} rows`);
  }

  /**
   * An empty file (no bytes, or blank rows only) has no header and no rows: an export of a day without
   * conversions, not an error (issue 13). Text of which no row is the header is an error.
   */
  finish(): void {
    this.release(true);
    if (this.headerFound || !this.textBeforeHeader) return;
    throw this.noHeaderError(`in its ${this.rowsBeforeHeader} rows`);
  }

  private readParameters(cells: string[]): void {
    // In a `;`-delimited file the `;`-separated pairs land in separate cells.
    const text = this.source.delimiter === ';' ? cells.join(';') : (cells[0] ?? '');
    const parameters = parseParameters(text);
    this.source.parameters = { ...this.source.parameters, ...parameters };
  }

  private noHeaderError(where: string): Error {
    const file = this.source.file;
    const nearest = this.nearest;
    // A row holding most of the wanted columns is the header: the error is about the columns it lacks.
    if (nearest && nearest.miss.held * 2 > nearest.miss.wanted) {
      const where = `${file}:${nearest.line}`;
      const message = `${where}: the header ${nearest.miss.problem}`;
      const hint = `the header (line ${nearest.line}) has: ${previewCells(nearest.cells)}; fix the mapping's column names to match it`;
      const lacks = nearest.miss.lacks;
      return lacks === undefined
        ? new ConfigError(message, { hint })
        : new ColumnMismatchError(where, lacks, message, { hint });
    }
    const own = this.isHeader.noHeader?.(file, this.firstNonBlank);
    if (own) return own;
    const delimiter = JSON.stringify(this.source.delimiter);
    const seen =
      this.firstNonBlank === undefined
        ? 'every row is blank'
        : `the first non-blank row was: ${previewCells(this.firstNonBlank)}`;
    const expected = this.expectedHeader ? ` (expected ${this.expectedHeader})` : '';
    const closest = nearest ? `; the nearest is line ${nearest.line}, which ${nearest.miss.problem}` : '';
    const message = `${file}: no header row found ${where}${expected}; ${seen}${closest}`;
    const hint = `check the header names the mapping expects, and the delimiter (${delimiter} was used; it can be set explicitly)`;
    // Columns the mapping names: the CLI adds which config expects them.
    return this.expectedHeader
      ? new ColumnMismatchError(file, undefined, message, { hint })
      : new ConfigError(message, { hint });
  }
}

/** Cells as a quoted list for a message, cut at 200 characters. */
export function previewCells(cells: readonly string[]): string {
  const text = cells.map((cell) => JSON.stringify(cell)).join(', ');
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** `Parameters:TimeZone=-0500;LoyaltyRate=0.5;` → `{TimeZone: '-0500', LoyaltyRate: '0.5'}`. */
export function parseParameters(text: string): Record<string, string> {
  const parameters: Record<string, string> = {};
  const body = text.slice(text.indexOf(':') + 1);
  for (const pair of body.split(';')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = pair.slice(0, eq).trim();
    if (key !== '') parameters[key] = pair.slice(eq + 1).trim();
  }
  return parameters;
}

// Footers: Google's `Total: Account`, `Total: Filtered campaigns`, `Total`; Gumroad's `Totals`; `Grand
// total`. Anything else after them (`Total Wine & More`, `TOTAL-1001`, `total@example.com`,
// `Grand Hotel`) is data and stays.
const TOTAL_RE = /^(?:grand\s+)?totals?\s*(?::.*)?$/iu;

/**
 * True for rows that carry no data: blank (every cell empty or whitespace), a footer whose first
 * non-empty cell is `Total`, `Totals`, `Grand total` (optionally `: ...`), or a row whose non-empty cells are all `--`. Looks at one character
 * of a typical data row before deciding.
 */
export function isNonDataRow(cells: string[]): boolean {
  for (let i = 0; i < cells.length; i++) {
    let cell = cells[i]!;
    if (cell.length === 0) continue;
    let c = cell.charCodeAt(0);
    if (c <= 0x20 || c === 0xa0) {
      cell = cell.trim();
      if (cell.length === 0) continue;
      c = cell.charCodeAt(0);
    }
    if (c === 0x54 || c === 0x74 || c === 0x47 || c === 0x67) return TOTAL_RE.test(cell);
    if (c === 0x2d) return cell === '--' && onlyDashesFrom(cells, i + 1);
    return false;
  }
  return true;
}

/** A `Total`/`Totals`/`Grand total` row (isNonDataRow holds): a footer, not a blank or `--` row. */
function isLabelFooter(cells: string[]): boolean {
  for (const cell of cells) {
    const text = cell.trim();
    if (text !== '') return TOTAL_RE.test(text);
  }
  return false;
}

const COUNT_RE = /^\d+$/;
const LETTER_RE = /\p{L}/u;

/**
 * A footer's shape (issue 21), in under half the header's cells: one label alone (`Seller ID: ...`,
 * `83 record(s) downloaded`), or a count with a label right after it (eBay's `4, record(s) downloaded,from
 * ,Jan-18-16,...`). Only rows after the last data row are footers; the checker also makes sure that no
 * cell of one fits a conversion's value, datetime, e-mail or visitor id.
 */
export function isTrailerShaped(cells: readonly string[], width: number): boolean {
  // The first two filled cells and their count: no array per row (this runs on every data row).
  let filled = 0;
  let first = -1;
  let second = -1;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    // Most cells start with a visible character: trim only the others (rows are many, wide and checked each).
    if (cell.length === 0 || (cell.charCodeAt(0) <= 0x20 && cell.trim() === '')) continue;
    if (++filled * 2 >= width) return false;
    if (first < 0) first = i;
    else if (second < 0) second = i;
  }
  if (filled === 0) return false;
  const label = cells[first]!.trim();
  if (filled === 1) return LETTER_RE.test(label);
  return COUNT_RE.test(label) && second === first + 1 && LETTER_RE.test(cells[second]!);
}

function onlyDashesFrom(cells: string[], from: number): boolean {
  for (let i = from; i < cells.length; i++) {
    const cell = cells[i]!.trim();
    if (cell !== '' && cell !== '--') return false;
  }
  return true;
}

function isBlankRow(cells: string[]): boolean {
  for (const cell of cells) if (cell.trim() !== '') return false;
  return true;
}
