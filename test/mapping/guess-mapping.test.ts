import { describe, expect, it } from 'vitest';
import { toYaml } from '../../src/config/write-yaml.js';
import { guessFields } from '../../src/mapping/guess-mapping.js';

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
    expect(guessFields(['Umsatz', 'Währung', 'Datum'])).toEqual({
      conversionValue: 'Umsatz',
      conversionCurrency: 'Währung',
    });
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
