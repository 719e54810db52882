// Writes invalid and refused rows to `--rejects` (CSV or JSON lines by extension, mode 0600) with their
// original columns plus _file, _line, _reason, so a fixed copy can be pushed again.
import { once } from 'node:events';
import { createWriteStream, fchmodSync, openSync, type WriteStream } from 'node:fs';
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

export function openRejects(path: string, options: RejectsOptions = {}): RejectsWriter {
  const jsonl = /\.(jsonl|ndjson|json)$/i.test(path);
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  let stream: WriteStream | undefined;
  let header: string[] | undefined;
  let headerIndex: Map<string, number> | undefined;
  let count = 0;
  let dropped = 0;

  const open = () => {
    const fd = openSync(path, 'w', 0o600);
    // `mode` only applies when the file is created: an existing file keeps its mode otherwise.
    fchmodSync(fd, 0o600);
    stream = createWriteStream('', { fd });
    return stream;
  };

  // The CSV header is the first CSV source's own header (plus _raw for rows that have no cells: malformed
  // lines, JSON rows, records resent from the ledger). Rejections seen before any such header wait for it.
  let waiting: Rejection[] = [];
  const MAX_WAITING = 10_000;

  const writeHeader = (names: string[]) => {
    header = names;
    headerIndex = new Map(header.map((h, i) => [normalizeColumnName(h), i]));
    stream!.write(`${[...header, '_raw', '_file', '_line', '_reason'].map(csvCell).join(',')}\n`);
  };

  const csvLine = (rejection: Rejection): string => {
    const cells = new Array<string>(header!.length).fill('');
    const raw = placeCells(rejection.row, header!, headerIndex!, cells) ?? rejection.raw ?? '';
    cells.push(raw, rejection.file, String(rejection.line), reasonText(rejection));
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
    if (row?.kind === 'json') return jsonRowLine(row, rejection);
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
function jsonRowLine(row: JsonRow, rejection: Rejection): string {
  const text = row.text.trim();
  const body = text.slice(0, text.lastIndexOf('}')).trimEnd();
  const meta = [
    `"_file":${JSON.stringify(rejection.file)}`,
    `"_line":${rejection.line}`,
    `"_reason":${JSON.stringify(defuseCell(reasonText(rejection)))}`,
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
