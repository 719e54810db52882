// Preset for Lemon Squeezy orders with the API's attribute names (Orders export / API order objects as CSV).
import type { Preset } from './types.js';

export const lemonsqueezy: Preset = {
  name: 'lemonsqueezy',
  title: 'Lemon Squeezy orders CSV (API order attributes: identifier, total, status...)',
  description:
    "Lemon Squeezy orders, one row per order, with the API order object's attribute names: identifier (UUID), " +
    'order_number, user_email, currency, subtotal, discount_total, tax, total and refunded_amount as integer cents ' +
    'of the order currency, status (pending, failed, paid, refunded), test_mode, created_at (ISO 8601).',
  policy: 'orders with status paid, not test mode: total (integer cents) less refunded_amount',
  seen: 'documented',
  format: 'csv',
  detect: {
    all: ['identifier', 'order_number', 'user_email', 'total', 'status'],
    any: ['refunded_amount', 'total_usd', 'status_formatted', 'discount_total'],
  },
  mapping: {
    preset: 'lemonsqueezy',
    fields: {
      conversionName: { value: 'Purchase' },
      conversionDatetime: { column: 'created_at', format: ['iso'], timezone: 'UTC' },
      // `total` is what the customer paid (subtotal - discount + tax), in cents; never `subtotal`.
      conversionValue: { column: 'total', unit: 'minor' },
      conversionCurrency: { column: 'currency', transform: 'uppercase' },
      conversionId: 'identifier',
      conversionEmail: 'user_email',
    },
    // paid only: pending and failed were never charged, refunded was given back in full. A partial refund
    // leaves the status paid and sets refunded_amount (cents, like the total), which comes off (net).
    keep: [{ column: 'status', in: ['paid'] }],
    skip: [{ column: 'test_mode', in: ['true', '1'] }],
    refunded: 'refunded_amount',
  },
  notes: [
    'Records are linked by user_email. If checkout passes the CRM visitor id as custom data, add ' +
      '`mapping.fields.serviceId: <column>`.',
    'Amounts are integer cents of the order currency (`unit: minor`: 1199 is 11.99 USD, 1500 is 1500 JPY). The ' +
      'value is `total` (after discount, with tax), not `subtotal`.',
    'Only status paid counts; pending, failed and refunded orders, and test-mode orders, are skipped. ' +
      'refunded_amount (a partial refund) comes off under refunds: net.',
    'created_at is ISO 8601 (UTC): records carry zone UTC unless you set `timezone`.',
    "Documented only: no real Lemon Squeezy export was seen; the column names are the API's, and the dashboard " +
      'export may name them otherwise (override `mapping.fields`).',
  ],
};
