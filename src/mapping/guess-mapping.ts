// For `revimport init` on an export no preset knows: guess which column is which field from its name.
// A guess is only a proposal: init prints the records it would send so the user can see it is right.
import type { RecordField } from '../record/fields.js';

/** Patterns tried in order against the normalized (lower-case, no spaces) header; the first column matching wins. */
const patterns: ReadonlyArray<readonly [RecordField, RegExp]> = [
  ['conversionEmail', /e-?mail/],
  ['conversionTimezone', /^(time)?zone$|timezone|^tz$/],
  ['conversionCurrency', /currency|währung|waehrung|devise|^cur$/],
  ['conversionDatetime', /(conversion|event|order|created|paid|purchase|transaction)?(date)?time|datetime|timestamp|^date$|createdat|paidat|^day$/],
  ['conversionValue', /value|amount|revenue|total|price|umsatz|betrag|montant/],
  ['serviceId', /visitor|serviceid|trackingid|clientid|^vid$|cookie/],
  ['conversionId', /orderid|order(number|no|ref)|transactionid|^id$|conversionid|^order$|^name$/],
  ['conversionName', /conversionname|eventname|event_?type|^event$|goal|conversionaction/],
];

export function guessFields(header: readonly string[]): Partial<Record<RecordField, string>> {
  const used = new Set<number>();
  const fields: Partial<Record<RecordField, string>> = {};
  const normalized = header.map((h) => h.replace(/\s+/g, '').toLowerCase());
  for (const [field, pattern] of patterns) {
    const index = normalized.findIndex((name, i) => !used.has(i) && name !== '' && pattern.test(name));
    if (index >= 0) {
      used.add(index);
      fields[field] = header[index]!;
    }
  }
  return fields;
}
