// The one column-or-path getter builder (src/mapping/source-getter.ts): which alternative is read, under
// which name, for CSV columns and JSON-lines paths, once per file (`first`) or per row (`each row`).
import { describe, expect, it } from 'vitest';
import { headerIndex } from '../../src/input/column-name.js';
import type { SourceInfo, SourceRow } from '../../src/input/types.js';
import { ruleSource, sourceGetter } from '../../src/mapping/source-getter.js';

const header = ['Order', 'Paid at', 'Created at'];
const csv: SourceInfo = { file: 'in.csv', format: 'csv', encoding: 'utf-8', header };
const jsonl: SourceInfo = { file: 'in.jsonl', format: 'jsonl', encoding: 'utf-8' };
const index = headerIndex(header);
const csvRow = (cells: string[]): SourceRow => ({ kind: 'csv', source: csv, line: 2, cells });
const jsonRow = (value: Record<string, unknown>): SourceRow => ({
  kind: 'json',
  source: jsonl,
  line: 1,
  value,
  text: JSON.stringify(value),
});

describe('sourceGetter on CSV columns', () => {
  it.each([
    { names: ['paid AT'], pick: 'first', cells: ['1', 'p', 'c'], name: 'Paid at', value: 'p' },
    {
      names: ['Refunds', 'Created at'],
      pick: 'first',
      cells: ['1', 'p', 'c'],
      name: 'Created at',
      value: 'c',
    },
    { names: ['Paid at', 'Created at'], pick: 'first', cells: ['1', ' ', 'c'], name: 'Paid at', value: ' ' },
    {
      names: ['Paid at', 'Created at'],
      pick: 'each row',
      cells: ['1', ' ', 'c'],
      name: 'Paid at',
      value: 'c',
    },
    {
      names: ['Paid at', 'Created at'],
      pick: 'each row',
      cells: ['1', '', ''],
      name: 'Paid at',
      value: undefined,
    },
    { names: ['Paid at'], pick: 'each row', cells: ['1', ' '], name: 'Paid at', value: ' ' },
  ] as const)('$names read $pick from $cells: $name = $value', ({ names, pick, cells, name, value }) => {
    const getter = sourceGetter(names, csv, index, pick)!;
    expect(getter.name).toBe(name);
    expect(getter.get(csvRow([...cells]))).toBe(value);
    expect(getter.get(jsonRow({ 'Paid at': 'x' }))).toBeUndefined();
  });

  it('a file with none of the columns, or no name at all: no getter', () => {
    expect(sourceGetter(['Refunds'], csv, index, 'first')).toBeUndefined();
    expect(sourceGetter([], csv, index, 'each row')).toBeUndefined();
  });
});

describe('sourceGetter on JSON-lines paths', () => {
  it.each([
    { names: ['a.b'], pick: 'first', value: { a: { b: null } }, read: null },
    { names: ['a.b'], pick: 'each row', value: { a: { b: null } }, read: undefined },
    { names: ['a.b', 'c'], pick: 'each row', value: { a: { b: '' }, c: 3 }, read: 3 },
    { names: ['a.b', 'c'], pick: 'first', value: { a: { b: '' }, c: 3 }, read: '' },
  ] as const)('$names read $pick: $read', ({ names, pick, value, read }) => {
    const getter = sourceGetter(names, jsonl, new Map(), pick)!;
    expect(getter.name).toBe(names[0]);
    expect(getter.get(jsonRow(value))).toBe(read);
  });

  it('`first` compiles only the path it reads; `each row` compiles every alternative', () => {
    expect(sourceGetter(['a', 'b[['], jsonl, new Map(), 'first')).toBeDefined();
    expect(() => sourceGetter(['a', 'b[['], jsonl, new Map(), 'each row')).toThrow(/not a valid path/);
  });
});

describe('ruleSource', () => {
  it.each([
    { rule: { column: 'C', path: 'p' }, source: csv, names: ['C'] },
    { rule: { column: 'C', path: 'p' }, source: jsonl, names: ['p'] },
    { rule: { path: 'p' }, source: csv, names: ['p'] },
    { rule: { column: 'C' }, source: jsonl, names: ['C'] },
    { rule: {}, source: csv, names: [] },
  ])('$rule in $source.format reads $names', ({ rule, source, names }) => {
    expect(ruleSource(rule, source)).toEqual(names);
  });
});
