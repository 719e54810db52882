// Preset for the Shopify admin orders export (one row per line item).
import type { Preset } from './types.js';

export const shopify: Preset = {
  name: 'shopify',
  title: 'Shopify orders export CSV (Orders > Export)',
  description:
    'The Shopify admin orders export: one row per line item, order-level columns (Financial Status, Paid at, ' +
    'Currency, Total...) filled on the first row of each order only; times `yyyy-MM-dd HH:mm:ss +hhmm`.',
  format: 'csv',
  detect: {
    all: ['Name', 'Email', 'Financial Status', 'Paid at', 'Currency', 'Total'],
    any: ['Lineitem name', 'Lineitem quantity', 'Created at'],
  },
  mapping: {
    preset: 'shopify',
    fields: {
      conversionName: { value: 'Purchase' },
      // Paid at, not Created at: an unpaid order (empty Paid at) is not revenue and is rejected.
      conversionDatetime: { column: 'Paid at', format: ['yyyy-MM-dd HH:mm:ss', 'iso'] },
      conversionValue: { column: 'Total', decimal: '.' },
      conversionCurrency: { column: 'Currency', transform: 'uppercase' },
      conversionId: 'Name',
      conversionEmail: 'Email',
    },
    foldBy: 'Name',
  },
  // The abandoned-checkouts export has the orders header, but every Name is `#` + the checkout's Id and
  // no checkout has a Financial Status: none of it is revenue.
  refuse: (cell) => {
    const name = cell('Name');
    const id = cell('Id');
    if (cell('Financial Status') || cell('Paid at') || !id || name !== `#${id}`) return undefined;
    return (
      `it is a Shopify abandoned-checkouts export (Name ${name} is "#" + the checkout Id, and there is no ` +
      'Financial Status or Paid at): abandoned checkouts are not revenue'
    );
  },
  notes: [
    'Records are linked by e-mail (the `Email` column). POS orders without e-mail are rejected unless you add ' +
      '`mapping.fields.serviceId: <column>` (e.g. a cart attribute holding the CRM visitor id).',
    'Line-item rows of one order are folded into one conversion (`foldBy: Name`); Total is the order total.',
    'Unpaid orders (empty Paid at) are rejected. Refunded and cancelled orders keep their Total and are imported: ' +
      'filter them out of the export if you do not want them (Refunded Amount is not subtracted).',
    "Paid at carries the store's offset; set `timezone` to the store's IANA zone so records carry it " +
      '(otherwise UTC).',
    'Name (#1001) is unique per store only: do not mix exports of several stores in one ledger.',
  ],
};
