// Amounts taken off a row's value, bound to one file: refunded (under refunds: net) and not captured,
// with how their cells read (decimal, unit, scale), and refunded.ifAbsent for a file without the column.
import type { Deduction } from '../config/schema.js';
import type { SourceInfo } from '../input/types.js';
import type { BoundDeduction, BoundMapping } from './bound-mapping.js';
import type { MergedMapping } from './merge-mapping.js';
import { missingRuleColumn, ruleMatcher } from './row-rules.js';
import { sourceGetter } from './source-getter.js';

export function bindDeduction(
  which: 'refunded' | 'unpaid',
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
): BoundDeduction | undefined {
  const deduction = merged[which];
  if (deduction === undefined) return undefined;
  const names = deductionColumns(deduction);
  const getter = sourceGetter(names, source, index, 'first');
  if (!getter) {
    if (merged.ruleOrigin[which] === 'user')
      missingRuleColumn(`mapping.${which}`, { column: names[0] }, source);
    return undefined;
  }
  const value = merged.fields.conversionValue?.spec;
  return {
    column: getter.name,
    get: getter.get,
    decimal: (typeof deduction === 'string' ? undefined : deduction.decimal) ?? value?.decimal,
    unit: (typeof deduction === 'string' ? undefined : deduction.unit) ?? value?.unit,
    scale: (typeof deduction === 'string' ? undefined : deduction.scale) ?? value?.scale,
    remaining: typeof deduction !== 'string' && deduction.remaining === true,
  };
}

/** The column (or path) alternatives of a deduction, as written. */
export function deductionColumns(deduction: Deduction): string[] {
  if (typeof deduction === 'string') return [deduction];
  const raw = deduction.column ?? deduction.path;
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
}

/**
 * `refunded.ifAbsent`: in a file without the refunded column, the rows the rule accepts (a `Refunded`
 * status) have an unknown refund; the reason, or undefined for the others and when the column is there.
 */
export function bindRefundUnknown(
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
  refunded: BoundDeduction | undefined,
): BoundMapping['refundUnknown'] {
  const deduction = merged.refunded;
  if (refunded || deduction === undefined || typeof deduction === 'string' || !deduction.ifAbsent)
    return undefined;
  const test = ruleMatcher(deduction.ifAbsent, source, index);
  if (!test) return undefined;
  const column = deductionColumns(deduction).join(' / ');
  return (row) => {
    const text = test.text(row);
    if (!test.accepts(text)) return undefined;
    return {
      column: test.name,
      value: text,
      message: `${source.file} has no "${column}" column: a row with ${test.name} ${text} is not sent at its full value, since what was refunded is unknown`,
    };
  };
}
