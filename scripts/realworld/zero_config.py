#!/usr/bin/env python3
"""The zero-config path on every real export: push with no config, push with only the zone and currency
a file cannot carry, and init then push with the written config; each beside expected.py.

    python3 zero_config.py [--bin path/to/bin/revimport.js] [--json out.json] [folder[:file] ...]

Every push is `push --check --json --emit` (nothing is sent) from an empty working folder, so no config is
found by search. The zone/currency of a folder come from configs/<folder>.json (its `timezone`, and a
constant `conversionCurrency` value when it has one): the facts the README's table says a file cannot carry.
Prints one Markdown row per file and mode; e-mails and names never appear (only counts and totals).
"""
import argparse, hashlib, json, os, subprocess, sys, tempfile
from collections import Counter
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REAL = os.environ.get('REALWORLD', os.path.join(os.path.dirname(ROOT), 'shared', 'realworld'))


def facts(folder, name):
    """The zone and currency the user would have to say for this file (from its explicit config)."""
    for cand in (f'{folder}--{name}.json', f'{folder}.json'):
        path = os.path.join(HERE, 'configs', cand)
        if os.path.exists(path):
            c = json.load(open(path))
            out = {}
            if c.get('timezone'): out['timezone'] = c['timezone']
            cur = c.get('mapping', {}).get('fields', {}).get('conversionCurrency')
            if isinstance(cur, dict) and 'value' in cur: out['currency'] = cur['value']
            if c.get('currency'): out['currency'] = c['currency']
            return out
    return {}


def push(binary, path, work, config=None):
    emit = os.path.join(work, 'emit.jsonl')
    if os.path.exists(emit): os.remove(emit)
    args = ['node', binary, 'push', path, '--check', '--json', '--emit', emit]
    if config: args += ['-c', config]
    env = {k: v for k, v in os.environ.items() if not k.startswith('REVIMPORT_')}
    r = subprocess.run(args, capture_output=True, text=True, cwd=work, env=env)
    try: s = json.loads(r.stdout.strip().splitlines()[-1])
    except Exception: s = {'error': {'message': r.stderr.strip()[:200]}}
    records = []
    if os.path.exists(emit):
        for line in open(emit, encoding='utf-8'):
            item = json.loads(line)
            rec = dict(item['record']); rec['line'] = item.get('line')
            records.append(rec)
    return r.returncode, s, records


def init(binary, path, work, f):
    out = os.path.join(work, 'init.config.yaml')
    args = ['node', binary, 'init', path, '-o', out, '--force']
    if f.get('timezone'): args += ['--timezone', f['timezone']]
    env = {k: v for k, v in os.environ.items() if not k.startswith('REVIMPORT_')}
    r = subprocess.run(args, capture_output=True, text=True, cwd=work, env=env)
    return r.returncode, (out if os.path.exists(out) else None), r.stderr


def expected(folder, name, multi, f):
    args = ['python3', os.path.join(HERE, 'expected.py'), folder]
    if multi: args += ['--file', name]
    if f.get('timezone'): args += ['--timezone', f['timezone']]
    if f.get('currency'): args += ['--currency', f['currency']]
    r = subprocess.run(args, capture_output=True, text=True)
    return json.loads(r.stdout)


def compare(exp, records, work):
    e, g = os.path.join(work, 'exp.json'), os.path.join(work, 'got.jsonl')
    json.dump(exp, open(e, 'w'))
    with open(g, 'w') as out:
        for rec in records: out.write(json.dumps(rec) + '\n')
    r = subprocess.run(['python3', os.path.join(HERE, 'compare.py'), e, g, '--json'], capture_output=True, text=True)
    try: return json.loads(r.stdout), r.returncode
    except Exception: return {'raw': r.stdout[-300:]}, 2


def totals(records):
    t = Counter()
    for r in records: t[r['conversionCurrency']] += Decimal(str(r['conversionValue']))
    return '; '.join(f'{c} {v}' for c, v in sorted(t.items())) or '–'


def reasons(d):
    return '; '.join(f'{k} ×{v}' for k, v in sorted(d.items(), key=lambda kv: -kv[1])) or '–'


def digest(records):
    lines = sorted(json.dumps(r, sort_keys=True) for r in records)
    return hashlib.sha256('\n'.join(lines).encode()).hexdigest()[:16]


def row(tag, mode, code, s, records, cmp, ccode):
    if 'rowsRead' not in s:
        msg = (s.get('error') or {}).get('message', '')[:120].replace('|', '/')
        return {'tag': tag, 'mode': mode, 'exit': code, 'error': msg, 'match': 'n/a'}
    inv = {g['reason']: g['count'] for g in s.get('errors', [])}
    why = {k: cmp.get(k) for k in ('expected', 'matched', 'missing', 'extra', 'differing') if cmp.get(k)}
    why.update({f: n for f, n in (cmp.get('fieldDifferences') or {}).items() if n})
    return {'tag': tag, 'mode': mode, 'exit': code, 'rows': s['rowsRead'], 'sent': len(records),
            'skipped': reasons(s.get('skippedReasons') or {}), 'invalid': reasons(inv), 'totals': totals(records),
            'expectedTotals': '; '.join(f"{c} {v['expected']}" for c, v in cmp.get('totals', {}).items()
                                        if v['expected'] not in ('0', '0.00')) or '–',
            'expectedRecords': cmp.get('expected'),
            # Every field of every record (and its line): two builds giving the same digest sent the same records.
            'recordsDigest': digest(records),
            'match': 'yes' if ccode == 0 else 'NO ' + json.dumps(why)}


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--bin', default=os.path.join(ROOT, 'bin', 'revimport.js'))
    p.add_argument('--json')
    p.add_argument('targets', nargs='*')
    a = p.parse_args()
    targets = a.targets or sorted(d for d in os.listdir(REAL) if os.path.isdir(os.path.join(REAL, d)) and d != 'conformance')
    out = []
    for t in targets:
        folder, _, only = t.partition(':')
        files = sorted(f for f in os.listdir(os.path.join(REAL, folder)) if f not in ('SOURCE.txt', 'README.md'))
        multi = len(files) > 1
        for name in ([only] if only else files):
            tag = f'{folder}/{name}' if multi else folder
            path = os.path.join(REAL, folder, name)
            f = facts(folder, name)
            work = tempfile.mkdtemp(prefix='zc-')
            exp_plain = expected(folder, name, multi, f)
            # none: no config at all; zone: only what the file cannot carry; init: init, then its config
            code, s, recs = push(a.bin, path, work)
            cmp, cc = compare(exp_plain, recs, work)
            out.append(row(tag, 'none', code, s, recs, cmp, cc))
            if f:
                cfg = os.path.join(work, 'facts.json'); json.dump(f, open(cfg, 'w'))
                code, s, recs = push(a.bin, path, work, cfg)
                cmp, cc = compare(exp_plain, recs, work)
                out.append(row(tag, 'zone/currency', code, s, recs, cmp, cc))
            icode, icfg, ierr = init(a.bin, path, work, f)
            if icfg:
                code, s, recs = push(a.bin, path, work, icfg)
                cmp, cc = compare(exp_plain, recs, work)
                r = row(tag, f'init (exit {icode})', code, s, recs, cmp, cc)
            else:
                r = {'tag': tag, 'mode': f'init (exit {icode})', 'exit': '', 'error': ierr.strip().splitlines()[-1][:120] if ierr.strip() else '', 'match': 'n/a'}
            out.append(r)
    if a.json: json.dump(out, open(a.json, 'w'), indent=1)
    print('| file | mode | exit | rows | sent | skipped | invalid | totals | independent | match |')
    print('|---|---|---:|---:|---:|---|---|---|---|---|')
    for r in out:
        if 'error' in r:
            print(f"| {r['tag']} | {r['mode']} | {r['exit']} | | | | | | | {r['error']} |")
        else:
            print(f"| {r['tag']} | {r['mode']} | {r['exit']} | {r['rows']} | {r['sent']} | {r['skipped']} | {r['invalid']} | {r['totals']} | {r['expectedRecords']} rec: {r['expectedTotals']} | {r['match']} |")


if __name__ == '__main__':
    main()
