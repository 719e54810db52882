// Preset for eBay sales downloads: the Seller Hub Orders report and the older Selling Manager SalesHistory.csv.
import type { Preset } from './types.js';

export const ebay: Preset = {
  name: 'ebay',
  title: 'eBay orders report / SalesHistory.csv (Seller Hub > Orders > Download)',
  description:
    'eBay sales downloads: the Seller Hub Orders report (Sales Record Number, Order Number, Buyer Username, ..., ' +
    'Sold For, Total Price, Sale Date, Paid On Date) and the older Selling Manager SalesHistory.csv (Sales Record ' +
    'Number, User Id, ..., Total Price, Sale Date, Checkout Date, Paid on Date). A row of commas above the header ' +
    '(the old header led by a tab), a padding row below it, one row per order line (a multi-item order repeats ' +
    'its Sales Record Number), money with its symbol (`$19.50`, `£8.00`), dates `Jan-18-16` (with a time in ' +
    'newer reports) in the seller account zone, and a footer: `4, record(s) downloaded,from ...` and `Seller ID: ...`.',
  policy: 'orders with a Paid on Date (paid): Total Price, one conversion per Sales Record Number',
  seen: 'real',
  format: 'csv',
  detect: {
    all: ['Sales Record Number', 'Buyer Email', 'Total Price', 'Paid on Date'],
    any: ['Order Number', 'Order ID', 'User Id', 'Buyer Username', 'Sale Date', 'Item Title'],
  },
  mapping: {
    preset: 'ebay',
    fields: {
      conversionName: { value: 'Purchase' },
      conversionDatetime: {
        column: 'Paid on Date',
        format: ['MMM-dd-yy HH:mm:ss', 'MMM-dd-yy', 'dd-MMM-yy HH:mm:ss', 'dd-MMM-yy'],
      },
      // The symbol names the currency where it can (`£`, `€`); `$` names none: set `currency`.
      conversionValue: { column: 'Total Price', decimal: '.' },
      // eBay's own order id where the layout has one; the account's Sales Record Number in the old download.
      conversionId: { column: ['Order Number', 'Sales Record Number'] },
      conversionEmail: 'Buyer Email',
    },
    // A multi-item order: its first row holds the order and Total Price, its item rows repeat the number.
    foldBy: 'Sales Record Number',
    // Paid only: an order awaiting payment has no Paid on Date (cancelled orders are not in the download).
    keep: [{ column: 'Paid on Date', matches: '\\S' }],
  },
  notes: [
    'Records are linked by Buyer Email. eBay masks it for many buyers (and leaves it empty in some reports): ' +
      'those orders are rejected unless you map `mapping.fields.serviceId` or take the e-mail from another export ' +
      '(`mapping.lookup`).',
    'Total Price carries a currency symbol: `£` and `€` name the currency, `$` does not (US, Canada, Australia): ' +
      'set `currency` (e.g. USD).',
    "Dates are the seller account's local time without a zone (`Jan-18-16`, `Sep-30-26 23:45:00`): set " +
      '`timezone` (US accounts: America/Los_Angeles, eBay time).',
    'Only paid orders count (a Paid on Date); a multi-item order is one conversion (its first row). The rows of ' +
      'commas and the footer (`N, record(s) downloaded`, `Seller ID: ...`) are not data (skipped as footer).',
    'Refunds and cancellations after payment are not in this download: an order refunded later still counts.',
  ],
};
