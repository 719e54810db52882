// The id and text fields (serviceId, conversionId, conversionName): ids that lost digits before they reached
// us, control characters, and the rule that a record links to a visitor by serviceId or e-mail.

import { quote } from '../../quote.js';
import type { FieldSource } from '../field-source.js';
import type { Candidate } from './candidate.js';
import type { FileRules } from './file-rules.js';
import { addIssue, pushIssue, type RowDraft } from './row-draft.js';
import { controlCharacter, linkLabel, textOf } from './text.js';

/** A number in a spreadsheet's scientific notation (`1.23457E+21`, `1,23456765432346E+021`): never an exact id. */
const SPREADSHEET_NUMBER = /^\d(?:[.,]\d+)?E\+\d+$/i;

/** serviceId and conversionId as written must be exact: two ids that lost digits could merge into one. */
export function checkExactIds(draft: RowDraft, c: Candidate, rules: FileRules): void {
  checkExactId(draft, rules.fields.serviceId, c.serviceId);
  checkExactId(draft, rules.fields.conversionId, c.conversionId);
}

function checkExactId(draft: RowDraft, field: FieldSource, raw: unknown): void {
  // A JSON number id above 2^53 has already lost digits in JSON.parse.
  if (typeof raw === 'number' && Number.isInteger(raw) && !Number.isSafeInteger(raw)) {
    const message = `the id ${raw} is a JSON number too large to be exact: write it as a string`;
    addIssue(draft, field.column, raw, 'id not exact', message);
  }
  // A spreadsheet showed a long numeric id in scientific notation and saved it so (`1,23456765432346E+021`):
  // its last digits are gone, and ids that differed are now the same.
  if (typeof raw === 'string' && SPREADSHEET_NUMBER.test(raw.trim())) {
    const message =
      `the id ${quote(raw.trim())} was saved by a spreadsheet in scientific notation: its digits are lost ` +
      '(export the file again and do not open and save it in a spreadsheet)';
    addIssue(draft, field.column, raw.trim(), 'id not exact', message);
  }
}

/** serviceId, conversionId and conversionName as the record keeps them; none may hold a control character. */
export function checkTexts(draft: RowDraft, c: Candidate, rules: FileRules): void {
  const f = rules.fields;
  draft.serviceId = checkedText(draft, f.serviceId, c.serviceId);
  draft.conversionId = checkedText(draft, f.conversionId, c.conversionId);
  draft.conversionName = checkedText(draft, f.conversionName, c.conversionName);
}

function checkedText(draft: RowDraft, field: FieldSource, raw: unknown): string | undefined {
  const text = textOf(raw, field.spec.transform);
  const control = text === undefined ? undefined : controlCharacter(field, text);
  if (control !== undefined) addIssue(draft, field.column, text, 'control character', control);
  return text;
}

/** A record needs a serviceId or an e-mail to link it to a visitor. */
export function checkVisitorLink(draft: RowDraft, _c: Candidate, rules: FileRules): void {
  if (draft.serviceId !== undefined || draft.email !== undefined) return;
  const f = rules.fields;
  pushIssue(draft, {
    column: `${linkLabel(f.serviceId)} / ${linkLabel(f.conversionEmail)}`,
    value: '',
    reason: 'missing visitor id',
    message: 'a record needs a serviceId or a conversionEmail to link it to a visitor',
  });
}
