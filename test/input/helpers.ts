// Test helpers for the input readers: temp files and collecting rows.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CsvTokenizer, type CsvTokenSink } from '../../src/input/csv-tokenizer.js';
import type { SourceRow } from '../../src/input/types.js';

const dir = mkdtempSync(join(tmpdir(), 'revimport-input-'));

/** Writes `content` to a fresh file named `name` in a temp dir and returns its path. */
export function tempFile(name: string, content: string | Uint8Array): string {
  const path = join(mkdtempSync(join(dir, 'case-')), name);
  writeFileSync(path, content);
  return path;
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * Rows without their shared `source` and their text (a JSON row's line; a CSV row's, which is there only when
 * the row lay in one chunk: compact-row.test.ts checks it), for compact equality checks.
 */
export function strip(rows: SourceRow[]): Array<Record<string, unknown>> {
  return rows.map(({ source: _source, ...rest }) => {
    if (rest.kind !== 'json' && rest.kind !== 'csv') return rest;
    const { text: _text, ...value } = rest;
    return value;
  });
}

export type Token =
  | { cells: string[]; line: number }
  | { line: number; reason: string; message: string; raw: string };

/** Tokenizes `bytes` fed in chunks of `chunkSize` bytes (or at the given cut points). */
export function tokenize(
  bytes: Buffer,
  options: { delimiter?: string; maxRecordBytes?: number; chunkSize?: number; cuts?: number[] } = {},
): Token[] {
  const tokens: Token[] = [];
  const sink: CsvTokenSink = {
    onRecord: (cells, line) => tokens.push({ cells, line }),
    onMalformed: (line, reason, message, raw) => tokens.push({ line, reason, message, raw }),
  };
  const tokenizer = new CsvTokenizer(sink, {
    delimiter: options.delimiter ?? ',',
    maxRecordBytes: options.maxRecordBytes ?? 1024 * 1024,
  });
  const cuts = options.cuts ?? [];
  if (options.chunkSize !== undefined) {
    for (let at = options.chunkSize; at < bytes.length; at += options.chunkSize) cuts.push(at);
  }
  let from = 0;
  for (const cut of [...cuts.sort((a, b) => a - b), bytes.length]) {
    tokenizer.write(bytes.subarray(from, cut));
    from = cut;
  }
  tokenizer.end();
  return tokens;
}
