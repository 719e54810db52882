// columnSamples (init's view of the sample as columns) on wide headers: linear in the header width.
import { describe, expect, it } from 'vitest';
import { columnSamples } from '../../src/init/column-samples.js';
import type { SourceInfo, SourceRow } from '../../src/input/types.js';

function csvRows(header: string[], rows: string[][]): SourceRow[] {
  const source: SourceInfo = { file: 'wide.csv', format: 'csv', encoding: 'utf-8', header, headerLine: 1 };
  return rows.map((cells, i) => ({ kind: 'csv', source, line: i + 2, cells }));
}

describe('columnSamples', () => {
  it('a repeated column name takes the cells of its first position', () => {
    const columns = columnSamples(csvRows(['id', 'Notes', 'value', 'Notes'], [['a', ' x ', '1', 'y']]));
    expect(columns).toEqual([
      { name: 'id', cells: ['a'] },
      { name: 'Notes', cells: ['x'] },
      { name: 'value', cells: ['1'] },
    ]);
  });

  // The mapping finds a header name case- and space-insensitively (column-name.ts): `total` in a config reads
  // the first `Total`, so init must not score a later `total` on cells a push would never read.
  it('a name the mapping cannot tell from an earlier one is that earlier column', () => {
    const columns = columnSamples(csvRows(['Total', 'id', 'total', 'To tal'], [['9.50', 'a', '1', '2']]));
    expect(columns).toEqual([
      { name: 'Total', cells: ['9.50'] },
      { name: 'id', cells: ['a'] },
    ]);
  });

  // Issue 21: a footer the reader marks (`Totals`, eBay's `4,record(s) downloaded`) is not a cell of the
  // columns init scores: its label in the id column would make the ids look less unique, and so on.
  it('leaves out the rows the reader marked as footers', () => {
    const rows = csvRows(
      ['id', 'total'],
      [
        ['A-1', '9.50'],
        ['Totals', '9.50'],
      ],
    );
    (rows[1] as SourceRow & { kind: 'csv' }).footer = 'label';
    expect(columnSamples(rows)).toEqual([
      { name: 'id', cells: ['A-1'] },
      { name: 'total', cells: ['9.50'] },
    ]);
  });

  // Issue 24 item 9: a name's position was found with header.indexOf per name, quadratic in the width
  // (100,000 columns: 14.6 s of `init`; 200,000 here would take about a minute). Linear, this is
  // milliseconds: the timeout is only a generous bound, not a speed claim.
  it('200,000 columns: every column with its cell, in header order', { timeout: 10_000 }, () => {
    const width = 200_000;
    const header = Array.from({ length: width }, (_, i) => `c${i}`);
    const cells = Array.from({ length: width }, (_, i) => String(i));
    const columns = columnSamples(csvRows(header, [cells]));
    expect(columns).toHaveLength(width);
    expect(columns[0]).toEqual({ name: 'c0', cells: ['0'] });
    expect(columns[width - 1]).toEqual({ name: `c${width - 1}`, cells: [String(width - 1)] });
  });
});
