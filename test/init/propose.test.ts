// What init writes for a chosen candidate (src/init/propose.ts specOf, policyOf): a bare column when nothing
// else is needed, else an object with what the sample showed; a path for JSON lines.
import { describe, expect, it } from 'vitest';
import { policyOf, presetDatetimeFormat, specOf } from '../../src/init/propose.js';
import type { Candidate, MappingGuess } from '../../src/init/types.js';
import type { SourceInfo, SourceRow } from '../../src/input/types.js';
import { findPreset } from '../../src/mapping/presets/index.js';

const candidate = (extra: Partial<Candidate>): Candidate => ({
  columns: ['Total'],
  score: 100,
  evidence: 'x',
  ...extra,
});

describe('specOf', () => {
  it.each([
    ['a bare column', {}, false, 'Total'],
    ['iso needs no format', { format: 'iso' }, false, 'Total'],
    ['a token format', { format: 'dd.MM.yyyy' }, false, { column: 'Total', format: 'dd.MM.yyyy' }],
    [
      'decimal comma and cents',
      { decimal: ',', unit: 'minor' },
      false,
      { column: 'Total', decimal: ',', unit: 'minor' },
    ],
    ['a JSON path', { scale: 0.000001 }, true, { path: 'Total', scale: 0.000001 }],
    [
      'joined columns',
      { columns: ['Date', 'Time'], format: 'yyyy-MM-dd H:mm' },
      false,
      { columns: ['Date', 'Time'], format: 'yyyy-MM-dd H:mm' },
    ],
  ] as const)('%s', (_, extra, isJson, spec) => {
    expect(specOf(candidate(extra as Partial<Candidate>), isJson)).toEqual(spec);
  });
});

describe('policyOf', () => {
  const guess = (rest: Partial<MappingGuess>) => ({ fields: {} as MappingGuess['fields'], ...rest });
  it.each([
    ['nothing to keep or take off', guess({}), false, {}],
    [
      'keep the received status values',
      guess({ status: { column: 'Status', keep: ['Paid'], notRevenue: [['Failed', 1]] } }),
      false,
      { keep: [{ column: 'Status', in: ['Paid'] }] },
    ],
    [
      'no received value seen: nothing kept (the review asks)',
      guess({ status: { column: 'Status', keep: [], notRevenue: [['Failed', 1]] } }),
      false,
      {},
    ],
    ['a refund column', guess({ refunded: 'Refunded' }), false, { refunded: 'Refunded' }],
    [
      'a refund path in JSON lines',
      guess({ refunded: 'a.refunded' }),
      true,
      { refunded: { path: 'a.refunded' } },
    ],
  ])('%s', (_, g, isJson, policy) => {
    expect(policyOf(g, isJson)).toEqual(policy);
  });
});

describe('presetDatetimeFormat', () => {
  const rows = (header: string[], cells: string[][]): SourceRow[] => {
    const source: SourceInfo = {
      file: 'orders.csv',
      format: 'csv',
      encoding: 'utf-8',
      header,
      headerLine: 1,
    };
    return cells.map((c, i) => ({ kind: 'csv', source, line: i + 2, cells: c }));
  };
  const shopify = findPreset('shopify')!;

  // A re-saved export: the preset's column, but in a spreadsheet's date form; named as the mapping matches
  // names (case and spaces aside), as push will read it.
  it.each([
    [['Name', 'Paid at'], { format: 'MM/dd/yyyy HH:mm', swapped: undefined }],
    [['Name', 'paid at'], { format: 'MM/dd/yyyy HH:mm', swapped: undefined }],
    [['Name', 'Shipped at'], undefined],
  ])('header %j', (header, expected) => {
    const sample = rows(header, [
      ['#1001', '09/13/2025 23:01'],
      ['#1002', '10/02/2025 08:15'],
    ]);
    expect(presetDatetimeFormat(shopify, sample)).toEqual(expected);
  });
});
