// Preset for Lemon Squeezy orders with the API's attribute names (Orders export / API order objects as CSV).
import type { Preset } from './types.js';

export const lemonsqueezy: Preset = {
  name: 'lemonsqueezy',
  title: 'Lemon Squeezy orders CSV (API order attributes: identifier, total, status...)',
  description:
    "Lemon Squeezy orders, one row per order, with the API order object's attribute names: identifier (UUID), " +
    'order_number, user_email, currency, subtotal, discount_total, tax, total and refunded_amount as integer cents ' +
    'of the order currency, status (pending, failed, paid, refunded), test_mode, created_at (ISO 8601).',
  policy:
    'orders paid (status, else status_formatted), not test mode: total (integer cents) less refunded_amount',
  seen: 'documented',
  format: 'csv',
  // Issue 21: a real orders download without `status` was refused as "nearly: lemonsqueezy (no status)"
  // and `init` then sent its cents as units. The status is one of the columns that may be there, not a must.
  detect: {
    all: ['identifier', 'order_number', 'user_email', 'total'],
    any: ['status', 'status_formatted', 'total_formatted', 'refunded_amount', 'total_usd', 'discount_total'],
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
    // Each rule applies where its column is in the file: `status`, else the label `status_formatted`.
    // partial_refund (a status some API versions give) is paid money less refunded_amount.
    keep: [
      { column: 'status', in: ['paid', 'partial_refund'] },
      { column: 'status_formatted', in: ['paid', 'partial refund', 'partially refunded'] },
    ],
    skip: [{ column: 'test_mode', in: ['true', '1'] }],
    refunded: 'refunded_amount',
  },
  notes: [
    'Records are linked by user_email. If checkout passes the CRM visitor id as custom data, add ' +
      '`mapping.fields.serviceId: <column>`.',
    'Amounts are integer cents of the order currency (`unit: minor`: 1199 is 11.99 USD, 1500 is 1500 JPY). The ' +
      'value is `total` (after discount, with tax), not `subtotal`.',
    'Only paid orders count (status paid or partial_refund, or status_formatted Paid where the file has no ' +
      'status); pending, failed and refunded orders, and test-mode orders, are skipped. refunded_amount (a ' +
      'partial refund) comes off under refunds: net; a refund of the whole total leaves nothing (skipped).',
    'created_at is ISO 8601 (UTC): records carry zone UTC unless you set `timezone`.',
    "Documented only: no real Lemon Squeezy export was seen; the column names are the API's, and the dashboard " +
      'export may name them otherwise (override `mapping.fields`).',
  ],
};
