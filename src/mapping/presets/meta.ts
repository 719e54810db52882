// Preset for Meta (Facebook) offline events CSV, the Events Manager upload layout.
import type { Preset } from './types.js';

export const meta: Preset = {
  name: 'meta',
  title: 'Meta offline events CSV (Events Manager upload layout)',
  description:
    'An offline events file with Meta key headers (email, phone, fn, ln, zip, ct, st, country, external_id, ' +
    'event_name, event_time, value, currency, order_id), plain-text PII, event_time as Unix seconds or ISO 8601.',
  policy: 'event_name Purchase only: value in currency',
  seen: 'real',
  format: 'csv',
  detect: {
    all: ['event_name', 'event_time', 'value', 'currency'],
    any: ['email', 'phone', 'external_id', 'order_id'],
  },
  mapping: {
    preset: 'meta',
    fields: {
      conversionName: 'event_name',
      conversionDatetime: { column: 'event_time', format: ['epoch', 'iso'] },
      conversionValue: { column: 'value', decimal: '.' },
      conversionCurrency: { column: 'currency', transform: 'uppercase' },
      conversionId: 'order_id',
      conversionEmail: 'email',
    },
    // Revenue is a Purchase: AddToCart, Lead, Search... carry values too, and are skipped.
    keep: [{ column: 'event_name', in: ['Purchase'] }],
  },
  notes: [
    'Only Purchase events are revenue; other event_names are skipped (override with mapping.keep).',
    'Records are linked by e-mail (the `email` column, sent trimmed and lower-cased). Rows with only a phone ' +
      'number are rejected.',
    "external_id is your own customer id, not the CRM tracking script's visitor id, so it is not sent. If you " +
      'set external_id to the CRM visitor id, add `mapping.fields.serviceId: external_id`.',
    'event_time is Unix seconds or ISO 8601 with an offset: both are exact instants, sent with zone UTC unless ' +
      'you set `timezone`.',
    'A SHA-256-hashed `email` is rejected: upload the file before Meta hashes it.',
  ],
};
