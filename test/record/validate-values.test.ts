// Issue 24: bad values are invalid rows, never a crash and never a wrong value sent; cells quoted in the
// messages never carry a control character.
import { describe, expect, it } from 'vitest';
import { type MappingInput, mappingSchema } from '../../src/config/schema.js';
import type { CsvRow, JsonRow, SourceInfo } from '../../src/input/types.js';
import { bindMapping } from '../../src/mapping/compile-mapping.js';
import { mergeMapping } from '../../src/mapping/merge-mapping.js';
import { createValidator, type ValidateResult } from '../../src/record/validate.js';
import { hostileCells, unprintableIn } from '../helpers/unprintable.js';

const header = ['Order', 'Visitor', 'Email', 'Time', 'Zone', 'Value', 'Currency', 'Name', 'Refunded'];
const fields = {
  conversionId: 'Order',
  serviceId: 'Visitor',
  conversionEmail: 'Email',
  conversionDatetime: 'Time',
  conversionTimezone: 'Zone',
  conversionValue: 'Value',
  conversionCurrency: 'Currency',
  conversionName: 'Name',
};

function validator(mapping: MappingInput = {}, format: 'csv' | 'jsonl' = 'csv') {
  const written = mappingSchema.parse({ ...mapping, fields: { ...fields, ...mapping.fields } });
  const source: SourceInfo = { file: 'in', format, encoding: 'utf-8', header };
  const v = createValidator(bindMapping(mergeMapping(undefined, written), source), {
    timezone: undefined,
    currency: undefined,
    allowNegative: false,
  });
  const check = (cells: Record<string, unknown>, text = '{}'): ValidateResult => {
    if (format === 'jsonl') {
      const row: JsonRow = { kind: 'json', source, line: 1, value: cells, text };
      return v.check(v.candidate(row));
    }
    const row: CsvRow = { kind: 'csv', source, line: 2, cells: header.map((h) => String(cells[h] ?? '')) };
    return v.check(v.candidate(row));
  };
  return check;
}

const good = { Order: 'A-1', Visitor: 'v-1', Time: '2024-03-05T14:22:10Z', Value: '12.50', Currency: 'EUR' };

function issuesOf(result: ValidateResult) {
  if (result.ok || !('issues' in result)) throw new Error(`expected issues, got ${JSON.stringify(result)}`);
  return result.issues;
}

describe('an amount past what a double holds in minor units is an invalid row', () => {
  const zeros = (n: number) => `1${'0'.repeat(n)}`;
  it.each([
    ['1 and 307 zeros (minor units Infinity: sent as null)', {}, zeros(307)],
    ['1 and 309 zeros (the amount itself Infinity: a RangeError ended the run)', {}, zeros(309)],
    ['a trillion trillion (cents no longer exact)', {}, zeros(24)],
    ['20 digits times a large scale', { conversionValue: { column: 'Value', scale: 1e300 } }, zeros(19)],
    ['1e307 minor units', { conversionValue: { column: 'Value', unit: 'minor' as const } }, zeros(307)],
  ])('%s', (_, fieldsOver, value) => {
    const result = validator({ fields: fieldsOver })({ ...good, Value: value });
    const issues = issuesOf(result);
    expect(issues).toEqual([expect.objectContaining({ column: 'Value', reason: 'amount too large' })]);
    expect(issues[0]!.message).toMatch(/^"10{15,}…?" is too large/);
  });

  it('a JSON number 1e307 too', () => {
    const check = validator({ fields: { conversionValue: 'v' } }, 'jsonl');
    const issues = issuesOf(check({ ...good, v: 1e307 }));
    expect(issues).toEqual([expect.objectContaining({ column: 'v', reason: 'amount too large' })]);
    expect(issues[0]!.message).toBe(
      '"1e+307" is too large: an amount in EUR is exact in minor units up to 90071992547409.91',
    );
  });

  it('a refunded amount that parses to Infinity is an issue of its column, not a crash', () => {
    for (const refunded of ['Refunded', { column: 'Refunded', remaining: true }]) {
      const check = validator({ refunded });
      const issues = issuesOf(check({ ...good, Refunded: zeros(309) }));
      expect(issues).toEqual([expect.objectContaining({ column: 'Refunded', reason: 'amount too large' })]);
    }
  });

  it('the largest exact amount is still valid, and sent as it is', () => {
    const result = validator()({ ...good, Value: '90071992547409.91' });
    expect(result).toMatchObject({ ok: true, record: { conversionValue: 90071992547409.91 } });
  });
});

describe('a control character in a field that is sent is invalid, named in the error', () => {
  it.each([
    ['conversionId', 'Order', '1\u0000', 'U+0000'],
    ['serviceId', 'Visitor', 'v\u001b[8m', 'U+001B'],
    ['conversionName', 'Name', 'Sale\u0085', 'U+0085'],
    ['conversionName', 'Name', 'two\nlines', 'U+000A'],
    ['conversionId', 'Order', 'A\u007f', 'U+007F'],
  ])('%s %j', (field, column, cell, named) => {
    const issues = issuesOf(validator()({ ...good, [column]: cell }));
    expect(issues).toEqual([expect.objectContaining({ column, reason: 'control character' })]);
    expect(issues[0]!.message).toContain(field);
    expect(issues[0]!.message).toContain(named);
    expect(unprintableIn(issues[0]!.message)).toEqual([]);
  });

  it('an e-mail: named masked, as every e-mail is', () => {
    const issues = issuesOf(validator()({ ...good, Email: 'ann\u0000@example.com' }));
    expect(issues).toEqual([
      expect.objectContaining({ column: 'Email', reason: 'control character', value: 'a***@example.com' }),
    ]);
    expect(issues[0]!.message).toContain('"a***@example.com"');
    expect(issues[0]!.message).toContain('U+0000');
  });

  it('a JSON id "1\\u0000" too (it was sent with the NUL)', () => {
    const check = validator({ fields: { conversionId: 'id' } }, 'jsonl');
    expect(issuesOf(check({ ...good, id: '1\u0000' }))).toEqual([
      expect.objectContaining({ column: 'id', reason: 'control character' }),
    ]);
  });

  it('tabs and spaces around a value are trimmed, not refused', () => {
    expect(validator()({ ...good, Order: '\tA-1 ' })).toMatchObject({
      ok: true,
      record: { conversionId: 'A-1' },
    });
  });
});

describe('cells quoted in row messages are escaped', () => {
  it.each(hostileCells)('%j in every field whose message quotes it', (cell) => {
    const cells = {
      ...good,
      Currency: cell,
      Zone: cell,
      Time: cell,
      Value: cell,
      Email: `${cell}@example.com`,
      Order: cell,
      Visitor: cell,
      Name: cell,
    };
    const issues = issuesOf(validator()(cells));
    expect(issues.length).toBeGreaterThan(2);
    for (const issue of issues) expect(unprintableIn(issue.message)).toEqual([]);
  });
});

describe('a value nested 5,000 levels deep', () => {
  it('is an invalid value shown truncated, not a stack overflow', () => {
    const deep = JSON.parse(`${'['.repeat(5000)}"a"${']'.repeat(5000)}`);
    const check = validator({ fields: { conversionValue: 'v' } }, 'jsonl');
    const issues = issuesOf(check({ ...good, v: deep }));
    expect(issues).toEqual([expect.objectContaining({ column: 'v', reason: 'invalid number' })]);
    expect(issues[0]!.value).toMatch(/^\[\[\[\[.*…/);
    expect(issues[0]!.value.length).toBeLessThan(210);
  });
});

// Issue 21 item 2: a deduction never adds to the value nor flips its sign. Shopify writes a negative
// Outstanding Balance for an overpaid order (and -0.01 for Markets rounding): nothing is uncaptured.
describe('a deduction below zero takes nothing off, and never adds', () => {
  const deductions = (mapping: MappingInput) => validator({ ...mapping, fields: { serviceId: 'Visitor' } });
  const sent = (result: ValidateResult) => {
    if (!result.ok) throw new Error(`expected a record, got ${JSON.stringify(result)}`);
    return result.record.conversionValue;
  };
  it.each([
    ['unpaid -10.66 (overpaid)', { unpaid: 'Refunded' }, '498.29', '-10.66', 498.29],
    ['unpaid -0.01 (rounding)', { unpaid: 'Refunded' }, '498.29', '-0.01', 498.29],
    ['unpaid 10.66 still comes off', { unpaid: 'Refunded' }, '498.29', '10.66', 487.63],
    ['refunded -5.00', { refunded: 'Refunded' }, '40.00', '-5.00', 40],
    ['refunded 5.00 still comes off', { refunded: 'Refunded' }, '40.00', '5.00', 35],
    [
      'refunded -500 cents',
      { refunded: { column: 'Refunded', unit: 'minor' as const } },
      '40.00',
      '-500',
      40,
    ],
    [
      'remaining above the value',
      { refunded: { column: 'Refunded', remaining: true } },
      '40.00',
      '45.00',
      40,
    ],
    ['remaining 0 (never adjusted)', { refunded: { column: 'Refunded', remaining: true } }, '40.00', '0', 40],
    ['remaining 30.00 of 40.00', { refunded: { column: 'Refunded', remaining: true } }, '40.00', '30.00', 30],
  ])('%s', (_, mapping, value, cell, expected) => {
    expect(sent(deductions(mapping)({ ...good, Value: value, Refunded: cell }))).toBe(expected);
  });

  it('a negative remaining amount leaves nothing: refunded in full, not its sign flipped', () => {
    const check = deductions({ refunded: { column: 'Refunded', remaining: true } });
    expect(check({ ...good, Value: '40.00', Refunded: '-5.00' })).toEqual({
      ok: false,
      skipped: 'refunded in full',
    });
  });
});
