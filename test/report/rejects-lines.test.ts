// The rejects file's lines (report/rejects-lines.ts), pure: where a row's cells go under the file's header,
// what becomes _raw, and the JSON line's members.
import { describe, expect, it } from 'vitest';
import type { SourceInfo, SourceRow } from '../../src/input/types.js';
import type { Rejection } from '../../src/report/rejection.js';
import { csvHeader, csvLine, jsonLine } from '../../src/report/rejects-lines.js';

const first: SourceInfo = { file: 'a.csv', format: 'csv', encoding: 'utf-8', header: ['Order', 'Value'] };
const later: SourceInfo = {
  file: 'b.csv',
  format: 'csv',
  encoding: 'utf-8',
  header: ['value', 'Extra', 'ORDER'],
};

const rejected = (row: SourceRow | undefined, raw?: string): Rejection => ({
  file: row?.source.file ?? 'ledger',
  line: 7,
  stage: 'invalid',
  row,
  ...(raw === undefined ? {} : { raw }),
  issues: [{ column: 'Value', value: 'x', reason: 'invalid number', message: 'not a number' }],
});

describe('csvLine', () => {
  const header = csvHeader(first.header!);
  it.each<[string, Rejection, string | undefined, string]>([
    [
      "the first file's row: its cells in order",
      rejected({ kind: 'csv', source: first, line: 7, cells: ['A1', '=1+1'] }),
      undefined,
      "A1,'=1+1,,a.csv,7,Value: not a number\n",
    ],
    [
      'a later header: cells placed by column name, unknown columns dropped',
      rejected({ kind: 'csv', source: later, line: 7, cells: ['9', 'dropped', 'B2'] }),
      '12',
      'B2,9,,b.csv,7,Value: not a number,12\n',
    ],
    [
      'a malformed line: its text as _raw',
      rejected({
        kind: 'malformed',
        source: first,
        line: 7,
        raw: 'a,"b',
        reason: 'malformed CSV',
        message: 'x',
      }),
      undefined,
      ',,"a,""b",a.csv,7,Value: not a number\n',
    ],
    [
      'no row (a record from the ledger): its JSON as _raw',
      rejected(undefined, '{"id":1}'),
      'check',
      ',,"{""id"":1}",ledger,7,Value: not a number,check\n',
    ],
  ])('%s', (_name, rejection, run, expected) => {
    expect(csvLine(rejection, header, run)).toBe(expected);
  });
});

describe('jsonLine', () => {
  it('a CSV row: its cells by name, defused, then _file, _line, _reason and _run', () => {
    const line = jsonLine(rejected({ kind: 'csv', source: first, line: 7, cells: ['A1', '-3'] }), '5');
    expect(JSON.parse(line)).toEqual({
      Order: 'A1',
      Value: "'-3",
      _file: 'a.csv',
      _line: 7,
      _reason: 'Value: not a number',
      _run: '5',
    });
  });

  it('a JSON row: its text kept as written, our members last', () => {
    const source: SourceInfo = { file: 'c.jsonl', format: 'jsonl', encoding: 'utf-8' };
    const text = '{"n": 12345678901234567890}';
    const line = jsonLine(rejected({ kind: 'json', source, line: 7, text } as SourceRow), undefined);
    expect(line).toBe(
      '{"n": 12345678901234567890,"_file":"c.jsonl","_line":7,"_reason":"Value: not a number"}\n',
    );
  });
});
