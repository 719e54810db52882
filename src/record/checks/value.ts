// The money checks of a row: the value (amount, scale, minor units, sign), its currency (the column's, or
// the one written next to the amount), and whether the amount is exact in the currency's minor units.
import { quote } from '../../quote.js';
import { normalizeCurrency } from '../currency.js';
import { fromMinorUnits, isExactAmount, parseAmount } from '../money.js';
import type { Candidate } from './candidate.js';
import type { FileRules } from './file-rules.js';
import { addIssue, type RowDraft } from './row-draft.js';
import { emptyWhy, textOf, tooLarge } from './text.js';

/** conversionValue: a number or an amount text, whole in minor units when so written, negative only if allowed. */
export function checkValue(draft: RowDraft, c: Candidate, rules: FileRules): void {
  const field = rules.fields.conversionValue;
  const raw = c.conversionValue;
  if (raw === undefined) {
    addIssue(draft, field.column, '', 'missing value', `conversionValue is required but ${emptyWhy(field)}`);
    return;
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    addIssue(draft, field.column, raw, 'invalid number', 'the value is not a number');
    return;
  }
  const amount = parseAmount(raw, rules.amountOptions);
  if (!amount.ok) {
    addIssue(draft, field.column, raw, amount.reason, amount.message);
    return;
  }
  const value = rules.valueScale === undefined ? amount.value : amount.value * rules.valueScale;
  draft.amountCurrency = amount.currency;
  if (rules.minorUnit && !Number.isInteger(value)) {
    const message = `${raw} is not a whole number of minor units (the field has unit: minor)`;
    addIssue(draft, field.column, raw, 'invalid number', message);
  } else if (value < 0 && !rules.allowNegative) {
    const message = `negative value ${raw}: refunds are not imported unless allowNegative is set`;
    addIssue(draft, field.column, raw, 'negative value', message);
  } else draft.value = value;
}

/** conversionCurrency: the column's ISO code, else the amount's own; both written must agree. */
export function checkCurrency(draft: RowDraft, c: Candidate, rules: FileRules): void {
  const field = rules.fields.conversionCurrency;
  const raw = textOf(c.conversionCurrency, field.spec.transform);
  const amountCurrency = draft.amountCurrency;
  if (raw === undefined) {
    draft.currency = amountCurrency;
    if (amountCurrency === undefined) {
      addIssue(
        draft,
        field.column,
        '',
        'missing currency',
        'no currency: map a currency column or set `currency`',
      );
    }
    return;
  }
  const currency = normalizeCurrency(raw);
  draft.currency = currency;
  if (currency === undefined) {
    addIssue(draft, field.column, raw, 'invalid currency', `${quote(raw)} is not an ISO 4217 currency code`);
  } else if (amountCurrency !== undefined && amountCurrency !== currency) {
    const message = `the value says ${amountCurrency} but the currency column says ${currency}`;
    addIssue(draft, rules.fields.conversionValue.column, c.conversionValue, 'currency mismatch', message);
  }
}

/** The value in major units, exact: past what a double holds in minor units it would be sent inexact, or as null (issue 24). */
export function checkAmountFits(draft: RowDraft, c: Candidate, rules: FileRules): void {
  const currency = draft.currency;
  if (draft.value === undefined || currency === undefined) return;
  if (rules.minorUnit) draft.value = fromMinorUnits(draft.value, currency);
  if (!isExactAmount(draft.value, currency)) {
    const raw = c.conversionValue;
    addIssue(draft, rules.fields.conversionValue.column, raw, 'amount too large', tooLarge(raw, currency));
    draft.value = undefined;
  }
}
