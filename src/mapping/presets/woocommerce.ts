// Preset for WooCommerce order exports: the common export plugins' layouts, read by column alternatives.
import type { Preset } from './types.js';

export const woocommerce: Preset = {
  name: 'woocommerce',
  title: 'WooCommerce orders export CSV (order export plugins)',
  description:
    'WooCommerce order exports: the "Order ID, Date Created, Date Paid, Status, ..., Total Amount" layout (one row ' +
    'per line item, order cells repeated), WebToffee / SkyVerge column keys (order_id, paid_date, status, ' +
    'order_total, order_currency, billing_email) and Advanced Order Export ("Order Number", "Order Status", ' +
    '"Order Total Amount").',
  policy:
    'orders completed or processing (wc- slugs and labels too): the order total, less Order Refund Amount where the layout has it',
  seen: 'real',
  format: 'csv',
  // A store's own date setting (or a spreadsheet re-save) writes M/d/yyyy or d/M/yyyy: decided per file.
  dateOrder: 'per-file',
  // The layouts share no column name, so each one's order-total column identifies it (any one of them).
  detect: {
    all: [],
    any: ['Total Amount', 'order_total', 'Order Total Amount'],
  },
  mapping: {
    preset: 'woocommerce',
    fields: {
      conversionName: { value: 'Purchase' },
      // The paid date, else the order date (cash on delivery, bank transfer: no paid date).
      conversionDatetime: {
        column: ['Date Paid', 'paid_date', 'Date Created', 'order_date', 'Order Date'],
        format: ['yyyy-MM-dd HH:mm:ss', 'iso', 'yyyy-MM-dd HH:mm', 'M/d/yyyy H:mm:ss', 'M/d/yyyy H:mm'],
      },
      conversionValue: { column: ['Total Amount', 'order_total', 'Order Total Amount'], decimal: '.' },
      conversionCurrency: { column: 'order_currency', transform: 'uppercase' },
      conversionId: { column: ['Order ID', 'order_number', 'order_id', 'Order Number'] },
      conversionEmail: { column: ['Email', 'billing_email', 'customer_email', 'Email (Billing)'] },
    },
    // Line-item rows repeat the order's cells: one conversion per order, its first row (never summed).
    foldBy: ['Order ID', 'order_id', 'Order Number'],
    // Money received: completed and processing (paid, not yet shipped). pending, on-hold (awaiting a bank
    // transfer or cheque), failed, cancelled, refunded and checkout-draft are skipped.
    keep: [
      { column: 'Status', in: ['completed', 'processing', 'wc-completed', 'wc-processing'] },
      { column: 'Order Status', in: ['completed', 'processing', 'wc-completed', 'wc-processing'] },
    ],
    // Advanced Order Export's Order Refund Amount; SkyVerge's refunded_total.
    refunded: { column: ['Order Refund Amount', 'refunded_total'] },
  },
  notes: [
    'Records are linked by the billing e-mail (`Email`, `billing_email`, `Email (Billing)`). If checkout stores the ' +
      'CRM visitor id in an order meta column, add `mapping.fields.serviceId: <column>`.',
    'Only completed and processing orders count (`wc-` slugs and capitalised labels too); pending, on-hold, ' +
      'failed, cancelled and refunded orders are skipped. Line-item rows of one order are folded (never summed).',
    'The "Total Amount" and Advanced Order Export layouts have no currency column: set `currency` (e.g. USD). ' +
      "WooCommerce writes store-local times without a zone: set `timezone` to the store's IANA zone.",
    "A partial refund is taken off under refunds: net where the layout has it (Advanced Order Export's " +
      '`Order Refund Amount`, SkyVerge `refunded_total`); the other layouts send the order total of a partially ' +
      'refunded order.',
  ],
};
