#!/usr/bin/env python3
"""Independent check of the ga4 preset on GA4 BigQuery export rows as JSON lines (stdlib only): purchase
events only; value = ecommerce.purchase_revenue in the event_params `currency`; instant = event_timestamp
(UTC microseconds); id = ecommerce.transaction_id. Prints counts, totals and per-record id/instant/value
(no user ids). The one real row (ga4-artemkorneev-dataform/purchase_input.js) is a JS module: turn it into
a JSON line in /tmp first: node -e "const {rows}=require('<path>');console.log(rows.map(JSON.stringify).join('\\n'))"
"""
import json
import sys
from collections import Counter
from datetime import datetime, timedelta, timezone
from decimal import Decimal

names, totals, records = Counter(), Counter(), []
for text in open(sys.argv[1]):
    if not text.strip():
        continue
    row = json.loads(text)
    names[row['event_name']] += 1
    if row['event_name'] != 'purchase':
        continue
    currency = next((p['value']['string_value'] for p in row['event_params'] if p['key'] == 'currency'), None)
    value = Decimal(str(row['ecommerce']['purchase_revenue']))
    micros = int(row['event_timestamp'])
    instant = datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(microseconds=micros)
    totals[currency.upper()] += value
    records.append({'id': row['ecommerce']['transaction_id'], 'instant': instant.isoformat(), 'value': str(value),
                    'currency': currency.upper()})
print(json.dumps({'events': names, 'sent': len(records), 'totals': {k: str(v) for k, v in totals.items()},
                  'records': records}, indent=1))
