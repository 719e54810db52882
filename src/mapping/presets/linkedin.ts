// Preset for LinkedIn's offline conversions CSV template (Campaign Manager manual upload).
import type { Preset } from './types.js';

export const linkedin: Preset = {
  name: 'linkedin',
  title: 'LinkedIn offline conversions CSV template',
  description:
    'The Campaign Manager conversion upload template: email (plain or SHA-256), firstname, lastname, ' +
    'employeecompany, title, country, timestamp (epoch milliseconds or a date), eventtype, amount, currency.',
  policy: 'every row: amount in currency',
  seen: 'documented',
  format: 'csv',
  detect: {
    all: ['timestamp', 'eventtype', 'amount', 'currency'],
    any: ['email', 'firstname', 'lastname'],
  },
  mapping: {
    preset: 'linkedin',
    fields: {
      conversionName: 'eventtype',
      // LinkedIn writes epoch MILLISECONDS (13 digits), not seconds as Meta/TikTok: 'epoch' tells them apart by
      // length. The other forms are dates without time.
      conversionDatetime: {
        column: 'timestamp',
        format: ['epoch', 'MMMM d, yyyy', 'd MMMM yyyy', 'MM/dd/yyyy', 'MMM d, yyyy'],
      },
      conversionValue: 'amount',
      conversionCurrency: { column: 'currency', transform: 'uppercase' },
      conversionEmail: 'email',
    },
  },
  notes: [
    'Records are linked by e-mail. The template allows SHA-256-hashed addresses: those rows are rejected ' +
      '(a hash is not an address); rows with only first/last name are rejected too.',
    'Add `mapping.fields.serviceId: <column>` if you keep the CRM visitor id in the file.',
    'timestamp is epoch milliseconds (an exact instant) or a date without time: for dates set `timezone` ' +
      '(each date is sent as local midnight).',
    'The template has no order id, so re-imports cannot be recognised as duplicates by the CRM.',
  ],
};
