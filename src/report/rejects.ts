// Writes invalid and refused rows to `--rejects` (CSV or JSON lines by extension, mode 0600) with their
// original columns plus _file, _line, _reason (and _run: which run wrote the row), so a fixed copy can be
// pushed again. An existing file is appended to, never truncated (issue 20: a later run's one invalid row
// replaced a 3,001-line file).
import { once } from 'node:events';
import type { WriteStream } from 'node:fs';
import type { Rejection } from './rejection.js';
import { openForAppend } from './rejects-file.js';
import { type CsvHeader, csvHeader, csvHeaderLine, csvLine, jsonLine } from './rejects-lines.js';

// Kept here for the modules and tests that import them from the writer.
export { csvCell, csvCells, defuseCell, reasonText } from './rejects-lines.js';
export { localDay, resolveRejectsPath } from './rejects-path.js';

export interface RejectsWriter {
  write(rejection: Rejection): Promise<void> | undefined;
  close(): Promise<void>;
  /** Rejections given to `write`, written or not. */
  readonly count: number;
  /** Rejections past `maxRows`: counted, not written. */
  readonly dropped: number;
}

export interface RejectsOptions {
  /**
   * Rows written at most; later rejections are only counted (`dropped`). A 0.6 MB gzip of one duplicated
   * row wrote a 1.26 GB rejects file (issue 24). Default: no bound.
   */
  maxRows?: number;
  /**
   * The run writing, asked when the file is opened (at the first row): each row gets it as `_run` (a ledger
   * run id, or `check`), so rows of several runs appended to one file stay apart. Absent: no `_run` column.
   */
  run?: () => string;
}

/** Rejections held at most while a CSV file waits for a source header to write under. */
const MAX_WAITING = 10_000;

/** The rejects file once opened at its first row. */
interface OpenRejects {
  stream: WriteStream;
  jsonl: boolean;
  meta: readonly string[];
  /** The run's label, written as `_run` on every row; undefined: no `_run` column. */
  run: string | undefined;
  /** The CSV header rows are placed under, once written or kept from the existing file. */
  header?: CsvHeader;
  /**
   * The CSV header is the first CSV source's own header (plus _raw for rows that have no cells: malformed
   * lines, JSON rows, records resent from the ledger). Rejections seen before any such header wait for it.
   */
  waiting: Rejection[];
}

/**
 * `path` may be a function: the file is named when the first row is written (a `{runId}` known only once the
 * run has taken the ledger). An existing file is appended to: a CSV file whose header ends with our columns
 * keeps it (rows are placed under it by column name); any other CSV file gets this run's header line first.
 */
export function openRejects(path: string | (() => string), options: RejectsOptions = {}): RejectsWriter {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const meta = options.run
    ? ['_raw', '_file', '_line', '_reason', '_run']
    : ['_raw', '_file', '_line', '_reason'];
  let file: OpenRejects | undefined;
  let count = 0;
  let dropped = 0;
  return {
    get count() {
      return count;
    },
    get dropped() {
      return dropped;
    },
    write(rejection) {
      file ??= openFile(typeof path === 'string' ? path : path(), meta, options.run);
      count++;
      if (count > maxRows) {
        dropped++;
        return undefined;
      }
      const ok = file.jsonl ? file.stream.write(jsonLine(rejection, file.run)) : writeCsv(file, rejection);
      return ok ? undefined : once(file.stream, 'drain').then(() => undefined);
    },
    async close() {
      if (file) await closeFile(file);
    },
  };
}

/** Opens the file at the first row: named now, appended to, its run label asked now. */
function openFile(path: string, meta: readonly string[], run: (() => string) | undefined): OpenRejects {
  const jsonl = isJsonLines(path);
  const label = run?.();
  const { stream, keptHeader } = openForAppend(path, meta, jsonl);
  const file: OpenRejects = { stream, jsonl, meta, run: label, waiting: [] };
  if (keptHeader) file.header = csvHeader(keptHeader);
  return file;
}

/** A CSV row, under the header; before any source header it waits (up to MAX_WAITING) for one. */
function writeCsv(file: OpenRejects, rejection: Rejection): boolean {
  if (!file.header) {
    const sourceHeader = rejection.row?.source.header;
    if (!sourceHeader && file.waiting.length < MAX_WAITING) {
      file.waiting.push(rejection);
      return true;
    }
    writeHeader(file, sourceHeader ?? []);
  }
  return file.stream.write(csvLine(rejection, file.header!, file.run));
}

/** Writes the header line, then the rows that waited for it. */
function writeHeader(file: OpenRejects, names: string[]): void {
  file.header = csvHeader(names);
  file.stream.write(csvHeaderLine(names, file.meta));
  const earlier = file.waiting;
  file.waiting = [];
  for (const w of earlier) file.stream.write(csvLine(w, file.header, file.run));
}

/** Ends the file: a CSV file that never saw a source header gets an empty one, with the rows that waited. */
async function closeFile(file: OpenRejects): Promise<void> {
  if (!file.jsonl && !file.header) writeHeader(file, []);
  const s = file.stream;
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.end(() => resolve());
  });
}

function isJsonLines(path: string): boolean {
  return /\.(jsonl|ndjson|json)$/i.test(path);
}
