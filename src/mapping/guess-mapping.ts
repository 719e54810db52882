// For `revimport init` on an export no preset knows: guess which column is which field from its name.
// A guess is only a proposal: init prints the records it would send so the user can see it is right.
import type { RecordField } from '../record/fields.js';

/** Patterns tried in order against the normalized (lower-case, no spaces) header; the first column matching wins. */
const patterns: ReadonlyArray<readonly [RecordField, RegExp]> = [
  ['conversionEmail', /e-?mail/],
  ['conversionTimezone', /^(time)?zone$|timezone|^tz$/],
  ['conversionCurrency', /currency|währung|waehrung|devise|^cur$/],
  [
    'conversionDatetime',
    /(conversion|event|order|created|paid|purchase|transaction)?(date)?time|datetime|timestamp|^date$|createdat|paidat|^day$|zeit|datum|fecha|^heure/,
  ],
  ['conversionValue', /value|amount|revenue|total|price|umsatz|betrag|montant/],
  ['serviceId', /visitor|besucher|serviceid|trackingid|clientid|^vid$|cookie/],
  [
    'conversionId',
    /orderid|order(number|no|ref)|transactionid|^id$|conversionid|^order$|^name$|bestell|commande|pedido/,
  ],
  ['conversionName', /conversionname|eventname|event_?type|^event$|goal|conversionaction|^aktion$|^action$/],
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

/** Datetime formats init tries on a sample column, most specific first; `iso`/`epoch` need no `format`. */
export const candidateDatetimeFormats = [
  'iso',
  'epoch',
  'dd.MM.yyyy HH:mm:ss',
  'dd.MM.yyyy HH:mm',
  'dd.MM.yyyy',
  'MM/dd/yyyy h:mm:ss a',
  'MM/dd/yyyy h:mm a',
  'MM/dd/yyyy HH:mm:ss',
  'MM/dd/yyyy HH:mm',
  'dd/MM/yyyy HH:mm:ss',
  'dd/MM/yyyy HH:mm',
  'MM/dd/yyyy',
  'dd/MM/yyyy',
  'MMM d, yyyy h:mm:ss a',
  'yyyy/MM/dd HH:mm:ss',
] as const;

/**
 * The first candidate format that reads every sample value. `accepts(format, value)` says whether a value
 * has that format's shape (a DST-gap time still has the shape). Day-first vs month-first is settled by
 * the sample: `13/02/2024` rules out month-first.
 */
export function guessDatetimeFormat(
  values: readonly string[],
  accepts: (format: string, value: string) => boolean,
): string | undefined {
  const sample = values.filter((v) => v.trim() !== '');
  if (sample.length === 0) return undefined;
  return candidateDatetimeFormats.find((format) => sample.every((value) => accepts(format, value)));
}

/** `,` when the sample writes decimals with a comma and never with a point; else undefined (inferred). */
export function guessDecimal(values: readonly string[]): ',' | '.' | undefined {
  const comma = values.some((v) => /\d,\d{1,2}$/.test(v.trim()));
  const point = values.some((v) => /\d\.\d{1,2}$/.test(v.trim()));
  if (comma && !point) return ',';
  if (point && !comma) return '.';
  return undefined;
}
