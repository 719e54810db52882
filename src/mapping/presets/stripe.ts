// Preset for the Stripe Dashboard payments export (Payments > Export).
import type { Preset } from './types.js';

export const stripe: Preset = {
  name: 'stripe',
  title: 'Stripe payments export CSV (Dashboard > Payments > Export)',
  description:
    'The Dashboard payments export: id, Created date (UTC), Amount (major units), lower-case Currency, Status, ' +
    'Customer Email and one `<key> (metadata)` column per metadata key.',
  format: 'csv',
  detect: {
    all: ['id', 'Amount', 'Currency'],
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
    // A failed or canceled charge is no revenue: such rows are skipped (counted, not reported as errors).
    skip: [{ column: 'Status', in: ['Failed', 'Canceled'] }],
  },
  notes: [
    'Records are linked by Customer Email. If checkout stores the CRM visitor id in metadata, add ' +
      '`mapping.fields.serviceId: "<key> (metadata)"`.',
    'Times are read as UTC. If you exported in another zone (the column is then named after it), override ' +
      '`mapping.fields.conversionDatetime` with that column and its `timezone`.',
    'Failed and canceled payments are skipped (Status). Refunded ones are imported with their Amount (not net ' +
      'of refunds): leave them out of the export, or add `mapping.skip: [{column: Status, in: [Failed, Canceled, Refunded]}]`.',
  ],
};
