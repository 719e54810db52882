// Guesses what the user did not say: JSON lines or CSV, and which CSV delimiter.

import { extname } from 'node:path';
import { ConfigError } from '../errors.js';
import { CsvTokenizer, type CsvTokenSink } from './csv-tokenizer.js';

export type InputFormat = 'csv' | 'jsonl';

/** Delimiters tried by sniffDelimiter, in order of preference on a tie. */
export const SNIFFED_DELIMITERS = [',', ';', '\t', '|'] as const;
/** How many non-blank records of the sample are compared. */
const SNIFF_RECORDS = 20;

const CSV_EXTENSIONS = new Set(['.csv', '.tsv', '.txt']);
const JSON_EXTENSIONS = new Set(['.jsonl', '.ndjson', '.json']);
/** Whitespace, NUL (UTF-16) and BOM bytes, skipped before the first significant byte. */
const LEADING_NOISE = new Set([0x20, 0x09, 0x0a, 0x0d, 0x00, 0xef, 0xbb, 0xbf, 0xfe, 0xff]);

/**
 * The format from the extension (a trailing `.gz` ignored), else from the first significant byte
 * of `firstBytes`: `{` or `[` means JSON lines, anything else CSV. BOM and NUL bytes are skipped,
 * so raw UTF-16 bytes work too.
 */
export function detectFormat(file: string, firstBytes: Uint8Array): InputFormat {
  if (file !== '-') {
    const ext = extname(file.toLowerCase().replace(/\.gz$/, ''));
    if (CSV_EXTENSIONS.has(ext)) return 'csv';
    if (JSON_EXTENSIONS.has(ext)) return 'jsonl';
  }
  for (const byte of firstBytes) {
    if (byte === 0x7b || byte === 0x5b) return 'jsonl';
    if (!LEADING_NOISE.has(byte)) return 'csv';
  }
  return 'csv';
}

/** A user-given delimiter: one character, or the words `tab`, `comma`, `semicolon`, `pipe`. */
export function parseDelimiter(value: string, file: string): string {
  const named: Record<string, string> = { tab: '\t', '\\t': '\t', comma: ',', semicolon: ';', pipe: '|' };
  const delimiter = named[value.toLowerCase()] ?? value;
  const code = delimiter.charCodeAt(0);
  if (
    delimiter.length !== 1 ||
    code > 0x7e ||
    delimiter === '"' ||
    delimiter === '\r' ||
    delimiter === '\n'
  ) {
    throw new ConfigError(
      `${file}: unusable delimiter ${JSON.stringify(value)} (use one ASCII character such as , ; | or the word tab)`,
    );
  }
  return delimiter;
}

/**
 * The delimiter that splits the most of the first 20 non-blank records of `sample` into the same
 * number (>1) of columns; ties go to more columns, then to the order of SNIFFED_DELIMITERS. Counting
 * consistent records, not delimiter characters, keeps preambles (`### INSTRUCTIONS ###,,,,`), title
 * lines and `1,249.00` amounts in a tab file from deciding. With `isHeader`, a delimiter that reveals the
 * expected header wins first. Falls back to `,`.
 */
export function sniffDelimiter(sample: Buffer, isHeader?: (cells: string[]) => boolean): string {
  let best: string = ',';
  let bestScore: [number, number, number] = [0, 0, 0];
  for (const delimiter of SNIFFED_DELIMITERS) {
    const counter = new ColumnCounter(isHeader);
    const tokenizer = new CsvTokenizer(counter, { delimiter, maxRecordBytes: sample.length + 1 });
    // The sample's last record may be cut: it is left unfinished on purpose (no end()).
    tokenizer.write(sample);
    // A delimiter under which the expected header appears beats any count: data rows can hold
    // more `;` than the header holds `,`.
    const header = counter.sawHeader ? 1 : 0;
    for (const [columns, count] of counter.frequencies) {
      if (columns < 2) continue;
      const score: [number, number, number] = [header, count, columns];
      if (compareScores(score, bestScore) > 0) {
        best = delimiter;
        bestScore = score;
      }
    }
  }
  return best;
}

function compareScores(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

class ColumnCounter implements CsvTokenSink {
  readonly frequencies = new Map<number, number>();
  sawHeader = false;
  private seen = 0;

  constructor(private readonly isHeader?: (cells: string[]) => boolean) {}

  onRecord(cells: string[]): void {
    if (this.seen >= SNIFF_RECORDS || cells.every((cell) => cell.trim() === '')) return;
    this.seen++;
    if (this.isHeader && cells.length > 1 && this.isHeader(cells.map((c) => c.trim()))) this.sawHeader = true;
    this.frequencies.set(cells.length, (this.frequencies.get(cells.length) ?? 0) + 1);
  }

  onMalformed(): void {
    this.seen++;
  }
}
