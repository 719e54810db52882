// Preset for TikTok offline events CSV (Events Manager manual upload).
import type { Preset } from './types.js';

export const tiktok: Preset = {
  name: 'tiktok',
  title: 'TikTok offline events CSV (Events Manager upload)',
  description:
    'A comma-separated offline events file for TikTok Events Manager: event_type plus event time, value, ' +
    'currency, order id and e-mail/phone columns.',
  policy: 'every row: value in currency',
  seen: 'documented',
  format: 'csv',
  detect: {
    all: ['event_type', 'value', 'currency'],
    any: ['event_time', 'timestamp'],
  },
  mapping: {
    preset: 'tiktok',
    fields: {
      conversionName: 'event_type',
      conversionDatetime: {
        column: ['event_time', 'timestamp'],
        format: ['epoch', 'iso', 'yyyy-MM-dd HH:mm:ss'],
      },
      conversionValue: { column: 'value', decimal: '.' },
      conversionCurrency: { column: 'currency', transform: 'uppercase' },
      conversionId: 'order_id',
      conversionEmail: 'email',
    },
  },
  notes: [
    'Records are linked by e-mail (the `email` column); rows with only a phone number are rejected. Add ' +
      '`mapping.fields.serviceId: <column>` if you keep the CRM visitor id in the file.',
    'Times are Unix seconds or ISO 8601 with an offset (sent with zone UTC unless you set `timezone`); for ' +
      '`yyyy-MM-dd HH:mm:ss` local times set `timezone`.',
    'Column names other than event_type are not confirmed in public TikTok documentation: check your header ' +
      'and override `mapping.fields` where it differs.',
  ],
};
