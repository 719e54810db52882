// Preset for the Shopify admin orders export (one row per line item).
import type { Preset } from './types.js';

export const shopify: Preset = {
  name: 'shopify',
  title: 'Shopify orders export CSV (Orders > Export)',
  description:
    'The Shopify admin orders export: one row per line item, order-level columns (Financial Status, Paid at, ' +
    'Currency, Total...) filled on the first row of each order only; times `yyyy-MM-dd HH:mm:ss +hhmm`.',
  policy:
    'orders paid, partially paid or (partially) refunded: Total less Refunded Amount and Outstanding Balance',
  seen: 'real',
  format: 'csv',
  detect: {
    all: ['Name', 'Email', 'Financial Status', 'Paid at', 'Currency', 'Total'],
    any: ['Lineitem name', 'Lineitem quantity', 'Created at'],
  },
  mapping: {
    preset: 'shopify',
    fields: {
      conversionName: { value: 'Purchase' },
      // Paid at; an order with captured money but no Paid at (seen in real exports) takes Created at.
      conversionDatetime: { column: ['Paid at', 'Created at'], format: ['yyyy-MM-dd HH:mm:ss', 'iso'] },
      conversionValue: { column: 'Total', decimal: '.' },
      conversionCurrency: { column: 'Currency', transform: 'uppercase' },
      conversionId: 'Name',
      conversionEmail: 'Email',
    },
    foldBy: 'Name',
    // Money received only: pending, authorized, voided and expired orders are skipped. What was refunded
    // (refunds: net) and what is still outstanding (partially_paid) comes off the Total; an order with
    // nothing left is skipped. A cancelled order whose payment was kept is `paid` and counts.
    keep: [{ column: 'Financial Status', in: ['paid', 'partially_paid', 'partially_refunded', 'refunded'] }],
    refunded: 'Refunded Amount',
    unpaid: 'Outstanding Balance',
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
    'Only money received: orders whose Financial Status is pending, authorized, voided or expired are skipped. ' +
      'Refunded Amount comes off the Total (refunds: net; `--refunds gross` keeps the Total), and Outstanding ' +
      'Balance (partially_paid) too; an order with nothing left is skipped. Paid at, else Created at, dates it.',
    "Paid at carries the store's offset; set `timezone` to the store's IANA zone so records carry it " +
      '(otherwise UTC).',
    'Name (#1001) is unique per store only: do not mix exports of several stores in one ledger.',
  ],
};
