// compactRow (issue 23): an item keeps its row's text, not its cells, and gets the same cells back from it.
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { compactRow, splitRecord } from '../../src/input/compact-row.js';
import { readRows } from '../../src/input/read-rows.js';
import type { CsvRow, SourceRow } from '../../src/input/types.js';
import { collect, tempFile } from './helpers.js';

/** Every CSV row's compact form reads back its cells; returns how many rows had a text to compact. */
function expectSameCells(rows: SourceRow[]): number {
  let compacted = 0;
  for (const row of rows) {
    if (row.kind !== 'csv') continue;
    const compact = compactRow(row) as CsvRow;
    if (row.text === undefined) {
      expect(compact).toBe(row);
      continue;
    }
    compacted++;
    // It holds no cells of its own, only the text.
    expect(Object.keys(compact)).not.toContain('cells');
    expect(compact.cells).toEqual(row.cells);
    expect([compact.line, compact.source, compact.footer]).toEqual([row.line, row.source, row.footer]);
  }
  return compacted;
}

describe('compactRow', () => {
  it('reads the same cells again from a CSV row: quotes, doubled quotes, line breaks in cells, empty cells', async () => {
    const file = tempFile(
      'quoted.csv',
      [
        'Order ID,Note,Amount,Currency',
        '1,"a, b",10.00,EUR',
        '2,"say ""hi""",,USD\r',
        '3,"two\nlines","1,5",EUR',
        '4,"crlf\r\ninside",3,',
        '5,,,',
        '6,plain "quote" inside,7,EUR,extra',
        '7,"",8',
      ].join('\n'),
    );
    const rows = await collect(readRows(file, { format: 'csv' }));
    expect(rows.map((r) => r.kind)).toEqual(Array(7).fill('csv'));
    // The last row has no line break after it: the tokenizer ends it at the file's end, with no chunk left.
    expect(expectSameCells(rows)).toBe(6);
    expect((compactRow(rows[2]!) as CsvRow).cells).toEqual(['3', 'two\nlines', '1,5', 'EUR']);
  });

  it("reads cells with the file's delimiter", async () => {
    const file = tempFile('semi.csv', 'Order ID;Amount;Currency\n1;"2;5";EUR\n2;3,5;USD\n');
    const rows = await collect(readRows(file, { format: 'csv' }));
    expect(expectSameCells(rows)).toBe(2);
    expect((compactRow(rows[0]!) as CsvRow).cells).toEqual(['1', '2;5', 'EUR']);
  });

  it('keeps a row that is not one slice of an ASCII chunk as it is', async () => {
    const file = tempFile('accents.csv', 'Order ID,Name,Amount\n1,Zoë,10\n2,Café,11\n');
    const rows = await collect(readRows(file, { format: 'csv' }));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(compactRow(row)).toBe(row);
  });

  it('any ASCII bytes, read from stdin in small chunks: every row with a text reads back its cells', async () => {
    const ascii = [0x2c, 0x3b, 0x22, 0x0d, 0x0a, 0x61, 0x31, 0x20];
    const bytes = fc
      .array(fc.oneof(fc.constantFrom(...ascii), fc.integer({ min: 0x20, max: 0x7e })), { maxLength: 300 })
      .map((values) => Buffer.from(`a,b,c\n${Buffer.from(values).toString('latin1')}`, 'latin1'));
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(bytes, fc.integer({ min: 1, max: 64 }), async (input, chunkSize) => {
        const stdin = new PassThrough();
        const pending = collect(readRows('-', { stdin, format: 'csv', delimiter: ',' })).catch((error) => {
          if (error instanceof ConfigError) return [];
          throw error;
        });
        for (let at = 0; at < input.length; at += chunkSize) stdin.write(input.subarray(at, at + chunkSize));
        stdin.end();
        compacted += expectSameCells(await pending);
      }),
      { numRuns: 300 },
    );
    // Rows that lay in one chunk were compacted (the property did not hold vacuously).
    expect(compacted).toBeGreaterThan(30);
  });

  it("keeps a JSON line's text and parses its object again from it", async () => {
    const file = tempFile('rows.jsonl', '{"id":"A-1","value":12.5,"nested":{"a":[1,2]}}\n{"id":"A-2"}\n');
    const rows = await collect(readRows(file, { format: 'jsonl' }));
    for (const row of rows) {
      const compact = compactRow(row);
      expect(Object.keys(compact)).not.toContain('value');
      expect(compact).toMatchObject({ kind: 'json', line: row.line, text: (row as { text: string }).text });
      expect((compact as { value: unknown }).value).toEqual((row as { value: unknown }).value);
    }
  });

  it('splitRecord reads one record, and no cells from a text the reader could not have read as one', () => {
    expect(splitRecord('a,"b,c', ',')).toEqual([]);
    expect(splitRecord('a,,', ',')).toEqual(['a', '', '']);
    expect(splitRecord('x|"y|z"', '|')).toEqual(['x', 'y|z']);
  });
});
