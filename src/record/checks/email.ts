// conversionEmail: lowercased, a plain address the CRM can match (not a SHA-256 hash), shown masked.
import { quote } from '../../quote.js';
import { maskEmail } from '../../report/rejection.js';
import type { Candidate } from './candidate.js';
import type { FileRules } from './file-rules.js';
import { addIssue, type RowDraft } from './row-draft.js';
import { controlCharacter, textOf } from './text.js';

const EMAIL = /^[^\s@"<>(),;:]+@[^\s@"<>(),;:]+\.[^\s@"<>(),;:]+$/;
const SHA256_HEX = /^[0-9a-f]{64}$/i;

export function checkEmail(draft: RowDraft, c: Candidate, rules: FileRules): void {
  const field = rules.fields.conversionEmail;
  const email = textOf(textOf(c.conversionEmail, field.spec.transform), 'lowercase');
  draft.email = email;
  if (email === undefined) return;
  const control = controlCharacter(field, email, true);
  if (control !== undefined) addIssue(draft, field.column, maskEmail(email), 'control character', control);
  else if (SHA256_HEX.test(email)) {
    const message =
      'the e-mail is a SHA-256 hash, which the CRM cannot match: map a plain e-mail column or a serviceId';
    addIssue(draft, field.column, `${email.slice(0, 8)}…`, 'hashed e-mail', message);
  } else if (!EMAIL.test(email) || email.length > 254) {
    const masked = maskEmail(email);
    addIssue(draft, field.column, masked, 'invalid e-mail', `${quote(masked)} is not an e-mail address`);
  }
}
