import { describe, expect, it } from 'vitest';
import { isNonDataRow, isTrailerShaped, parseParameters } from '../../src/input/csv.js';

describe('isNonDataRow', () => {
  it.each([
    [['', ' ', '\t'], true],
    [[], true],
    [['Total: Account', '--', '1,249.00'], true],
    [['Total: Filtered campaigns', '', '12'], true],
    [['Total', '', '12'], true],
    [['', ' total: Search', '3'], true],
    // Narrow on purpose: a footer taken for data is reported as an invalid row; data taken for a
    // footer would vanish (found in review: ids and e-mails starting with "total").
    [['', ' total - Search', '3'], false],
    [['total@example.com', '12.50'], false],
    [['TOTAL-1001', '12.50'], false],
    [['--', '--', ''], true],
    [['', '--', ' -- '], true],
    [['--', '5'], false],
    [['-5', '--'], false],
    [['Total Wine & More', '12.50'], false],
    // Gumroad's sales export ends with a `Totals` row; spreadsheet re-saves write `Grand total`.
    [['Totals', '', '82.0', '3.28'], true],
    [['TOTALS', '1'], true],
    [['Grand total', '', '85.28'], true],
    [['grand  TOTAL: all', '85.28'], true],
    [['Grand Hotel', '85.28'], false],
    [['Grand totals-2024', '85.28'], false],
    [['Totalsumme', '1'], false],
    [['Tokyo', '1'], false],
    [['abc', 'Total'], false],
  ])('%j → %s', (cells, expected) => {
    expect(isNonDataRow(cells)).toBe(expected);
  });
});

describe('parseParameters', () => {
  it.each([
    ['Parameters:TimeZone=America/Chicago', { TimeZone: 'America/Chicago' }],
    ['Parameters:TimeZone=-0500;', { TimeZone: '-0500' }],
    [
      'parameters: TimeZone = +0100 ; LoyaltyRate=0.5;TransactionUploadRate=1;',
      {
        TimeZone: '+0100',
        LoyaltyRate: '0.5',
        TransactionUploadRate: '1',
      },
    ],
    ['Parameters:Attribution Model = Linear', { 'Attribution Model': 'Linear' }],
    ['Parameters:', {}],
    ['Parameters:junk;=x;k=', { k: '' }],
  ])('%s', (text, expected) => {
    expect(parseParameters(text)).toEqual(expected);
  });
});

// Issue 21: a footer is told by its shape, not only by the word Total.
describe('isTrailerShaped', () => {
  const wide = 40;
  const ebayCount = [
    '4',
    ' record(s) downloaded',
    'from ',
    'Jan-18-16',
    '16:41:35',
    ' to ',
    'Jan-18-16',
    '21:54:24',
  ];
  it.each([
    [ebayCount, wide, true],
    [['12', 'record(s) downloaded', 'from Sep-01-26 to Sep-30-26'], wide, true],
    [['Seller ID: shop_sample'], wide, true],
    [['', '', '83 record(s) downloaded'], wide, true],
    // Led by neither a count nor a label: an order id (#1001), an amount, a date.
    [['#1001', 'ann@example.com'], wide, false],
    [['12.50', 'x'], wide, false],
    [['2024-05-01'], wide, false],
    // A sparse row of a wide export (HubSpot): an id, then a date, not a label right after the count.
    [['9051', '', '2023-01-05 09:12', 'Sales Desk'], wide, false],
    [['Report', 'generated', 'today'], wide, false],
    // Half the header or more: data.
    [ebayCount, 16, false],
    [['a', 'b'], 2, false],
    [['x'], 2, false],
    [['4', 'x'], 5, true],
    [[], wide, false],
  ])('%j in a header of %i → %s', (cells, width, expected) => {
    expect(isTrailerShaped(cells, width)).toBe(expected);
  });
});
