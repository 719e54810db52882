// What the readers hand to the rest of the pipeline: rows with their provenance.

/** Facts about one input file, shared by all of its rows (not copied per row). */
export interface SourceInfo {
  /** The path as the user gave it (`-` for stdin): used in every message about the file. */
  file: string;
  format: 'csv' | 'jsonl';
  /** Detected or given encoding, e.g. `utf-8`, `utf-16le`, `windows-1252`. */
  encoding: string;
  /** CSV only: the delimiter used. */
  delimiter?: string;
  /** CSV only: the header cells as written (trimmed), set once the header row is found. */
  header?: string[];
  /** CSV only: physical line of the header row. */
  headerLine?: number;
  /** From a `Parameters:` row above the header (`Parameters:TimeZone=...;`), keys as written. */
  parameters?: Record<string, string>;
}

interface RowBase {
  source: SourceInfo;
  /** Physical 1-based line where the row starts in the file (header, preamble, blank and multi-line cell lines counted). */
  line: number;
}

export interface CsvRow extends RowBase {
  kind: 'csv';
  /** Cells in header order (untrimmed as parsed); missing trailing cells are absent. */
  cells: string[];
  /**
   * A report footer, not data (issue 21): `label` for a `Total`/`Totals`/`Grand total` row anywhere;
   * `trailer` for a row after the last data row that has a footer's shape (few cells, led by a count or a
   * label: eBay's `4,record(s) downloaded` and `Seller ID: ...`). The checker skips both, reason `footer`;
   * a `trailer` whose mapped value and datetime read as a conversion is data after all.
   */
  footer?: 'label' | 'trailer';
  /**
   * The row as written (without its line break) when the tokenizer read it from one ASCII chunk: what
   * compactRow (compact-row.ts) keeps of it once its record is made, the cells read again from it on demand.
   */
  text?: string;
}

export interface JsonRow extends RowBase {
  kind: 'json';
  /** The parsed object of one JSON line. */
  value: Record<string, unknown>;
  /**
   * The line as it came (without its line break): what the rejects file holds. Writing `value` back would
   * lose a `__proto__` member, digits of a large number and the order of keys (issue 24).
   */
  text: string;
}

/** A row the reader could not turn into cells or an object: it is invalid, and the run goes on. */
export interface MalformedRow extends RowBase {
  kind: 'malformed';
  /** The raw text (cut to a bound) for the rejects file. */
  raw: string;
  /** Short grouping reason, e.g. `malformed JSON`, `malformed CSV`, `line too long`. */
  reason: string;
  /** Human explanation. */
  message: string;
}

export type SourceRow = CsvRow | JsonRow | MalformedRow;

/** How near a row comes to being the header: what the error says when no row is. */
export interface HeaderNearMiss {
  /** How many of the wanted columns the row holds, of `wanted`. */
  held: number;
  wanted: number;
  /** What the row lacks, in words: `no column "Order Total" (conversionValue; did you mean "Total"?)`. */
  problem: string;
  /** The columns missing, when that is the problem: `problem` without its `has `. */
  lacks?: string;
}

/**
 * Which CSV row is the header (gets a row's trimmed cells). It may also say how near a row comes
 * (`nearMiss`: the row holding most of the wanted columns is the header, and the error names the rest),
 * and give the error for a file in which no row comes near (`noHeader`).
 */
export type HeaderTest = ((cells: string[]) => boolean) & {
  nearMiss?: (cells: string[]) => HeaderNearMiss | undefined;
  noHeader?: (file: string, firstRow: string[] | undefined) => Error | undefined;
};
