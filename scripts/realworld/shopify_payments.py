#!/usr/bin/env python3
"""Independent check of the shopify-payments preset on a real Shopify Payments transactions export
(stdlib only, no revimport code): rows of Type charge/refund/adjustment summed per Order; other types
skipped by Type; a sum <= 0 skipped (refunded in full); a group with no positive row skipped (refund
without its original in the file); value = Amount (gross), currency = Currency. Prints counts and totals
only (the file has no names or e-mails, and none are printed).

python3 scripts/realworld/shopify_payments.py <payment_transactions_export.csv>
"""
import csv
import json
import sys
from collections import Counter
from decimal import Decimal

path = sys.argv[1]
groups, order, skipped, types = {}, [], Counter(), Counter()
rows = 0
with open(path, newline='', encoding='utf-8') as f:
    for row in csv.DictReader(f):
        rows += 1
        types[row['Type']] += 1
        if row['Type'] not in ('charge', 'refund', 'adjustment'):
            skipped['Type: ' + row['Type']] += 1
            continue
        if row['Order'] not in groups:
            groups[row['Order']] = []
            order.append(row['Order'])
        groups[row['Order']].append(row)
sent, totals, fees = 0, Counter(), Counter()
for key in order:
    members = groups[key]
    total = sum(Decimal(m['Amount']) for m in members)
    if not any(Decimal(m['Amount']) > 0 for m in members):
        skipped['refund without its original in the file'] += 1
    elif total <= 0:
        skipped['refunded in full'] += 1
    else:
        sent += 1
        totals[members[0]['Currency'].upper()] += total
        fees[members[0]['Currency'].upper()] += sum(Decimal(m['Fee']) for m in members)
print(json.dumps({'rows': rows, 'types': types, 'orders': len(order), 'sent': sent,
                  'skippedReasons': skipped, 'totals': {k: str(v) for k, v in totals.items()},
                  'feesOfSent': {k: str(v) for k, v in fees.items()}}, indent=1))
