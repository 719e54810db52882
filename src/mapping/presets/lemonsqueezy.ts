// Preset for Lemon Squeezy orders: the dashboard's orders export and API order objects as CSV (same attribute names).
import type { Preset } from './types.js';

export const lemonsqueezy: Preset = {
  name: 'lemonsqueezy',
  title: 'Lemon Squeezy orders CSV (Orders > Export, or API order attributes: identifier, total...)',
  description:
    "Lemon Squeezy orders, one row per order, with the API order object's attribute names: identifier (UUID), " +
    'order_number, user_email, currency, subtotal, discount_total, tax, total (and refunded_amount) as integer ' +
    'cents of the order currency. The dashboard export (seen) has no status: all quoted, date_utc ' +
    '(`yyyy-MM-dd HH:mm:ss`, UTC), total empty on a free order; API rows add status, test_mode, created_at (ISO 8601).',
  policy:
    'orders with a total, paid where a status says so (status, else status_formatted), not test mode: total (integer cents) less refunded_amount',
  seen: 'real',
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
      // The API and webhooks write created_at (ISO 8601); the dashboard's orders export writes date_utc
      // (`2025-03-14 09:26:53`, UTC: seen in hello-powerui/powerui salescustomers/lemonsqueezy.csv).
      conversionDatetime: {
        column: ['created_at', 'date_utc'],
        format: ['iso', 'yyyy-MM-dd HH:mm:ss'],
        timezone: 'UTC',
      },
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
    // The dashboard export leaves total empty on an order nothing was charged for (a free product, a 100%
    // discount): not revenue, and not an error either (hello-powerui/powerui: 528 of 754 orders).
    skip: [
      { column: 'test_mode', in: ['true', '1'] },
      { column: 'total', in: [''] },
    ],
    refunded: 'refunded_amount',
  },
  notes: [
    'Records are linked by user_email. If checkout passes the CRM visitor id as custom data, add ' +
      '`mapping.fields.serviceId: <column>`.',
    'Amounts are integer cents of the order currency (`unit: minor`: 1199 is 11.99 USD, 1500 is 1500 JPY). The ' +
      'value is `total` (after discount, with tax), not `subtotal`.',
    'Where the file has a status, only paid orders count (status paid or partial_refund, else status_formatted ' +
      'Paid); pending, failed and refunded orders, and test-mode orders, are skipped. refunded_amount (a ' +
      'partial refund) comes off under refunds: net; a refund of the whole total leaves nothing (skipped).',
    'An order with an empty total (a free product, a 100% discount) is skipped: nothing was charged.',
    'The dashboard export has no status and no refund columns: every order with a total counts, one refunded ' +
      'later too (refunds are only in the payouts export).',
    'created_at (API, ISO 8601) or date_utc (dashboard export) is UTC: records carry zone UTC unless you set `timezone`.',
  ],
};
