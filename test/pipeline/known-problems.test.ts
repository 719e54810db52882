// What makes an invalid row "the same" for issue 20: its content as read and its reasons, never where it was.
import { describe, expect, it } from 'vitest';
import type { SourceInfo, SourceRow } from '../../src/input/types.js';
import { KnownProblems, problemFingerprint } from '../../src/pipeline/known-problems.js';
import type { Rejection } from '../../src/report/rejection.js';

const source = (file: string, header = ['Order', 'Amount']): SourceInfo => ({
  file,
  format: 'csv',
  encoding: 'utf-8',
  header,
});
const csv = (cells: string[], file = 'a.csv', line = 2, header?: string[]): SourceRow => ({
  kind: 'csv',
  source: source(file, header),
  line,
  cells,
});
const invalid = (row: SourceRow, reason = 'negative value', column = 'Amount'): Rejection => ({
  file: row.source.file,
  line: row.line,
  stage: 'invalid',
  row,
  issues: [{ column, value: '-5', reason, message: `${reason}: -5` }],
});

describe('problemFingerprint', () => {
  const base = problemFingerprint(invalid(csv(['A-1', '-5'])));

  it.each([
    ['another file name and line', invalid(csv(['A-1', '-5'], 'export (1).csv', 40)), true],
    ['another cell', invalid(csv(['A-2', '-5'])), false],
    ['the same cells under another header', invalid(csv(['A-1', '-5'], 'a.csv', 2, ['Id', 'Amount'])), false],
    ['another reason', invalid(csv(['A-1', '-5']), 'duplicate'), false],
    ['another column', invalid(csv(['A-1', '-5']), 'negative value', 'Order'), false],
    // Cells are joined with a separator no cell boundary can forge.
    ['cells split elsewhere', invalid(csv(['A-1-', '5'])), false],
    ['a separator inside a cell', invalid(csv(['A-1\u0001', '-5'])), false],
  ])('%s: same %s', (_name, rejection, same) => {
    expect(problemFingerprint(rejection) === base).toBe(same);
  });

  it('a JSON line by its text, a malformed line by its bytes', () => {
    const json = (text: string, line: number): SourceRow => ({
      kind: 'json',
      source: { file: 'a.jsonl', format: 'jsonl', encoding: 'utf-8' },
      line,
      text,
      value: JSON.parse(text),
    });
    const a = problemFingerprint(invalid(json('{"id":"1","v":-5}', 1)));
    expect(problemFingerprint(invalid(json('{"id":"1","v":-5}  ', 9)))).toBe(a);
    expect(problemFingerprint(invalid(json('{"id":"1","v":-6}', 1)))).not.toBe(a);
  });
});

describe('KnownProblems', () => {
  it('answers the earlier run for a known row, and collects each new one once', () => {
    const known = invalid(csv(['A-1', '-5']));
    const fresh = invalid(csv(['A-2', '-5']));
    const problems = new KnownProblems(new Map([[problemFingerprint(known), { runId: 3, at: 1000 }]]));
    expect(problems.reportedBefore(known)).toEqual({ runId: 3, at: 1000 });
    expect(problems.reportedBefore(fresh)).toBeUndefined();
    // A --max-invalid check pass and the push pass see the same row: remembered once.
    expect(problems.reportedBefore(fresh)).toBeUndefined();
    expect(problems.fresh).toEqual([problemFingerprint(fresh)]);
  });
});
