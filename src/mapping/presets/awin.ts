// Preset for the AWIN advertiser transactions download (Reports > Performance > Transactions > Export as CSV).
import type { Preset } from './types.js';

export const awin: Preset = {
  name: 'awin',
  title: 'AWIN transactions report CSV (advertiser: Reports > Transactions > Export as CSV)',
  description:
    'The transactions download with snake_case fields: id, publisher_id, sale_amount, commission, date, ' +
    'commission_status (0 pending, 1 approved, 2 declined), validation_date, extra (your order reference), type. ' +
    'No customer e-mail: link it to your orders export with mapping.lookup. The real download has 44 columns, every ' +
    'cell quoted, CRLF, dates `yyyy-MM-dd HH:mm:ss`, and extra holding the shop order name (`#13493`).',
  policy:
    'approved and pending sales (never declined or deleted): sale_amount in the programme currency, dated date',
  seen: 'real',
  format: 'csv',
  // The documented field names are the real download's (Steproac/Monfrere-Tactical-Audit
  // `AWIN transactions_103309_2024-01-01_2026-03-06.csv`: 1,097 sales, 44 columns).
  detect: {
    all: ['id', 'sale_amount', 'commission_status'],
    any: ['validation_date', 'publisher_id', 'commission', 'extra'],
  },
  mapping: {
    preset: 'awin',
    fields: {
      conversionName: { value: 'Affiliate sale' },
      // The download writes `yyyy-MM-dd HH:mm:ss` (seen); the other forms are the API's and other locales'.
      // The zone is the report's (UTC by default).
      conversionDatetime: {
        column: 'date',
        format: ['yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd HH:mm', 'iso', 'dd/MM/yyyy HH:mm:ss', 'dd/MM/yyyy HH:mm'],
      },
      // The order value your tag reported, in the programme (advertiser) currency; never `commission`
      // (the publisher's earning) nor a shopper-currency amount.
      conversionValue: { column: 'sale_amount', decimal: '.' },
      conversionId: 'id',
    },
    // Pending (0) counts with approved (1): money the shopper paid, not yet validated by you; declined (2)
    // and deleted never count. Leads and bonuses are not sales.
    keep: [
      { column: 'commission_status', in: ['0', '1', 'pending', 'approved'] },
      { column: 'type', in: ['sale'] },
      { column: 'sale_amount', matches: '[1-9]' },
    ],
  },
  notes: [
    'No customer e-mail or visitor id in AWIN data: the run stops until you supply one. Take the e-mail from your ' +
      'shop\'s orders export by the order reference: `mapping.lookup: { file: "orders_export.csv", key: "extra", ' +
      'match: "Name" }` and `mapping.fields.conversionEmail: { lookup: "Email" }`; or map ' +
      '`mapping.fields.serviceId` to a click reference holding the CRM visitor id.',
    'Approved (1) and pending (0) sales count; declined (2) and deleted are skipped, and so are leads and bonuses ' +
      '(`type`). A pending sale declined later is not taken back by a later run: import validated periods if that matters.',
    'The download has no currency column: set `currency` to the programme currency. Set `timezone` to the zone the ' +
      'report was run in (UTC by default).',
    'If you also import the same orders from your shop, both carry the sale: map `conversionId` to `extra` so both ' +
      'use your order number, or import only one of them.',
  ],
};
