// The platform policy step, before a row's fields are parsed: what the preset (or the user's rules) says
// the row is. Folded into the order above, a footer, skipped by a rule, a refund of unknown amount, or a
// key missing from the lookup file; undefined when the row goes on to be parsed.
import type { CsvRow, JsonRow } from '../../input/types.js';
import type { Candidate } from '../../record/validate.js';
import { invalid } from './outcome.js';
import type { SumGroups } from './sum-groups.js';
import type { FileState, RowOutcome } from './types.js';

/** What the row is by the file's policy, or undefined to parse it. Remembers the fold key in `state`. */
export function policyOutcome(
  row: CsvRow | JsonRow,
  state: FileState,
  refunds: 'net' | 'gross' | 'adjust' | undefined,
  sums: SumGroups,
): RowOutcome | undefined {
  const { bound } = state;
  if (bound.foldIndex !== undefined && row.kind === 'csv') {
    // Shopify writes one row per line item; the order's own fields are on its first row only. (A span of rows
    // counted unchecked is folded the same way: checked-rows.ts foldsIntoLast, passed.)
    const key = row.cells[bound.foldIndex]?.trim();
    if (key && key === state.lastFoldKey) return 'folded';
    state.lastFoldKey = key;
  }
  if (
    row.kind === 'csv' &&
    row.footer !== undefined &&
    isFooter(row.footer, state.validator.candidate(row))
  ) {
    return { skipped: 'footer', row };
  }
  const ruled = bound.skipReason?.(row);
  if (ruled !== undefined) return { skipped: ruled, row };
  const unknown = refunds === 'gross' ? undefined : bound.refundUnknown?.(row);
  if (unknown !== undefined) return invalid(row, [{ ...unknown, reason: 'refund amount unknown' }]);
  const miss = bound.lookupMiss?.(row);
  if (miss !== undefined) {
    // One member without its lookup row: the sum is not sent short of its fields.
    if (bound.sumKey) sums.holdBack(row, bound);
    return invalid(row, [{ ...miss, reason: 'not in lookup file' }]);
  }
  return undefined;
}

/**
 * A `Total` row is a footer; a row after the data shaped like one (eBay's `4,record(s) downloaded`) is
 * when nothing in it fits a conversion: no amount in the value column, no datetime, no e-mail, no visitor
 * id (its count may sit in the id column, a time in the e-mail column). Otherwise it is data.
 */
function isFooter(footer: 'label' | 'trailer', candidate: Candidate): boolean {
  if (footer === 'label') return true;
  const { conversionValue: value, conversionEmail: email } = candidate;
  const fitsValue = typeof value === 'number' || (typeof value === 'string' && /\d/.test(value));
  const fitsEmail = typeof email === 'string' && email.includes('@');
  return (
    !fitsValue &&
    !fitsEmail &&
    candidate.conversionDatetime === undefined &&
    candidate.serviceId === undefined
  );
}
