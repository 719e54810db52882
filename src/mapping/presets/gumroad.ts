// Preset for the Gumroad sales export (Analytics / Sales > Export: Sales_<...>.csv).
import type { Preset } from './types.js';

export const gumroad: Preset = {
  name: 'gumroad',
  title: 'Gumroad sales CSV (Sales > Export)',
  description:
    'The Gumroad sales export (antiwork/gumroad PurchaseExportService): one row per purchase, `Purchase Time (UTC ' +
    'timezone)`, money in USD in the `($)` columns (Ruby floats: 98.9), 0/1 flags Refunded? / Fully Refunded? / ' +
    'Disputed?, Partial Refund ($), custom-field columns at the end and a final Totals row. Older exports (2021) name ' +
    'the fee `Gumroad Fee ($)` and have no Tip ($) or Free trial purchase? column.',
  policy:
    'every purchase not fully refunded, disputed, a pre-order authorisation or a free trial: Sale Price ($) less Partial Refund ($), in USD',
  seen: 'real',
  format: 'csv',
  // Columns both real layouts have (2021: bitfield/sales testdata/gumroad.csv; 2025: hello-powerui/powerui
  // salescustomers/gumroad.csv). Not `Fees ($)`, `Tip ($)` or `Free trial purchase?`: the 2021 one lacks them.
  detect: {
    all: ['Purchase ID', 'Purchase Time (UTC timezone)', 'Sale Price ($)'],
    any: ['Fully Refunded?', 'Partial Refund ($)', 'Purchase Email'],
  },
  mapping: {
    preset: 'gumroad',
    fields: {
      conversionName: { value: 'Purchase' },
      conversionDatetime: {
        column: 'Purchase Time (UTC timezone)',
        format: ['yyyy-MM-dd HH:mm:ss', 'iso'],
        timezone: 'UTC',
      },
      // The `($)` columns are USD whatever the buyer paid in (Buyer Currency / Buyer Total, newer exports).
      conversionValue: { column: 'Sale Price ($)', decimal: '.' },
      conversionCurrency: { value: 'USD' },
      conversionId: 'Purchase ID',
      conversionEmail: { column: ['Purchase Email', 'Buyer Email'] },
    },
    // Gumroad exports only successful, pre-order-authorised and not-charged (free trial) purchases.
    // A full refund, a dispute (chargeback), a pre-order card authorisation and a free trial start are no
    // money received; a partial refund comes off (refunds: net).
    skip: [
      { column: 'Fully Refunded?', in: ['1', 'true'] },
      { column: 'Disputed?', in: ['1', 'true'] },
      { column: 'Pre-order authorization?', in: ['1', 'true'] },
      { column: 'Free trial purchase?', in: ['1', 'true'] },
    ],
    refunded: 'Partial Refund ($)',
  },
  notes: [
    'Records are linked by Purchase Email (else Buyer Email). If a custom field holds the CRM visitor id, add ' +
      '`mapping.fields.serviceId: <that column>`.',
    'Money is USD (the `($)` columns), whatever currency the buyer paid in. Sale Price ($) is what the buyer paid ' +
      'after discounts, Gumroad fees included (Net Total ($) is what the seller keeps).',
    'Skipped: fully refunded purchases, disputed ones (a dispute that was won is skipped too), pre-order ' +
      'authorisations and free-trial starts. Partial Refund ($) comes off under refunds: net. The Totals row is not data.',
    'Purchase Time (UTC timezone) is UTC: records carry zone UTC unless you set `timezone`.',
    'A $0 purchase (a free product) is skipped: nothing was captured.',
  ],
};
