// Preset for the GA4 BigQuery export (events_YYYYMMDD rows) written out as JSON lines.
import type { Preset } from './types.js';

export const ga4: Preset = {
  name: 'ga4',
  title: 'GA4 BigQuery export events (JSON lines)',
  description:
    'One row of the events_YYYYMMDD table per line (bq extract / EXPORT DATA as JSON): event_name, ' +
    'event_timestamp (UTC microseconds, as a string), event_params as {key, value:{string_value, int_value, ' +
    'float_value, double_value}} pairs, user_pseudo_id, ecommerce.{transaction_id, purchase_revenue, refund_value}.',
  policy:
    'purchase events only: ecommerce.purchase_revenue in the event_params currency; refund events skipped',
  seen: 'real',
  format: 'jsonl',
  // Keys every GA4 row has, whatever its event (a real file starts with page_view or session_start rows).
  detect: {
    all: ['event_name', 'event_timestamp', 'event_params', 'user_pseudo_id'],
    any: ['event_date', 'ecommerce', 'items', 'stream_id'],
  },
  mapping: {
    preset: 'ga4',
    fields: {
      conversionName: { path: 'event_name' },
      conversionDatetime: { path: 'event_timestamp', format: 'epoch-us' },
      // "Purchase revenue of this event, represented in local currency with standard unit": major units
      // in the event's `currency` parameter; INT64/FLOAT come out as JSON strings ("31.0").
      conversionValue: { path: 'ecommerce.purchase_revenue', decimal: '.' },
      conversionCurrency: { path: 'event_params[currency]', transform: 'uppercase' },
      // A purchase without a transaction id is exported as "(not set)": no id, not one id shared by all.
      conversionId: { path: 'ecommerce.transaction_id', blank: ['(not set)'] },
    },
    keep: [{ path: 'event_name', in: ['purchase'] }],
  },
  notes: [
    'Only purchase events are revenue; page_view, add_to_cart... and refund events are skipped by event_name. A ' +
      'refund event (ecommerce.refund_value, positive) is not taken off its purchase: the value stays gross of refunds.',
    'No e-mail exists in GA4 and no field is sent as the visitor id by default: user_pseudo_id is the GA client id, ' +
      'which is the CRM visitor id only if your site made it so. Then add `mapping.fields.serviceId: { path: ' +
      'user_pseudo_id }`; if the site sends the CRM visitor id as an event parameter or user_id, use ' +
      '`mapping.fields.serviceId: { path: "event_params[<key>]" }` or `{ path: user_id }`.',
    'event_timestamp is UTC microseconds (an instant); set `timezone` to the property zone (event_date is in it) ' +
      'so records carry it.',
    'ecommerce.transaction_id becomes conversionId: GA4 records a purchase again when the confirmation page is ' +
      'reloaded; the repeat is rejected as a duplicate.',
  ],
};
