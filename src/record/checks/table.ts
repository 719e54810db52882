// The table of per-field checks a row goes through, built once per file. Order matters: the value's
// exactness needs its currency, the deductions need both, the instant needs the row's zone, and the
// visitor link needs the e-mail and serviceId read.
import type { MappingSource } from '../field-source.js';
import { checkDeductions } from './deductions.js';
import { checkEmail } from './email.js';
import { checkExactIds, checkTexts, checkVisitorLink } from './ids.js';
import { checkDatetime } from './instant.js';
import type { RowCheck } from './row-draft.js';
import { checkRowZone } from './row-zone.js';
import { checkAmountFits, checkCurrency, checkValue } from './value.js';

export function rowChecksFor(bound: MappingSource): readonly RowCheck[] {
  const checks: RowCheck[] = [checkValue, checkCurrency, checkAmountFits];
  // Only a mapping with refunded/unpaid columns reads deduction cells with the candidate.
  if (bound.refunded !== undefined || bound.unpaid !== undefined) checks.push(checkDeductions);
  checks.push(checkRowZone, checkDatetime, checkEmail, checkExactIds, checkTexts, checkVisitorLink);
  return checks;
}
