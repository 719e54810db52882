// Preset for Etsy's Sold Orders download (Shop Manager > Settings > Options > Download Data).
import type { Preset } from './types.js';

export const etsy: Preset = {
  name: 'etsy',
  title: 'Etsy Sold Orders CSV (EtsySoldOrders<year>.csv)',
  description:
    "Etsy Sold Orders: one row per order, Sale Date (MM/dd/yy, a date only), Order ID, Currency (the shop's), " +
    'Order Total (what the buyer paid: items less discounts, plus shipping and sales tax) and the Adjusted * ' +
    'columns for refunds; no buyer e-mail. US ("Order Total", "Ship *") and British ("Order total", "Delivery *") ' +
    'wording, comma or tab separated.',
  policy:
    "every order: Order Total (under refunds: net, the Adjusted Order Total when it is not 0), in the shop's currency",
  seen: 'real',
  format: 'csv',
  // Etsy writes Sale Date in the shop's locale order: MM/dd/yy from a US shop, dd/MM/yy from a UK one.
  dateOrder: 'per-file',
  // Sold Orders only: the Sold Order Items download (one row per item, no order total) has Sale Date and
  // Order ID but none of the order-level money columns, and is not detected.
  detect: {
    all: ['Sale Date', 'Order ID', 'Order Net', 'Adjusted Order Total', 'Adjusted Net Order Amount'],
    any: ['Order Total', 'Number of Items'],
  },
  mapping: {
    preset: 'etsy',
    fields: {
      conversionName: { value: 'Purchase' },
      // A date only: midnight in the configured zone. Spreadsheet re-saves write M/d/yyyy or yyyy-MM-dd.
      conversionDatetime: { column: 'Sale Date', format: ['MM/dd/yy', 'M/d/yyyy', 'yyyy-MM-dd'] },
      // `Order total` in the British-English header is the same column (names are case-insensitive).
      conversionValue: { column: 'Order Total', decimal: '.' },
      conversionCurrency: { column: 'Currency', transform: 'uppercase' },
      conversionId: 'Order ID',
    },
    // The total after a refund, when Etsy filled it in; 0.00 means no adjustment recorded.
    refunded: { column: 'Adjusted Order Total', remaining: true },
  },
  notes: [
    'Etsy gives no buyer e-mail: nothing links an order to a visitor, and a run stops at once. Add ' +
      '`mapping.fields.serviceId: <column>` (a column you add) or take it from another export with `mapping.lookup` ' +
      '(e.g. `{ file: orders.csv, key: Order ID, match: <its order column> }` and `serviceId: { lookup: <column> }`).',
    'Every order counts (the Status column is empty in every download seen); the value is Order Total. Under ' +
      'refunds: net a non-zero Adjusted Order Total (what is left after a partial refund) is sent instead. Etsy ' +
      'often leaves it at 0.00 even when Adjusted Net Order Amount shows a refund: that order is sent at its ' +
      'Order Total, and an order refunded in full is not recognised.',
    "Sale Date is a date without a time: records are dated at midnight in `timezone` (set the shop's zone).",
    'The Sold Order Items download (EtsySoldOrderItems<year>.csv, one row per item) is not this export and is ' +
      'not detected: download Sold Orders.',
  ],
};
