import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { compileJsonPath } from '../../src/mapping/json-path.js';

// The shape of one GA4 BigQuery export row (JSON lines): parameters as {key, value:{typed slots}} pairs.
const ga4 = {
  event_name: 'purchase',
  event_timestamp: '1717243200123456',
  event_params: [
    {
      key: 'ga_session_id',
      value: { string_value: null, int_value: '1717240000', float_value: null, double_value: null },
    },
    {
      key: 'currency',
      value: { string_value: 'EUR', int_value: null, float_value: null, double_value: null },
    },
    { key: 'value', value: { string_value: null, int_value: null, float_value: null, double_value: 49.9 } },
    { key: 'coupon', value: { string_value: null, int_value: null, float_value: null, double_value: null } },
  ],
  ecommerce: { transaction_id: 'T-1001', purchase_revenue: 49.9 },
};

describe('compileJsonPath', () => {
  it('walks dotted keys', () => {
    expect(compileJsonPath('ecommerce.transaction_id').get(ga4)).toBe('T-1001');
    expect(compileJsonPath('ecommerce.missing').get(ga4)).toBeUndefined();
    expect(compileJsonPath('event_name.length').get(ga4)).toBeUndefined();
  });

  it('picks a {key, value} pair by key and unwraps the typed slot that is set', () => {
    expect(compileJsonPath('event_params[currency]').get(ga4)).toBe('EUR');
    expect(compileJsonPath('event_params[value]').get(ga4)).toBe(49.9);
    expect(compileJsonPath('event_params[ga_session_id]').get(ga4)).toBe('1717240000');
  });

  it('gives null for a parameter present without a value, undefined for one absent', () => {
    expect(compileJsonPath('event_params[coupon]').get(ga4)).toBeNull();
    expect(compileJsonPath('event_params[transaction_id]').get(ga4)).toBeUndefined();
    expect(compileJsonPath('event_params[coupon]').has(ga4)).toBe(true);
    expect(compileJsonPath('event_params[nothing]').has(ga4)).toBe(false);
  });

  it('walks on into the element when the path goes past the pair', () => {
    expect(compileJsonPath('event_params[currency].value.string_value').get(ga4)).toBe('EUR');
    expect(compileJsonPath('event_params[value].value.string_value').get(ga4)).toBeNull();
  });

  it('returns a plain value as it is when the pair is not GA4-typed', () => {
    const row = {
      attributes: [
        { key: 'visitor', value: 'v-42' },
        { key: 'tier', value: { level: 2 } },
      ],
    };
    expect(compileJsonPath('attributes[visitor]').get(row)).toBe('v-42');
    expect(compileJsonPath('attributes[tier]').get(row)).toEqual({ level: 2 });
  });

  it('does not pick from something that is not an array', () => {
    expect(compileJsonPath('ecommerce[transaction_id]').get(ga4)).toBeUndefined();
  });

  it.each(['a..b', '[x]', 'a[', 'a[b]c', 'a[]', '.a'])('refuses the malformed path %s', (text) => {
    expect(() => compileJsonPath(text)).toThrow(ConfigError);
  });
});
