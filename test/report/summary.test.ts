import { describe, expect, it } from 'vitest';
import type { Rejection } from '../../src/report/rejection.js';
import { maskEmail } from '../../src/report/rejection.js';
import { ErrorCollector, MAX_EXAMPLES, Totals } from '../../src/report/summary.js';

const rejection = (line: number, reason: string): Rejection => ({
  file: 'a.csv',
  line,
  stage: 'invalid',
  row: undefined,
  issues: [{ column: 'Value', value: String(line), reason, message: `bad ${line}` }],
});

describe('ErrorCollector', () => {
  it('groups by reason, counts all, keeps the first examples, largest group first', () => {
    const errors = new ErrorCollector();
    for (let line = 2; line < 10; line++) errors.add(rejection(line, 'invalid number'));
    errors.add(rejection(20, 'duplicate'));
    const groups = errors.groups();
    expect(groups.map((g) => [g.reason, g.count])).toEqual([
      ['invalid number', 8],
      ['duplicate', 1],
    ]);
    expect(groups[0]!.examples).toHaveLength(MAX_EXAMPLES);
    expect(groups[0]!.examples[0]).toEqual({
      file: 'a.csv',
      line: 2,
      column: 'Value',
      value: '2',
      message: 'bad 2',
    });
  });
});

describe('Totals', () => {
  const digits = (c: string) => ({ JPY: 0, KWD: 3 })[c] ?? 2;

  it('sums exactly in minor units, sorted by currency', () => {
    const totals = new Totals(digits);
    for (let i = 0; i < 10; i++) totals.add('EUR', 0.1);
    totals.add('JPY', 1200);
    totals.add('KWD', 1.235);
    totals.add('KWD', 0.001);
    expect(totals.toJSON()).toEqual({ EUR: 1, JPY: 1200, KWD: 1.236 });
    expect(Object.keys(totals.toJSON())).toEqual(['EUR', 'JPY', 'KWD']);
  });
});

describe('maskEmail', () => {
  it.each([
    ['jane.doe@example.com', 'j***@example.com'],
    ['x@y.z', 'x***@y.z'],
    ['not-an-email', 'n***'],
    ['a', '***'],
  ])('%s -> %s', (input, masked) => {
    expect(maskEmail(input)).toBe(masked);
  });
});
