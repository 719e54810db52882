// Preset for Google Ads report downloads (CSV or "CSV for Excel") segmented by conversion action.
import type { Preset } from './types.js';

export const googleAdsReport: Preset = {
  name: 'google-ads-report',
  title: 'Google Ads report download with conversion values (aggregated rows)',
  description:
    'A report downloaded from the Google Ads UI (Campaigns or a custom report, segmented by Day and Conversion ' +
    'action) as CSV or "CSV for Excel" (UTF-16LE, tab-separated): title and date-range lines, the header, ' +
    'data rows, then Total rows.',
  policy: 'every row: its Conv. value (aggregates; rows need a linking column you add)',
  seen: 'real',
  format: 'csv',
  detect: {
    all: ['Currency code'],
    any: ['Conv. value', 'Conversion value', 'All conv. value'],
  },
  mapping: {
    preset: 'google-ads-report',
    fields: {
      conversionName: { column: ['Conversion action', 'Conversion name'] },
      // Day-segmented reports have one date per row; week/month segments are not conversion times.
      conversionDatetime: { column: ['Day', 'Date'], format: ['yyyy-MM-dd', 'MMM d, yyyy', 'M/d/yyyy'] },
      // Decimal left to inference: the account's locale decides separators (`1,249.00` or `1.249,00`).
      conversionValue: { column: ['Conv. value', 'Conversion value', 'All conv. value'] },
      conversionCurrency: { column: 'Currency code', transform: 'uppercase' },
    },
  },
  notes: [
    'Report rows are aggregates (one row per day, campaign and conversion action), not single conversions: ' +
      'they carry no visitor id, no e-mail and no order id. Importing them is only meaningful if you add a ' +
      'column that links each row to one visitor: `mapping.fields.serviceId: <column>` or ' +
      '`mapping.fields.conversionEmail: <column>`. Without it every row is rejected.',
    'Without an order id a re-downloaded report cannot be recognised as a duplicate by the CRM.',
    "Days have no time and no zone: set `timezone` to the Google Ads account's time zone (IANA); each day " +
      'is sent as local midnight.',
    'Values are display-formatted; a value whose separator is ambiguous (`1,234`) is rejected unless you set ' +
      "`mapping.fields.conversionValue.decimal` to your account locale's decimal separator.",
  ],
};
