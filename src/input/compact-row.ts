// A source row as an item keeps it (issue 23: promotion). Once its record is made, a row is read again only
// for a report about it (a server's refusal, a record changed since its delivery): the rejects file's cells,
// a known problem's fingerprint. A record waits for its batch's answer long enough to outlive two young-
// generation collections, so what it holds is copied to the old generation: a CSV row's cells (an array and
// the cells its record does not share) were ~186 bytes of the ~820 a 1M-row push promoted per row.
// Kept instead: the row's text as written, one slice of its chunk's text (which its record's cells keep
// alive already), read into the same cells again on demand. A JSON line keeps its text; its object is
// parsed again.
import { CsvTokenizer } from './csv-tokenizer.js';
import type { CsvRow, JsonRow, SourceInfo, SourceRow } from './types.js';

/** `row` holding only its text where it has one (a CSV row read from one ASCII chunk, a JSON line). */
export function compactRow(row: SourceRow): SourceRow {
  if (row.kind === 'csv') return row.text === undefined ? row : new TextCsvRow(row, row.text);
  if (row.kind === 'json') return new TextJsonRow(row);
  return row;
}

/** A CSV row whose cells are read again from its text when asked for. */
class TextCsvRow implements CsvRow {
  readonly kind = 'csv';
  readonly source: SourceInfo;
  readonly line: number;
  readonly text: string;
  readonly footer: CsvRow['footer'];

  constructor(row: CsvRow, text: string) {
    this.source = row.source;
    this.line = row.line;
    this.text = text;
    this.footer = row.footer;
  }

  get cells(): string[] {
    return splitRecord(this.text, this.source.delimiter ?? ',');
  }
}

/** A JSON line whose object is parsed again from its text when asked for. */
class TextJsonRow implements JsonRow {
  readonly kind = 'json';
  readonly source: SourceInfo;
  readonly line: number;
  readonly text: string;

  constructor(row: JsonRow) {
    this.source = row.source;
    this.line = row.line;
    this.text = row.text;
  }

  get value(): Record<string, unknown> {
    return JSON.parse(this.text) as Record<string, unknown>;
  }
}

/**
 * The cells of one record's text as the tokenizer read them (`text` is ASCII: it came from an ASCII chunk).
 * Exported for its test.
 */
export function splitRecord(text: string, delimiter: string): string[] {
  let cells: string[] | undefined;
  const tokenizer = new CsvTokenizer(
    {
      onRecord: (read) => {
        cells ??= read;
      },
      onMalformed: () => undefined,
    },
    { delimiter, maxRecordBytes: text.length + 1 },
  );
  tokenizer.write(Buffer.from(text, 'latin1'));
  tokenizer.end();
  return cells ?? [];
}
