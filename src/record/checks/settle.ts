// The end of the row path: a row whose checks found no issue becomes the record (deductions taken off,
// the value rounded to minor units), or is skipped when no money is left; else its issues.
import type { Issue } from '../../report/rejection.js';
import type { ConversionRecord } from '../fields.js';
import { fromMinorUnits, roundToMinor } from '../money.js';
import { type Candidate, deductionCells } from './candidate.js';
import { minorUnitsLeft } from './deductions.js';
import type { FileRules } from './file-rules.js';
import type { RowDraft } from './row-draft.js';

export type ValidateResult =
  | { ok: true; record: ConversionRecord }
  | { ok: false; issues: Issue[] }
  /** Not money received: nothing left after refunds, or nothing captured. Not an error. */
  | { ok: false; skipped: string };

export function settleRow(draft: RowDraft, c: Candidate, rules: FileRules): ValidateResult {
  let { value } = draft;
  const { currency, datetime, timezone } = draft;
  if (draft.issues !== undefined || value === undefined || currency === undefined || !datetime || !timezone) {
    return { ok: false, issues: draft.issues ?? [] };
  }
  if (c[deductionCells]) {
    const left = minorUnitsLeft(value, currency, draft);
    if (left <= 0 && !rules.summing) {
      return { ok: false, skipped: draft.refunded > 0 ? 'refunded in full' : 'nothing captured' };
    }
    value = fromMinorUnits(left, currency);
  }
  rules.warnings.recordKept(value);
  // One literal of one shape: fields added one by one grew a property store per record. An absent field is
  // undefined, which the record's JSON (JSON.stringify's bytes) and contentHash treat as a missing one.
  const record: ConversionRecord = {
    conversionCurrency: currency,
    conversionValue: roundToMinor(value, currency),
    conversionDatetime: datetime,
    conversionTimezone: timezone,
    serviceId: draft.serviceId,
    conversionId: draft.conversionId,
    conversionName: draft.conversionName,
    conversionEmail: draft.email,
  };
  return { ok: true, record };
}
