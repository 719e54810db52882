#!/usr/bin/env python3
"""Independent check of the salesforce, salesforce-report and hubspot presets on the real exports in
/work/shared/realworld2 (stdlib only, never calling revimport): applies the documented policy to the raw
file and prints rows, sent, skipped and invalid by reason, and totals per currency. Prints no e-mails/names.
Usage: python3 scripts/realworld/crm_check.py [/work/shared/realworld2]
"""
import csv
import re
import sys
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal

ROOT = sys.argv[1] if len(sys.argv) > 1 else '/work/shared/realworld2'
EMAIL = re.compile(r'[^\s@"<>(),;:]+@[^\s@"<>(),;:]+\.[^\s@"<>(),;:]+')


def cents(text):
    return Decimal(text).quantize(Decimal('0.01'), rounding=ROUND_HALF_UP)


def report(name, rows, sent, skipped, invalid, totals):
    print(f'== {name}: rows {rows}, sent {sent}, skipped {sum(skipped.values())} {dict(skipped)}, '
          f'invalid {sum(invalid.values())} {dict(invalid)}, totals {({k: float(v) for k, v in sorted(totals.items())})}')


def salesforce_object(folder, default_currency=None, key_pairs=(('ContactId', 'Id'), ('AccountId', 'AccountId'))):
    enc = 'latin-1' if folder == 'salesforce-winkeldev' else 'utf-8'
    contacts = list(csv.DictReader(open(f'{ROOT}/{folder}/Contact.csv', encoding=enc, newline='')))
    index = {match: {} for _, match in key_pairs}
    for c in contacts:
        for _, match in key_pairs:
            index[match].setdefault(c[match], c)
    skipped, invalid, totals, sent = Counter(), Counter(), Counter(), 0
    rows = list(csv.DictReader(open(f'{ROOT}/{folder}/Opportunity.csv', encoding=enc, newline='')))
    for row in rows:
        if row.get('IsDeleted', '0') not in ('0', 'false'):
            skipped['IsDeleted'] += 1
        elif row['IsWon'].lower() not in ('1', 'true'):
            skipped['not won'] += 1
        elif row['Amount'].strip() == '':
            skipped['Amount empty'] += 1
        elif Decimal(row['Amount']) == 0:
            skipped['Amount 0'] += 1
        else:
            contact = next((index[m][row[k]] for k, m in key_pairs if row.get(k) and row[k] in index[m]), None)
            if contact is None:
                invalid['not in lookup file'] += 1
            elif not contact['Email'].strip():
                invalid['missing visitor id'] += 1
            else:
                sent += 1
                totals[row.get('CurrencyIsoCode') or default_currency] += cents(row['Amount'])
    report(f'{folder}/Opportunity.csv', len(rows), sent, skipped, invalid, totals)


def salesforce_report():
    rows = list(csv.DictReader(open(f'{ROOT}/salesforce-parkbee-report/salesforce_opportunities.csv',
                                    newline=''), delimiter=';'))
    skipped, invalid, totals, sent = Counter(), Counter(), Counter(), 0
    for row in rows:
        amount = row['Amount'].replace('.', '').replace(',', '.')
        if row['Probability (%)'] != '100':
            skipped['Probability not 100'] += 1
        elif amount == '':
            skipped['Amount empty'] += 1
        elif Decimal(amount) == 0:
            skipped['Amount 0'] += 1
        else:
            sent += 1  # linked by Opportunity ID as a stand-in visitor id in this check
            totals[row['Amount Currency']] += cents(amount)
    report('salesforce-parkbee-report/salesforce_opportunities.csv', len(rows), sent, skipped, invalid, totals)


def hubspot(path, currency='GBP', stand_in_link=False):
    with open(f'{ROOT}/{path}', encoding='utf-8-sig', newline='') as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [dict(zip(header, r)) for r in reader]
    skipped, invalid, totals, sent = Counter(), Counter(), Counter(), 0
    for row in rows:
        if 'Is Deal Closed?' in row and row['Is Deal Closed?'] != 'true':
            skipped['not closed'] += 1
        elif 'Deal probability' in row and row['Deal probability'] not in ('1', '1.0', '1.00'):
            skipped['probability not 1.0'] += 1
        elif not re.search(r"\bwon(?![\w'’])", row['Deal Stage'], re.I) and row['Deal Stage'] != 'closedwon':
            skipped['stage not won'] += 1
        elif row['Amount'].strip() == '':
            skipped['Amount empty'] += 1
        elif Decimal(row['Amount']) == 0:
            skipped['Amount 0'] += 1
        elif not stand_in_link and not EMAIL.search(row.get('Associated Contact', '')):
            invalid['no e-mail in Associated Contact'] += 1
        else:
            sent += 1
            totals[currency] += cents(row['Amount'])
    report(path + (' (Record ID as stand-in link)' if stand_in_link else ''), len(rows), sent, skipped, invalid, totals)


salesforce_object('salesforce-winkeldev')
salesforce_object('salesforce-earthfink-resaved', 'USD', (('AccountId', 'AccountId'),))
salesforce_report()
hubspot('hubspot-markstringer/hubspot-crm-exports-all-deals-2023-05-16.csv')
hubspot('hubspot-markstringer/hubspot-crm-exports-all-deals-2023-05-16.csv', stand_in_link=True)
hubspot('hubspot-markstringer/hubspot-crm-exports-all-deals-2023-04-03.csv', stand_in_link=True)
