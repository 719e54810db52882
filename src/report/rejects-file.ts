// Opening a rejects file to append to (mode 0600, never truncated): what it already holds decides whether a
// cut-short last line is ended first and whether its CSV header (one ending with our columns) is kept.
import { createWriteStream, fchmodSync, fstatSync, openSync, readSync, type WriteStream } from 'node:fs';
import { csvCells } from './rejects-lines.js';

/** A rejects file opened for appending, and the source columns of the header it already has, if ours. */
export interface AppendedFile {
  stream: WriteStream;
  /** The columns before `meta` in the file's existing header line; undefined when there is none to keep. */
  keptHeader?: string[];
}

/** Opens `file` to append; `meta` is the columns our header ends with (a JSON-lines file keeps no header). */
export function openForAppend(file: string, meta: readonly string[], jsonl: boolean): AppendedFile {
  // a+: appended to, and its first line read (the header to keep).
  const fd = openSync(file, 'a+', 0o600);
  // `mode` only applies when the file is created: an existing file keeps its mode otherwise.
  fchmodSync(fd, 0o600);
  const existing = readExisting(fd);
  const stream = createWriteStream('', { fd });
  // A line cut short (a run killed mid-write) is ended first, so the next row starts on its own line.
  if (existing.unterminated) stream.write('\n');
  if (jsonl || !existing.header || !endsWith(existing.header, meta)) return { stream };
  return { stream, keptHeader: existing.header.slice(0, existing.header.length - meta.length) };
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
