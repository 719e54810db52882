import { describe, expect, it } from 'vitest';
import { toYaml } from '../../src/config/write-yaml.js';
import { guessDatetimeFormat, guessDecimal, guessFields } from '../../src/mapping/guess-mapping.js';
import { createDatetimeParser } from '../../src/record/datetime.js';

describe('guessFields', () => {
  it('maps a typical shop export', () => {
    expect(
      guessFields([
        'Order ID',
        'Visitor ID',
        'Customer Email',
        'Event Name',
        'Created At',
        'Amount',
        'Currency',
        'Time Zone',
      ]),
    ).toEqual({
      conversionId: 'Order ID',
      serviceId: 'Visitor ID',
      conversionEmail: 'Customer Email',
      conversionName: 'Event Name',
      conversionDatetime: 'Created At',
      conversionValue: 'Amount',
      conversionCurrency: 'Currency',
      conversionTimezone: 'Time Zone',
    });
  });

  it('uses each column once and leaves unknown fields out', () => {
    expect(guessFields(['Umsatz', 'Währung', 'Datum', 'Kommentar'])).toEqual({
      conversionValue: 'Umsatz',
      conversionCurrency: 'Währung',
      conversionDatetime: 'Datum',
    });
    expect(guessFields(['Total', 'Total'])).toEqual({ conversionValue: 'Total' });
  });
});

describe('toYaml', () => {
  it('writes comments, scalars, lists, commented-out keys and empty maps', () => {
    const yaml = toYaml([
      { key: 'baseUrl', comment: 'the CRM' },
      {
        key: 'mapping',
        children: [
          { key: 'preset', value: 'shopify', comment: 'Shopify' },
          { key: 'fields', children: [{ key: 'serviceId' }] },
        ],
      },
      { key: 'format', value: ['a: b', 'c'] },
      { key: 'n', value: 3 },
    ]);
    expect(yaml).toBe(
      '# the CRM\n# baseUrl:\nmapping:\n  # Shopify\n  preset: "shopify"\n  fields: {}\n    # serviceId:\nformat: ["a: b", "c"]\nn: 3\n',
    );
  });
});

describe('guessDatetimeFormat and guessDecimal', () => {
  const accepts = (format: string, value: string) => createDatetimeParser([format])(value, 'UTC').ok;

  it.each([
    [['2024-03-05T14:22:10Z', '2024-03-06 10:00:00'], 'iso'],
    [['1710405000', '1710405000123'], 'epoch'],
    [['31.03.2024 01:59', '01.04.2024 10:00'], 'dd.MM.yyyy HH:mm'],
    [['03/05/2024 2:22:10 PM'], 'MM/dd/yyyy h:mm:ss a'],
    [['13/02/2024 10:00'], 'dd/MM/yyyy HH:mm'],
    [['someday'], undefined],
    [[], undefined],
  ])('%j -> %s', (values, format) => {
    expect(guessDatetimeFormat(values, accepts)).toBe(format);
  });

  it.each([
    [['1.149,00', '14,9'], ','],
    [['1,249.00', '3.5'], '.'],
    [['12', '1,234'], undefined],
    [['1,5', '2.5'], undefined],
  ])('%j -> %s', (values, decimal) => {
    expect(guessDecimal(values)).toBe(decimal);
  });
});
