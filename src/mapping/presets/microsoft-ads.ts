// Preset for Microsoft Advertising's offline conversion upload template.
import type { Preset } from './types.js';

export const microsoftAds: Preset = {
  name: 'microsoft-ads',
  title: 'Microsoft Advertising offline conversion upload template (CSV)',
  description:
    'The offline conversions template from Microsoft Advertising (Conversions > Offline conversions): ' +
    'instruction block, `Parameters:TimeZone=-0500;` (a fixed GMT offset), then Microsoft Click ID, ' +
    'Conversion Name, Conversion Time, Conversion Value, Conversion Currency. Uploads add Hashed Email Address, ' +
    'Hashed Phone Number; the upload results download adds Status.',
  policy: 'every row with a Conversion Value: that value in Conversion Currency',
  seen: 'real',
  format: 'csv',
  detect: {
    all: ['Conversion Name', 'Conversion Time', 'Conversion Value'],
    any: ['Microsoft Click ID'],
  },
  mapping: {
    preset: 'microsoft-ads',
    fields: {
      conversionName: 'Conversion Name',
      conversionDatetime: {
        column: 'Conversion Time',
        format: ['yyyy-MM-dd HH:mm:ss', 'M/d/yyyy h:mm:ss a', 'M/d/yyyy HH:mm:ss', 'iso'],
      },
      conversionValue: { column: 'Conversion Value', decimal: '.' },
      conversionCurrency: {
        column: ['Conversion Currency', 'Conversion Currency Code'],
        transform: 'uppercase',
      },
    },
    // A goal without a value (a lead, a booking) is written with Conversion Value and Currency empty: no revenue
    // in the file, not an error (wvuhskr/servicetitan-msads-oci tests/fixtures/june_result.csv: 26 of 29 rows).
    skip: [{ column: 'Conversion Value', in: [''] }],
  },
  notes: [
    'The Microsoft Click ID (MSCLKID) identifies an ad click, not a CRM visitor: it is not sent.',
    'Hashed Email Address / Hashed Phone Number columns are SHA-256 hashes and are not sent.',
    'Link records by adding a column to your copy: `mapping.fields.serviceId: <column>` (CRM visitor id) or ' +
      '`mapping.fields.conversionEmail: <column>`.',
    'Times are read at the fixed GMT offset of the `Parameters:TimeZone=` row, which does not follow daylight ' +
      "saving, exactly as Microsoft applies it. Set `timezone` (America/New_York) to send that zone's name; " +
      "without it records carry the offset's zone (`Etc/GMT+5` for `-0500`).",
    'A row without a Conversion Value (a goal counted without revenue: a lead, a booking) is skipped.',
    'The template has no order id, so re-imports cannot be recognised as duplicates by the CRM.',
  ],
};
