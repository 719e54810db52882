// Preset for the Shopify Payments transactions export (Finance > Payouts > Export transactions).
import type { Preset } from './types.js';

export const shopifyPayments: Preset = {
  name: 'shopify-payments',
  title: 'Shopify Payments transactions export CSV (Finance > Payouts > Export transactions)',
  description:
    'payment_transactions_export_*.csv: one row per balance transaction (charge, refund, adjustment, Shop Cash, ' +
    'marketplace tax...), newest first; Amount/Fee/Net in the settlement Currency, Presentment Amount in the ' +
    "buyer's; Order is the order name (#1001); times `yyyy-MM-dd HH:mm:ss -0400`. No e-mail.",
  policy:
    'charge, refund, adjustment and dispute rows summed per Order (net of refunds and chargebacks): the Amount, gross of fees, in the ' +
    'settlement Currency',
  seen: 'real',
  format: 'csv',
  detect: {
    all: ['Transaction Date', 'Type', 'Order', 'Payout Status', 'Amount', 'Fee', 'Net', 'Currency'],
    any: ['Card Brand', 'Card Source', 'Payout Date', 'Available On', 'Checkout', 'Presentment Amount'],
  },
  mapping: {
    preset: 'shopify-payments',
    fields: {
      conversionName: { value: 'Purchase' },
      // The offset is written (`-0400`): an instant whatever the configured zone.
      conversionDatetime: { column: 'Transaction Date', format: 'yyyy-MM-dd HH:mm:ss' },
      // What the shop was charged, in the payout currency; Fee (kept by Shopify even on refunds) and Net
      // are the seller's cost, not the buyer's revenue.
      conversionValue: { column: 'Amount', decimal: '.' },
      conversionCurrency: { column: 'Currency', transform: 'uppercase' },
      conversionId: 'Order',
    },
    // Money of an order: its charges, its refunds (negative Amount, same Order) and adjustments. Shop Cash
    // credits, `marketplace sales tax`, Shop Cash campaign billing and payouts carry an Order too but are
    // not the buyer's payment: skipped by Type.
    // Chargebacks take money back from an order and a won dispute returns it: summed with the order too.
    // Their spelling in the CSV is unconfirmed; the API names the source type `dispute` and the transaction
    // types `dispute_withdrawal` / `dispute_reversal` (shopify.dev ShopifyPaymentsSourceType, …TransactionType).
    keep: [
      {
        column: 'Type',
        in: [
          'charge',
          'refund',
          'adjustment',
          'dispute',
          'dispute_withdrawal',
          'dispute_reversal',
          'chargeback',
        ],
      },
    ],
    sumBy: 'Order',
  },
  notes: [
    'The export has no e-mail or visitor id: a run stops at once until you link it. Take the e-mail from the ' +
      'orders export (Orders > Export) by order name: `mapping.lookup: { file: orders_export.csv, key: Order, ' +
      'match: Name }` and `mapping.fields.conversionEmail: { lookup: Email }`; or map `mapping.fields.serviceId` ' +
      'to `{ lookup: <a column of that export holding the CRM visitor id> }`.',
    'Rows of one Order are summed however far apart (`sumBy: Order`), across the files of one run too: a refund ' +
      'comes off its charge, an order refunded in full is skipped, a refund whose charge is not in the run is ' +
      'skipped. Dated at the first charge. Import a whole period at once; a refund imported in a later run is ' +
      'not netted against a charge already sent (use `refunds: adjust`).',
    "The value is Amount (what the buyer paid, in the settlement Currency), not Net: fees are the shop's cost. " +
      "Presentment Amount (the buyer's currency) is not used.",
    'Only charge, refund, adjustment and dispute (chargeback) rows count; shop_cash_credit, `marketplace sales tax`, ' +
      'shop_cash_campaign_billing_debit and other types are skipped by Type even though they name an Order.',
    'Order (#1001) is unique per store only: do not mix exports of several stores in one ledger.',
  ],
};
