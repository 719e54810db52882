// Preset for Meta Conversions API events, one server event object per JSON line.
import type { Preset } from './types.js';

export const metaCapi: Preset = {
  name: 'meta-capi',
  title: 'Meta Conversions API events (JSON lines)',
  description:
    'One Conversions API server event per line: event_name, event_time (Unix seconds, GMT), event_id, ' +
    'user_data (hashed match keys, external_id) and custom_data (value, currency, order_id).',
  policy: 'event_name Purchase only: custom_data.value in custom_data.currency',
  seen: 'documented',
  format: 'jsonl',
  detect: {
    all: ['event_name', 'event_time', 'user_data', 'custom_data.value'],
  },
  mapping: {
    preset: 'meta-capi',
    fields: {
      conversionName: { path: 'event_name' },
      conversionDatetime: { path: 'event_time', format: ['epoch', 'iso'] },
      conversionValue: { path: 'custom_data.value', decimal: '.' },
      // Lower-case codes (`eur`) are common in CAPI payloads.
      conversionCurrency: { path: 'custom_data.currency', transform: 'uppercase' },
      conversionId: { path: 'custom_data.order_id' },
    },
    keep: [{ path: 'event_name', in: ['Purchase'] }],
  },
  notes: [
    'Only Purchase events are revenue; other event_names are skipped (override with mapping.keep).',
    'user_data.em is a SHA-256 hash and cannot be used as an e-mail: it is not sent.',
    'No field links a record to a visitor by default. user_data.external_id is your own customer id; if it is the ' +
      'CRM visitor id, add `mapping.fields.serviceId: { path: user_data.external_id }`. Otherwise add a path that ' +
      'holds a plain e-mail or visitor id.',
    'event_time is Unix seconds (GMT): sent with zone UTC unless you set `timezone`.',
    'custom_data.order_id becomes conversionId (numbers are sent as strings). event_id is not sent.',
  ],
};
