// The money a row did not receive: its refunded and not-captured amounts (the mapping's deduction cells)
// read in the record's currency, and what is left of the value once they come off.
import type { DeductionSource } from '../field-source.js';
import { fromMinorUnits, isExactAmount, parseAmount, toMinorUnits } from '../money.js';
import { type Candidate, deductionCells } from './candidate.js';
import type { FileRules } from './file-rules.js';
import { addIssue, type RowDraft } from './row-draft.js';
import { tooLarge } from './text.js';

/** A deduction as an amount in the record's currency, or why its cell cannot be read. */
export type DeductionAmount = number | { value: unknown; reason: string; message: string };

/** Reads the deduction cells into the draft; an unreadable cell is an issue on its column and no value. */
export function checkDeductions(draft: RowDraft, c: Candidate, rules: FileRules): void {
  const cells = c[deductionCells];
  const { value, currency } = draft;
  if (!cells || value === undefined || currency === undefined) return;
  const refundCell = rules.netRefunds ? amountOf(rules.refunded, cells.refunded, currency) : 0;
  const refunded =
    typeof refundCell === 'number' ? refundOf(refundCell, rules.refunded, value, currency) : refundCell;
  const unpaidCell = amountOf(rules.unpaid, cells.unpaid, currency);
  // Issue 21: a negative Outstanding Balance (overpaid, Shopify Markets rounding) is nothing uncaptured.
  const unpaid = typeof unpaidCell === 'number' ? Math.max(0, unpaidCell) : unpaidCell;
  if (typeof refunded === 'object')
    addIssue(draft, rules.refunded!.column, refunded.value, refunded.reason, refunded.message);
  if (typeof unpaid === 'object')
    addIssue(draft, rules.unpaid!.column, unpaid.value, unpaid.reason, unpaid.message);
  if (typeof refunded === 'number' && typeof unpaid === 'number') {
    draft.refunded = refunded;
    draft.unpaid = unpaid;
  } else draft.value = undefined;
}

/**
 * Where the mapping says what was refunded or not captured, the money decides: what is left of the value, in
 * minor units, exact (232.81 - 14.00 is 218.81); 0 or less is no revenue (an order of 0.00 too).
 */
export function minorUnitsLeft(value: number, currency: string, draft: RowDraft): number {
  return toMinorUnits(value, currency) - toMinorUnits(draft.refunded + draft.unpaid, currency);
}

/** A deduction cell as a signed amount in the record's currency: empty is 0; unreadable is an issue. */
export function amountOf(
  deduction: DeductionSource | undefined,
  raw: unknown,
  currency: string,
): DeductionAmount {
  if (deduction === undefined) return 0;
  if (typeof raw === 'string') raw = raw.trim();
  if (raw === undefined || raw === null || raw === '') return 0;
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    return { value: raw, reason: 'invalid number', message: 'the amount is not a number' };
  }
  // The deduction is its own amount options (its `decimal`): no object per row.
  const amount = parseAmount(raw, deduction);
  if (!amount.ok) return { value: raw, reason: amount.reason, message: amount.message };
  const scaled = amount.value * (deduction.scale ?? 1);
  const value = deduction.unit === 'minor' ? fromMinorUnits(scaled, currency) : scaled;
  if (!isExactAmount(value, currency)) {
    return { value: raw, reason: 'amount too large', message: tooLarge(raw, currency) };
  }
  return value;
}

/**
 * What a refund cell takes off the value, between 0 and the value: a deduction never adds to the value nor
 * flips its sign (issue 21), so a negative refund is none. A `remaining` cell is what is left after refunds:
 * the refund is the value less it (none when 0, as Etsy writes for an order never adjusted).
 */
export function refundOf(
  cell: number,
  deduction: DeductionSource | undefined,
  value: number,
  currency: string,
): number {
  if (!deduction?.remaining) return Math.max(0, cell);
  if (cell === 0) return 0;
  const refund = toMinorUnits(value, currency) - toMinorUnits(Math.max(0, cell), currency);
  return fromMinorUnits(Math.min(Math.max(0, refund), toMinorUnits(value, currency)), currency);
}
