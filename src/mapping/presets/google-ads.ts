// Preset for Google Ads' offline click-conversion upload template (legacy file import).
import type { Preset } from './types.js';

/**
 * Every Conversion Time form Google documents for the template (answer 7014069) plus Data Manager's extra
 * forms; the parser accepts a trailing `+hhmm` offset or ` <IANA id>` on each of them.
 */
export const googleAdsTimeFormats = [
  'MM/dd/yyyy h:mm:ss a',
  'M/d/yyyy h:mm:ss a',
  'MMM d, yyyy h:mm:ss a',
  'MMM d,yyyy h:mm:ss a',
  'MM/dd/yyyy HH:mm:ss',
  'yyyy-MM-dd HH:mm:ss',
  "yyyy-MM-dd'T'HH:mm:ss",
  "MM/dd/yyyy'T'h:mm:ss a",
  'yyyy-MM-dd h:mm:ss a',
  'MMM d, yyyy HH:mm:ss',
  'iso',
];

export const googleAds: Preset = {
  name: 'google-ads',
  title: 'Google Ads offline click-conversion upload template (CSV)',
  description:
    'The "Conversions from clicks" template from Google Ads (Goals > Conversions > Uploads > View templates): ' +
    'instruction block, a Parameters:TimeZone= row, then Google Click ID (or GBRAID/WBRAID), Conversion Name, ' +
    'Conversion Time, Conversion Value, Conversion Currency and optional Order ID; or the enhanced-conversions-for-' +
    'leads variant with Email / Phone Number instead of a click id (seen in a real upload file).',
  policy: 'every row: Conversion Value in Conversion Currency, at Conversion Time in the Parameters zone',
  seen: 'real',
  format: 'csv',
  detect: {
    all: ['Conversion Name', 'Conversion Time', 'Conversion Value'],
    any: ['Google Click ID', 'GCLID', 'GBRAID', 'WBRAID'],
    // Issue 21: a real upload file of the enhanced-conversions-for-leads template (Email, Phone Number, no click
    // id) matched no preset. Ranked lower: a Microsoft upload with an Email column added stays microsoft-ads.
    fallback: ['Email', 'Phone Number'],
  },
  mapping: {
    preset: 'google-ads',
    fields: {
      conversionName: 'Conversion Name',
      conversionDatetime: { column: 'Conversion Time', format: googleAdsTimeFormats },
      conversionValue: { column: 'Conversion Value', decimal: '.' },
      conversionCurrency: { column: 'Conversion Currency', transform: 'uppercase' },
      conversionId: 'Order ID',
      // The leads variant's e-mail (plain, or SHA-256 which the validator rejects per row as `hashed e-mail`).
      conversionEmail: 'Email',
    },
  },
  notes: [
    'The Google Click ID (GCLID/GBRAID/WBRAID) identifies an ad click, not a CRM visitor: it is not sent.',
    'The leads variant (Email, Phone Number instead of a click id) is linked by its Email column when it holds a ' +
      'plain address; SHA-256-hashed e-mails are rejected per row (a hash is not an address).',
    'Link records by adding a column to your copy of the sheet: `mapping.fields.serviceId: <column>` for the ' +
      "CRM tracking script's visitor id, or `mapping.fields.conversionEmail: <column>`.",
    'Time zone: read from the `Parameters:TimeZone=` row, overridden by a zone written after a Conversion Time. ' +
      'If the file has neither, set `timezone` (IANA) in the config.',
    'A fixed offset in the Parameters row (`-0500`) is applied all year, as Google does: summer times are one hour off ' +
      'for zones with daylight saving. Prefer an IANA id.',
    'Conversion Currency may be blank in the template (Google then uses the account currency): set `currency` ' +
      'in the config for such files. Order ID becomes conversionId when present.',
  ],
};
