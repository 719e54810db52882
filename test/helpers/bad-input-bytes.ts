// The bytes of a generated bad input (bad-input.ts): CSV or JSON-lines text, in one of the encodings, plain,
// gzipped, cut or as a gzip bomb; huge and deep cells are written out only here.
import { gzipSync } from 'node:zlib';
import { type Case, type Cell, type Column, columns, type Row } from './bad-input.js';

function deep(cell: { deep: number; open: '[' | '{' }): string {
  return cell.open === '['
    ? `${'['.repeat(cell.deep)}${']'.repeat(cell.deep)}`
    : `${'{"a":'.repeat(cell.deep)}1${'}'.repeat(cell.deep)}`;
}

function text(cell: Cell, limit: number): string {
  if (typeof cell === 'string') return cell;
  if ('raw' in cell) return cell.raw;
  if ('huge' in cell) return 'x'.repeat(limit + 1000);
  return deep(cell);
}

function csvCell(value: string, delimiter: string): string {
  return /[",\r\n;\t]/.test(value) || value.includes(delimiter) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The row's cells after its changes; a column changed to `undefined` is absent. */
function cellsOf(row: Row): Partial<Record<Column, Cell>> {
  const cells: Partial<Record<Column, Cell>> = { ...row.cells };
  for (const [column, cell] of row.changes) {
    if (cell === undefined) delete cells[column];
    else cells[column] = cell;
  }
  return cells;
}

function csvLine(row: Row, c: Case, limit: number): string {
  const given = cellsOf(row);
  const cells = columns.map((name) => csvCell(text(given[name] ?? '', limit), c.delimiter));
  if (row.damage === 'missing cell') cells.splice(3, 2);
  if (row.damage === 'extra cell') cells.push('extra', 'more');
  if (row.damage === 'open quote') cells[3] = `"${cells[3]}`;
  return cells.join(c.delimiter);
}

function jsonValue(cell: Cell, limit: number): string {
  if (typeof cell === 'string' || 'huge' in cell) return JSON.stringify(text(cell, limit));
  return text(cell, limit);
}

/** One JSON line, and the own keys its object has (what a rejects.jsonl line must keep). */
function jsonLine(row: Row, limit: number): { line: string; keys: string[] } {
  const given = cellsOf(row);
  const entries = Object.entries(given).map(
    ([k, cell]) => `${JSON.stringify(k)}:${jsonValue(cell as Cell, limit)}`,
  );
  for (const [k, v] of Object.entries(row.keys)) entries.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
  const keys = [...new Set([...Object.keys(given), ...Object.keys(row.keys)])];
  const line = `{${entries.join(',')}}`;
  if (row.damage === 'not an object') return { line: `[${line}]`, keys: [] };
  if (row.damage === 'cut') return { line: line.slice(0, Math.max(1, line.length >> 1)), keys: [] };
  return { line, keys };
}

/** The text of the case: the lines, and per physical line the JSON row's own keys (JSON lines only). */
export function textOf(c: Case): { text: string; keysByLine: Map<number, string[]> } {
  const limit = c.limits.maxRowBytes ?? 1024 * 1024;
  const keysByLine = new Map<number, string[]>();
  if (c.format === 'csv') {
    const header = c.header.map((h) => csvCell(h, c.delimiter)).join(c.delimiter);
    return { text: [header, ...c.rows.map((row) => csvLine(row, c, limit))].join(c.eol) + c.eol, keysByLine };
  }
  const lines = c.rows.map((row, i) => {
    const { line, keys } = jsonLine(row, limit);
    // A CR inside a JSON string is escaped: physical lines are the rows (a bare CR eol is not a line break).
    keysByLine.set(i + 1, keys);
    return line;
  });
  return { text: `${lines.join(c.eol === '\r' ? '\n' : c.eol)}\n`, keysByLine };
}

function encode(text: string, encoding: Case['encoding']): Buffer {
  switch (encoding) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-8 BOM':
      return Buffer.from(`\ufeff${text}`, 'utf8');
    case 'utf-16le BOM':
      return Buffer.from(`\ufeff${text}`, 'utf16le');
    case 'utf-16le':
      return Buffer.from(text, 'utf16le');
    case 'utf-16be':
      return Buffer.from(text, 'utf16le').swap16();
    case 'windows-1252':
      return Buffer.from(Array.from(text, (ch) => (ch.codePointAt(0)! > 0xff ? '?' : ch)).join(''), 'latin1');
    case 'bad utf-8': {
      const bytes = Buffer.from(text, 'utf8');
      const at = bytes.length >> 1;
      return Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff, 0xc3, 0x28]), bytes.subarray(at)]);
    }
  }
}

let bombTail: Buffer | undefined;

/**
 * What an endless stdin starts with, before `c.endless` repeated for ever: a first line that never breaks
 * (in CSV sometimes below a title line, which is not the header).
 */
export function endlessStart(c: Case): Buffer {
  return Buffer.from(c.format === 'csv' && c.rows.length % 2 === 1 ? `Orders report${c.eol}` : '');
}

/** The bytes the CLI reads from a file or a finite stdin. */
export function bytesOf(c: Case): Buffer {
  const plain = encode(textOf(c).text, c.encoding);
  if (c.container === 'plain') return plain;
  if (c.container === 'gzip') return gzipSync(plain);
  if (c.container === 'cut gzip') {
    const zipped = gzipSync(plain);
    return zipped.subarray(0, Math.max(10, zipped.length - 9));
  }
  // A gzip member of blank lines after the export's own: inflates past 16 MiB at a ratio near 1000.
  bombTail ??= gzipSync(Buffer.alloc(24 * 1024 * 1024, '\n'), { level: 9 });
  return Buffer.concat([gzipSync(plain), bombTail]);
}
