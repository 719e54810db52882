// init's scoring step alone (src/init/score-columns.ts): each column scored for each field from its name and
// its cells, with the columns named like a field but ruled out by their cells, and why.
import { describe, expect, it } from 'vitest';
import { accepts } from '../../src/init/propose.js';
import { scoreColumns } from '../../src/init/score-columns.js';
import type { ColumnSample } from '../../src/init/types.js';

const column = (name: string, ...cells: string[]): ColumnSample => ({ name, cells });

function fieldsOf(columns: ColumnSample[]) {
  return scoreColumns(columns, accepts).candidates.map((c) => [c.columns[0], c.field, c.part ?? null]);
}

describe('scoreColumns', () => {
  it.each([
    [
      'a total is a value',
      column('Order Total', '12.50', '8.00'),
      [['Order Total', 'conversionValue', null]],
    ],
    [
      'shipping is a part of it',
      column('Shipping', '4.90', '0.00'),
      [['Shipping', 'conversionValue', 'shipping']],
    ],
    ['a count is no money', column('Quantity', '1', '2'), []],
    ['an order id', column('Order ID', 'A-1', 'A-2'), [['Order ID', 'conversionId', null]]],
    ['a currency column', column('Currency', 'EUR', 'USD'), [['Currency', 'conversionCurrency', null]]],
    [
      'an IANA zone column',
      column('Time zone', 'Europe/Berlin', 'UTC'),
      [['Time zone', 'conversionTimezone', null]],
    ],
    [
      'e-mails by their cells, whatever the name',
      column('Kontakt', 'a@b.de', 'c@d.de'),
      [['Kontakt', 'conversionEmail', null]],
    ],
    [
      'dates by their cells',
      column('When', '2024-03-05 10:00', '2024-03-06 11:00'),
      [['When', 'conversionDatetime', null]],
    ],
  ])('%s', (_, col, expected) => {
    expect(fieldsOf([col])).toEqual(expected);
  });

  it.each([
    [column('Total', 'n/a', 'free'), 'conversionValue', '"Total" does not hold numbers (e.g. "n/a")'],
    [
      column('Currency', 'Euro', 'Dollar'),
      'conversionCurrency',
      '"Currency" does not hold ISO currency codes (e.g. "Euro")',
    ],
    [
      column('Order ID', 'Ann Lee', 'Bo Chan'),
      'conversionId',
      `"Order ID" holds people's names (e.g. "Ann Lee")`,
    ],
    [column('Order ID', 'X', 'X', 'X'), 'conversionId', '"Order ID" holds the same value on every row ("X")'],
    [column('Email', '', ''), 'conversionEmail', '"Email" is empty in the sample'],
  ])('%j is ruled out for %s', (col, field, reason) => {
    const { candidates, ruledOut } = scoreColumns([col], accepts);
    expect(candidates.filter((c) => c.field === field)).toEqual([]);
    expect(ruledOut.get(field as never)).toEqual([reason]);
  });

  it('a column filled on half the rows scores lower than a full one of the same name', () => {
    const { candidates } = scoreColumns(
      [column('Total', '1.00', '2.00'), column('total ', '1.00', '')],
      accepts,
    );
    const [full, half] = candidates;
    expect(full!.score).toBeGreaterThan(half!.score);
  });
});
