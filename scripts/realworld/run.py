#!/usr/bin/env python3
"""Push each real export with revimport (bin/revimport.js, built) to receiver.mjs and compare what
arrived with expected.py's independent computation.

    python3 run.py [--link] <folder>[:<file>] [...]
Config: configs/<folder>--<file>.json, else configs/<folder>.json. --link adds a constant serviceId
where the config maps none, so exports without an e-mail or visitor-id column deliver and can be
compared. Prints one Markdown row per file (source, exit code, rows, sent, skipped by reason, invalid by
reason, totals sent and expected, match), then the instants table (datetime and zone differences).
"""
import json, os, subprocess, sys, time, glob, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The real exports live beside the project, never in it (they hold customers' personal data).
REAL = os.environ.get('REALWORLD', os.path.join(os.path.dirname(ROOT), 'shared', 'realworld'))
BIN = os.path.join(ROOT, 'bin', 'revimport.js')

def start_receiver(out):
    p = subprocess.Popen(['node', os.path.join(HERE, 'receiver.mjs'), out], stdout=subprocess.PIPE, text=True)
    url = p.stdout.readline().strip().split()[-1]
    return p, url

def run(folder, file=None):
    files = sorted(f for f in os.listdir(os.path.join(REAL, folder)) if f != 'SOURCE.txt')
    if file: files = [file]
    rows = []
    for name in files:
        tag = f'{folder}/{name}' if len(files) > 1 or file else folder
        work = tempfile.mkdtemp(prefix='rv-')
        received = os.path.join(work, 'received.jsonl')
        open(received, 'w').close()
        p, url = start_receiver(received)
        try:
            config = os.path.join(HERE, 'configs', f'{folder}--{name}.json')
            if not os.path.exists(config): config = os.path.join(HERE, 'configs', f'{folder}.json')
            args = ['node', BIN, 'push', os.path.join(REAL, folder, name), '--base-url', url, '--json', '--allow-http']
            if os.path.exists(config):
                if LINK:
                    # Instants check only: a constant visitor id so that files without an e-mail or
                    # visitor-id column still deliver, and their instants can be compared.
                    c = json.load(open(config))
                    c.setdefault('mapping', {}).setdefault('fields', {}).setdefault('serviceId', {'value': 'verify'})
                    config = os.path.join(work, 'config.json')
                    json.dump(c, open(config, 'w'))
                args += ['-c', config]
            env = dict(os.environ, REVIMPORT_API_KEY='verify-key', REVIMPORT_STATE=os.path.join(work, 'ledger.db'))
            r = subprocess.run(args, capture_output=True, text=True, env=env)
            try: summary = json.loads(r.stdout)
            except Exception: summary = {'error': r.stderr.strip()[:300]}
        finally:
            p.terminate(); p.wait()
        exp_path = os.path.join(work, 'expected.json')
        eargs = ['python3', os.path.join(HERE, 'expected.py'), folder]
        if len(files) > 1: eargs += ['--file', name]
        with open(exp_path, 'w') as f: subprocess.run(eargs, stdout=f, check=True)
        c = subprocess.run(['python3', os.path.join(HERE, 'compare.py'), exp_path, received, '--json'], capture_output=True, text=True)
        try: cmp = json.loads(c.stdout)
        except Exception: cmp = {'raw': c.stdout[-500:]}
        rows.append((tag, r.returncode, summary, cmp, c.returncode))
    return rows

def fmt(d):
    return ', '.join(f'{k} {v}' for k, v in sorted(d.items())) if d else '–'

LINK = '--link' in sys.argv
INSTANTS = []
if __name__ == '__main__':
    sys.argv = [a for a in sys.argv if a != '--link']
    print('| source | exit | rows | sent | skipped | invalid | totals sent | expected totals | match |')
    print('|---|---:|---:|---:|---|---|---|---|---|')
    for arg in sys.argv[1:]:
        folder, _, file = arg.partition(':')
        for tag, code, s, cmp, ccode in run(folder, file or None):
            if 'error' in s and 'rowsRead' not in s:
                print(f'| {tag} | {code} | | | | | | | error: {s.get("error")} |'); continue
            inv = {g['reason']: g['count'] for g in s.get('errors', [])}
            sk = s.get('skippedReasons') or ({'(rules)': s.get('skipped')} if s.get('skipped') else {})
            exp_tot = {c: v['expected'] for c, v in cmp.get('totals', {}).items()}
            why = {k: cmp.get(k) for k in ('expected', 'received', 'missing', 'extra', 'duplicateIdsReceived') if cmp.get(k)}
            why.update({f: n for f, n in cmp.get('fieldDifferences', {}).items() if n})
            match = 'yes' if ccode == 0 else f"no {why}"
            inst = cmp.get('fieldDifferences', {})
            matched_pairs = cmp.get('matched', 0) + cmp.get('differing', 0)
            INSTANTS.append(f"| {tag} | {matched_pairs} | {inst.get('datetime', '?')} | {inst.get('timezone', '?')} |")
            print(f"| {tag} | {code} | {s['rowsRead']} | {s['sent']} | {fmt(sk)} | {fmt(inv)} | {fmt(s.get('totals', {}))} | {fmt(exp_tot)} | {match} |")

    print()
    print('| source | records compared | datetime differs | timezone differs |')
    print('|---|---:|---:|---:|')
    for line in INSTANTS: print(line)
