#!/usr/bin/env python3
"""Independent check of the paypal / paypal-pt-br presets on the real PayPal downloads.

    npm run build && python3 scripts/realworld/paypal_preset.py

For each real file: applies the presets' documented policy (docs/formats.md, PayPal) to the raw file with
this folder's expected.py reader (no revimport code), runs `revimport push --check --json` on it, and
prints both side by side as Markdown: rows, valid, skipped by reason, invalid by reason, totals per
currency. Prints no e-mail and no name.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import expected as ex  # noqa: E402  (the reader: encoding, header, physical lines, loose names)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get('SHARED', os.path.join(ROOT, '..', '..', 'shared') if not os.path.isdir(os.path.join(ROOT, '..', 'shared')) else os.path.join(ROOT, '..', 'shared'))
FILES = [
    ('realworld/paypal-zuniga/Download.CSV', 'America/Los_Angeles'),
    ('realworld/paypal-ejbest/Download.CSV', 'America/New_York'),
    ('realworld/paypal-asendice-amount/Download.CSV', 'America/Los_Angeles'),
    ('realworld/paypal-balanco-ptbr/paypal.csv', 'America/Sao_Paulo'),
    ('realworld2/paypal-pilibos-us/PayPal.CSV', 'America/Los_Angeles'),
    ('realworld2/paypal-pilibos-us/PayPal-statement.csv', 'America/Los_Angeles'),
    ('realworld2/paypal-oca-fixtures/activity_en.csv', 'America/Los_Angeles'),
    ('realworld2/paypal-oca-fixtures/statement_en.csv', 'America/Los_Angeles'),
    ('realworld2/paypal-oca-fixtures/statement_es.csv', 'Europe/Berlin'),
]
EN_SALES = {'website payment', 'express checkout payment', 'paypal here payment', 'mobile payment',
            'ebay auction payment', 'donation payment', 'subscription payment', 'recurring payment',
            'preapproved payment bill user payment', 'shopping cart payment', 'virtual terminal payment',
            'payment received'}
EN_REFUNDS = {'payment refund', 'payment reversal'}
PT_SALES = {'pagamento recorrente recebido', 'pagamento recebido', 'pagamento de assinatura recebido',
            'pagamento do express checkout', 'pagamento no site'}
PT_REFUNDS = {'reembolso de pagamento', 'reembolso'}
MANGLED = re.compile(r'^\d([.,]\d+)?E\+\d+$', re.IGNORECASE)


def independent(path):
    meta, header, raw = ex.read_table(path)
    rows = [ex.Row(header, line, cells) for line, cells in raw]
    names = {ex.loose(h) for h in header}
    pt = 'valorbruto' in names
    if not pt and not ({'date', 'time', 'timezone', 'currency'} <= names):
        return {'rows': len(rows), 'preset': None}
    out = {'rows': len(rows), 'preset': 'paypal-pt-br' if pt else 'paypal', 'skipped': Counter(),
           'invalid': Counter(), 'totals': Counter(), 'valid': 0}
    status_col = 'Status' if 'status' in names else None
    type_cols = [c for c in (['Tipo'] if pt else ['Type', 'Description']) if ex.loose(c) in names]
    sales, refunds = (PT_SALES, PT_REFUNDS) if pt else (EN_SALES, EN_REFUNDS)
    # A refund is keyed by its reference (it names its payment); every other row by its own id: a payment's
    # own Reference Txn ID names an invoice or a subscription profile, never its refunds.
    ref_col = 'ID txn. de referência' if pt else 'Reference Txn ID'
    keys = ['ID da transação'] if pt else ['Transaction ID', 'Receipt ID']

    def key_of(row):
        is_refund = any((row.get(c) or '').lower() in refunds for c in type_cols)
        if is_refund and row.get(ref_col):
            return row.get(ref_col)
        return next((row.get(k) for k in keys if row.get(k)), None)
    has_link = any(ex.loose(c) in names for c in ('From Email Address', 'Do e-mail'))
    if not has_link:
        out['stopped'] = 'no e-mail column: exit 2'
        return out
    groups, order = {}, []
    for row in rows:
        status = row.get(status_col) if status_col else None
        if status_col and ex.loose(status) not in ('completed', 'concludo'):
            out['skipped'][f'{header_name(header, status_col)}: {status}'] += 1
            continue
        bad = next((c for c in type_cols if row.get(c).lower() not in sales | refunds), None)
        if bad:
            out['skipped'][f'{header_name(header, bad)}: {row.get(bad)}'] += 1
            continue
        txn = row.get('ID da transação' if pt else 'Transaction ID') or ''
        value = ex.parse_amount(row.get('Valor bruto') if pt else (row.get('Gross') or row.get('Amount')),
                                ',' if pt else '.')
        if MANGLED.match(txn):
            out['invalid']['id not exact'] += 1
            key = key_of(row)
            groups.setdefault(key, {'members': [], 'invalid': True})
            groups[key]['invalid'] = True
            continue
        if not row.get('Do e-mail' if pt else 'From Email Address'):
            out['invalid']['missing visitor id'] += 1
            continue
        key = key_of(row)
        if key not in groups:
            groups[key] = {'members': [], 'invalid': False}
            order.append(key)
        groups[key]['members'].append((value, row.get('Currency', 'Moeda')))
    for key in order:
        g = groups[key]
        if g['invalid']:
            out['skipped']['summed with an invalid row'] += 1
            continue
        total = sum(v for v, _ in g['members'])
        if not any(v > 0 for v, _ in g['members']):
            out['skipped']['refund without its original in the file'] += 1
        elif total <= 0:
            out['skipped']['refunded in full'] += 1
        else:
            out['valid'] += 1
            out['totals'][g['members'][0][1]] += total
    return out


def header_name(header, name):
    return next(h for h in header if ex.loose(h) == ex.loose(name))


def revimport(path, zone):
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        json.dump({'timezone': zone}, f)
    run = subprocess.run(['node', os.path.join(ROOT, 'bin/revimport.js'), 'push', path, '-c', f.name,
                          '--check', '--json'], capture_output=True, text=True)
    os.unlink(f.name)
    try:
        summary = json.loads(run.stdout)
    except ValueError:
        summary = {}
    return run.returncode, summary, run.stderr


def fmt(counter):
    return '; '.join(f'{k} ×{v}' for k, v in sorted(counter.items(), key=lambda kv: -kv[1])) or '–'


def main():
    print('| file | rows | preset | exit | valid (revimport / independent) | skipped by reason (revimport) | '
          'invalid by reason (revimport) | totals revimport | totals independent | same |')
    print('|---|---:|---|---:|---|---|---|---|---|---|')
    for rel, zone in FILES:
        path = os.path.join(SHARED, rel)
        ind = independent(path)
        code, s, err = revimport(path, zone)
        presets = list((s.get('presets') or {}).values())
        inv = Counter({e['reason']: e['count'] for e in s.get('errors', [])})
        tot = {k: Decimal(str(v)).quantize(Decimal('0.01')) for k, v in (s.get('totals') or {}).items()}
        itot = {k: v.quantize(Decimal('0.01')) for k, v in ind.get('totals', {}).items()}
        same = (not presets and code == 2) if not ind['preset'] else presets[:1] == [ind['preset']] and (
            'stopped' in ind and code == 2 or
            (s.get('valid') == ind.get('valid') and tot == itot and inv == ind.get('invalid', Counter())
             and Counter(s.get('skippedReasons') or {}) == ind.get('skipped', Counter())))
        print(f"| {rel} | {ind['rows']} | {', '.join(presets) or '–'} | {code} | {s.get('valid')} / "
              f"{ind.get('valid', ind.get('stopped', '–'))} | {fmt(Counter(s.get('skippedReasons') or {}))} | "
              f"{fmt(inv)} | {fmt(tot)} | {fmt(itot)} | {'yes' if same else 'NO'} |")


if __name__ == '__main__':
    main()
