// The rejects file's lines, pure: a rejection as a CSV line under the file's header or as a JSON line, with
// _raw, _file, _line, _reason (and _run), cells defused against spreadsheet formulas.

import { normalizeColumnName } from '../input/column-name.js';
import type { JsonRow, SourceRow } from '../input/types.js';
import type { Rejection } from './rejection.js';

/** The CSV columns a file's rows are placed under (before the meta columns), and where each name is. */
export interface CsvHeader {
  readonly names: string[];
  readonly index: Map<string, number>;
}

export function csvHeader(names: string[]): CsvHeader {
  return { names, index: new Map(names.map((h, i) => [normalizeColumnName(h), i])) };
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

/** The header line: the source's columns, then the meta columns. */
export function csvHeaderLine(names: readonly string[], meta: readonly string[]): string {
  return `${[...names, ...meta].map(csvCell).join(',')}\n`;
}

/** A rejection as a CSV line under `header`: its cells by column name, else its text as _raw. */
export function csvLine(rejection: Rejection, header: CsvHeader, run: string | undefined): string {
  const cells = new Array<string>(header.names.length).fill('');
  const raw = placeCells(rejection.row, header, cells) ?? rejection.raw ?? '';
  cells.push(raw, rejection.file, String(rejection.line), reasonText(rejection));
  if (run !== undefined) cells.push(run);
  return `${cells.map(csvCell).join(',')}\n`;
}

/** A rejection as a JSON line: a JSON row as it came, other rows' cells by column name, or their _raw text. */
export function jsonLine(rejection: Rejection, run: string | undefined): string {
  const row = rejection.row;
  if (row?.kind === 'json') return jsonRowLine(row, rejection, run);
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
  if (run !== undefined) out._run = run;
  return `${JSON.stringify(out)}\n`;
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
function placeCells(row: SourceRow | undefined, header: CsvHeader, out: string[]): string | undefined {
  if (!row) return undefined;
  if (row.kind === 'malformed') return row.raw;
  if (row.kind === 'json') return row.text;
  const names = row.source.header ?? [];
  if (names === header.names) {
    for (let i = 0; i < names.length; i++) out[i] = row.cells[i] ?? '';
    return undefined;
  }
  // A later file with another header: place cells by column name; columns the first file lacks are dropped.
  names.forEach((name, i) => {
    const at = header.index.get(normalizeColumnName(name));
    if (at !== undefined) out[at] = row.cells[i] ?? '';
  });
  return undefined;
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
