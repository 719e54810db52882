// Preset for the Stripe Dashboard payments export (Payments > Export).
import type { Preset } from './types.js';

export const stripe: Preset = {
  name: 'stripe',
  title: 'Stripe payments export CSV (Dashboard > Payments > Export)',
  description:
    'The Dashboard payments export: id, Created date (UTC), Amount (major units), lower-case Currency, Status, ' +
    'Customer Email and one `<key> (metadata)` column per metadata key.',
  policy: 'captured ch_/py_ charges with Status Paid or (partially) Refunded: Amount less Amount Refunded',
  seen: 'real',
  format: 'csv',
  // No `id` required: the older `payments.csv` (`;`, no id, no Amount Refunded) is the same export.
  // The zone-named date column is what makes it Stripe's.
  detect: {
    all: ['Amount', 'Currency'],
    any: ['Created date (UTC)', 'Created (UTC)'],
  },
  mapping: {
    preset: 'stripe',
    fields: {
      conversionName: 'Description',
      // The export is written in the zone picked at export time; the column name says UTC by default.
      conversionDatetime: {
        column: ['Created date (UTC)', 'Created (UTC)'],
        format: ['yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd HH:mm'],
        timezone: 'UTC',
      },
      conversionValue: { column: 'Amount', decimal: '.' },
      conversionCurrency: { column: 'Currency', transform: 'uppercase' },
      conversionId: 'id',
      conversionEmail: 'Customer Email',
    },
    // Only captured charges and payments: a `ch_`/`py_` id (PaymentIntent and checkout rows, with a `pi_`
    // id or none, duplicate the charge or never paid), a paid status, Captured true. Failed, canceled,
    // pending and `requires_*` rows are skipped (counted, not errors). Amount Refunded comes off (net).
    keep: [
      { column: 'Status', in: ['Paid', 'Refunded', 'Partially refunded', 'Succeeded'] },
      { column: 'id', matches: '^(ch|py)_' },
      { column: 'Captured', in: ['true'] },
    ],
    // The older payments.csv layout has no Amount Refunded: a Refunded or Partially refunded payment there
    // is invalid (refund amount unknown) rather than sent at its full Amount.
    refunded: {
      column: 'Amount Refunded',
      ifAbsent: { column: 'Status', in: ['Refunded', 'Partially refunded'] },
    },
  },
  notes: [
    'Records are linked by Customer Email. If checkout stores the CRM visitor id in metadata, add ' +
      '`mapping.fields.serviceId: "<key> (metadata)"`.',
    'Times are read as UTC. If you exported in another zone (the column is then named after it), override ' +
      '`mapping.fields.conversionDatetime` with that column and its `timezone`.',
    'Only captured charges count: a ch_/py_ id, Status Paid/Refunded, Captured true. Failed, canceled, pending ' +
      '(ACH) and requires_* rows, and id-less PaymentIntent rows, are skipped. Amount Refunded comes off the Amount ' +
      '(refunds: net); a payment refunded in full is skipped.',
    'The older `payments.csv` layout (`;`, no `id`, no `Amount Refunded`, no `Customer Email`) is read too: every ' +
      'captured Paid row counts at its Amount, without conversionId; it has no e-mail, so map ' +
      '`mapping.fields.serviceId` to a metadata column or use mapping.lookup.',
  ],
};
