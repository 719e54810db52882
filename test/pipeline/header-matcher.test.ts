// The header matcher's near misses: which mapped columns a row lacks, with the header's near matches.
import { describe, expect, it } from 'vitest';
import { headerMatcher } from '../../src/pipeline/checked-rows.js';

const header = ['Order ID', 'Date', 'Total', 'Currency', 'Email'];
const fields = {
  conversionId: 'Order ID',
  conversionDatetime: 'Date',
  conversionValue: 'Order Total',
  conversionCurrency: 'Currency',
  conversionEmail: 'Email',
};

describe('headerMatcher', () => {
  it('a row lacking a mapped column is no header, and its near miss names the column and near matches', () => {
    const matcher = headerMatcher({ fields, defaults: {} });
    expect(matcher(header)).toBe(false);
    expect(matcher.nearMiss(header)).toEqual({
      held: 4,
      wanted: 5,
      problem: 'has no column "Order Total" (mapped to conversionValue; did you mean "Total" or "Order ID"?)',
      lacks: 'no column "Order Total" (mapped to conversionValue; did you mean "Total" or "Order ID"?)',
    });
  });

  it('names each column a row lacks, joined columns with what they join into', () => {
    const matcher = headerMatcher({
      fields: { ...fields, conversionValue: 'Total', conversionDatetime: { columns: ['Date', 'Tme'] } },
      defaults: {},
    });
    expect(matcher.nearMiss(header)?.problem).toBe('has no column "Tme" (joined into conversionDatetime)');
  });

  it('a row holding every mapped column has no near miss to report but a missing preset', () => {
    const matcher = headerMatcher({ fields: { serviceId: 'Email' }, defaults: {} });
    expect(matcher(header)).toBe(false);
    expect(matcher.nearMiss(header)?.problem).toBe(
      'matches no preset, and the mapping does not give conversionValue or conversionDatetime',
    );
  });

  it('without any mapping: no near misses, and the no-header error says no preset matches', () => {
    const matcher = headerMatcher(undefined);
    expect(matcher.nearMiss(header)).toBeUndefined();
    expect(matcher.noHeader('orders.csv', header)?.message).toBe(
      'orders.csv matches no preset and no mapping is configured; its first row is: "Order ID", "Date", "Total", "Currency", "Email"',
    );
  });
});
