// Writes invalid and refused rows to `--rejects` (CSV or JSON lines by extension, mode 0600) with their
// original columns plus _file, _line, _reason (and _run: which run wrote the row), so a fixed copy can be
// pushed again. An existing file is appended to, never truncated (issue 20: a later run's one invalid row
// replaced a 3,001-line file).
import { once } from 'node:events';
import { createWriteStream, fchmodSync, fstatSync, openSync, readSync, type WriteStream } from 'node:fs';
import type { JsonRow, SourceRow } from '../input/types.js';
import { normalizeColumnName } from '../mapping/column-name.js';
import type { Rejection } from './rejection.js';

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

/** `{date}` (local YYYY-MM-DD) and `{runId}` in a --rejects path: one file per day or per run (issue 20). */
export function resolveRejectsPath(template: string, values: { date: string; runId: string }): string {
  return template.replaceAll('{date}', values.date).replaceAll('{runId}', values.runId);
}

/** YYYY-MM-DD of `at` in the local time zone (the user's calendar day, for `{date}`). */
export function localDay(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** Spreadsheets run a cell starting with = + - @ (or tab/CR) as a formula: prefix it with a quote. */
export function defuseCell(value: string): string {
  const first = value.charCodeAt(0);
  // = + - @ \t \r
  if (first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13) {
    return `'${value}`;
  }
  return value;
}

export function csvCell(value: string): string {
  const safe = defuseCell(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function reasonText(rejection: Rejection): string {
  return rejection.issues.map((i) => `${i.column}: ${i.message}`).join('; ');
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
  let file = typeof path === 'string' ? path : undefined;
  let jsonl = file !== undefined && isJsonLines(file);
  let stream: WriteStream | undefined;
  let header: string[] | undefined;
  let headerIndex: Map<string, number> | undefined;
  let runLabel: string | undefined;
  let count = 0;
  let dropped = 0;

  const open = () => {
    file ??= (path as () => string)();
    jsonl = isJsonLines(file);
    runLabel = options.run?.();
    // a+: appended to, and its first line read (the header to keep).
    const fd = openSync(file, 'a+', 0o600);
    // `mode` only applies when the file is created: an existing file keeps its mode otherwise.
    fchmodSync(fd, 0o600);
    const existing = readExisting(fd);
    stream = createWriteStream('', { fd });
    // A line cut short (a run killed mid-write) is ended first, so the next row starts on its own line.
    if (existing.unterminated) stream.write('\n');
    if (!jsonl && existing.header && endsWith(existing.header, meta)) {
      useHeader(existing.header.slice(0, existing.header.length - meta.length));
    }
    return stream;
  };

  const useHeader = (names: string[]) => {
    header = names;
    headerIndex = new Map(header.map((h, i) => [normalizeColumnName(h), i]));
  };

  // The CSV header is the first CSV source's own header (plus _raw for rows that have no cells: malformed
  // lines, JSON rows, records resent from the ledger). Rejections seen before any such header wait for it.
  let waiting: Rejection[] = [];
  const MAX_WAITING = 10_000;

  const writeHeader = (names: string[]) => {
    useHeader(names);
    stream!.write(`${[...names, ...meta].map(csvCell).join(',')}\n`);
  };

  const csvLine = (rejection: Rejection): string => {
    const cells = new Array<string>(header!.length).fill('');
    const raw = placeCells(rejection.row, header!, headerIndex!, cells) ?? rejection.raw ?? '';
    cells.push(raw, rejection.file, String(rejection.line), reasonText(rejection));
    if (runLabel !== undefined) cells.push(runLabel);
    return `${cells.map(csvCell).join(',')}\n`;
  };

  const writeCsv = (rejection: Rejection): boolean => {
    const s = stream!;
    if (!header) {
      const sourceHeader = rejection.row?.source.header;
      if (!sourceHeader && waiting.length < MAX_WAITING) {
        waiting.push(rejection);
        return true;
      }
      writeHeader(sourceHeader ?? []);
      const earlier = waiting;
      waiting = [];
      for (const w of earlier) s.write(csvLine(w));
    }
    return s.write(csvLine(rejection));
  };

  const jsonLine = (rejection: Rejection): string => {
    const row = rejection.row;
    if (row?.kind === 'json') return jsonRowLine(row, rejection, runLabel);
    const out: Record<string, unknown> = {};
    if (row?.kind === 'csv') {
      const names = row.source.header ?? [];
      names.forEach((name, i) => {
        out[name] = defuseCell(row.cells[i] ?? '');
      });
    } else if (row?.kind === 'malformed') out._raw = defuseCell(row.raw);
    else if (rejection.raw !== undefined) out._raw = defuseCell(rejection.raw);
    out._file = rejection.file;
    out._line = rejection.line;
    out._reason = defuseCell(reasonText(rejection));
    if (runLabel !== undefined) out._run = runLabel;
    return `${JSON.stringify(out)}\n`;
  };

  return {
    get count() {
      return count;
    },
    get dropped() {
      return dropped;
    },
    write(rejection) {
      const s = stream ?? open();
      count++;
      if (count > maxRows) {
        dropped++;
        return undefined;
      }
      const ok = jsonl ? s.write(jsonLine(rejection)) : writeCsv(rejection);
      return ok ? undefined : once(s, 'drain').then(() => undefined);
    },
    async close() {
      if (!stream) return;
      const s = stream;
      if (!jsonl && !header) {
        writeHeader([]);
        for (const w of waiting) s.write(csvLine(w));
        waiting = [];
      }
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.end(() => resolve());
      });
    },
  };
}

/**
 * A JSON row's line as it came, with _file, _line and _reason added as its last members: never parsed and
 * written again, which dropped a `__proto__` member, rounded large numbers and overflowed the stack on
 * a value nested 5,000 levels deep (issue 24). A member of the same name in the line comes first, so a
 * JSON reader takes ours.
 */
function jsonRowLine(row: JsonRow, rejection: Rejection, run: string | undefined): string {
  const text = row.text.trim();
  const body = text.slice(0, text.lastIndexOf('}')).trimEnd();
  const meta = [
    `"_file":${JSON.stringify(rejection.file)}`,
    `"_line":${rejection.line}`,
    `"_reason":${JSON.stringify(defuseCell(reasonText(rejection)))}`,
    ...(run === undefined ? [] : [`"_run":${JSON.stringify(run)}`]),
  ].join(',');
  const empty = body.slice(1).trim() === '';
  return `${body}${empty ? '' : ','}${meta}}\n`;
}

/** Puts a CSV row's cells under the header by column name; returns the row's text for _raw otherwise. */
function placeCells(
  row: SourceRow | undefined,
  header: string[],
  index: Map<string, number>,
  out: string[],
): string | undefined {
  if (!row) return undefined;
  if (row.kind === 'malformed') return row.raw;
  if (row.kind === 'json') return row.text;
  const names = row.source.header ?? [];
  if (names === header) {
    for (let i = 0; i < header.length; i++) out[i] = row.cells[i] ?? '';
    return undefined;
  }
  // A later file with another header: place cells by column name; columns the first file lacks are dropped.
  names.forEach((name, i) => {
    const at = index.get(normalizeColumnName(name));
    if (at !== undefined) out[at] = row.cells[i] ?? '';
  });
  return undefined;
}

function isJsonLines(path: string): boolean {
  return /\.(jsonl|ndjson|json)$/i.test(path);
}

function endsWith(names: readonly string[], tail: readonly string[]): boolean {
  if (names.length < tail.length) return false;
  const from = names.length - tail.length;
  return tail.every((name, i) => names[from + i] === name);
}

/** Bytes of an existing file read for its header line: a header longer than this is not ours to reuse. */
const HEADER_BYTES = 64 * 1024;

/** What an existing rejects file holds: its first line's cells (a CSV header), and whether it ends mid-line. */
function readExisting(fd: number): { header?: string[]; unterminated: boolean } {
  const size = fstatSync(fd).size;
  if (size === 0) return { unterminated: false };
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  const start = Buffer.alloc(Math.min(size, HEADER_BYTES));
  readSync(fd, start, 0, start.length, 0);
  const end = start.indexOf(10);
  const line = end < 0 ? undefined : start.subarray(0, end).toString('utf8').replace(/\r$/, '');
  return { header: line === undefined ? undefined : csvCells(line), unterminated: last[0] !== 10 };
}

/** One CSV line's cells (as csvCell wrote them: quotes doubled inside quoted cells). */
export function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (line[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}
