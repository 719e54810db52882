#!/usr/bin/env python3
"""Run expected.py over every realworld folder (not `conformance`) and print two Markdown tables.

    python3 table.py [--root DIR] [--now ISO] [--json-dir DIR]

Table 1: folder, rows, records, skipped by reason, invalid by reason, total per currency, and how
many records have neither an e-mail nor a visitor id (revimport rejects those unless a linking
column is mapped).
Table 2: files whose times carry a zone (zone column, abbreviation, offset, `Z`, `(UTC)` header) or
are epoch numbers: records, first and last instant, zones used, and how many records have a zone
other than the "usual zone" (abbreviation's usual zone; for numeric offsets, the configured zone).
--json-dir also writes each folder's expected JSON there (<folder>.json).
"""

import argparse
import json
import os
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
# The real exports live beside the project (../shared/realworld from its root), never in it.
REALWORLD = os.environ.get(
    'REALWORLD',
    os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), '..', 'shared', 'realworld'),
)


def run_expected(folder, root, now):
    cmd = [sys.executable, os.path.join(HERE, 'expected.py'), folder, '--root', root]
    if now:
        cmd += ['--now', now]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    data = json.loads(out)
    return data if isinstance(data, list) else [data]


def counts(d):
    return '; '.join('%s ×%d' % (k, v) for k, v in sorted(d.items(), key=lambda kv: (-kv[1], kv[0]))) or '–'


def totals(d):
    return '; '.join('%s %s' % (k, v) for k, v in sorted(d.items())) or '–'


def label(result, multi):
    return '%s/%s' % (result['folder'], result['file']) if multi else result['folder']


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--root', default=REALWORLD)
    parser.add_argument('--now')
    parser.add_argument('--json-dir')
    args = parser.parse_args()

    folders = sorted(f for f in os.listdir(args.root)
                     if os.path.isdir(os.path.join(args.root, f)) and f != 'conformance')
    results = []
    for folder in folders:
        rs = run_expected(folder, args.root, args.now)
        if args.json_dir:
            os.makedirs(args.json_dir, exist_ok=True)
            with open(os.path.join(args.json_dir, folder + '.json'), 'w') as f:
                json.dump(rs[0] if len(rs) == 1 else rs, f, indent=1, ensure_ascii=False)
        for r in rs:
            results.append((r, len(rs) > 1))

    print('## Expected records per export\n')
    print('| folder | rows | records | skipped | invalid | total per currency | records without e-mail / visitor id |')
    print('|---|---:|---:|---|---|---|---:|')
    for r, multi in results:
        print('| %s | %d | %d | %s | %s | %s | %d |' % (
            label(r, multi), r['rows'], len(r['records']), counts(r['skipped']), counts(r['invalid']),
            totals(r['totals']), r['unlinked']))

    print('\n## Instants of files with zones, offsets or epoch times\n')
    print('| folder | records | first instant | last instant | time source | zones used | zone ≠ usual zone |')
    print('|---|---:|---|---|---|---|---:|')
    for r, multi in results:
        recs = r['records']
        if not recs or all(x['timeSource'] == 'local' for x in recs):
            continue
        instants = sorted(x['conversionDatetime'] for x in recs)
        zones = Counter(x['conversionTimezone'] for x in recs)
        sources = Counter(x['timeSource'] for x in recs)
        differs = sum(1 for x in recs if 'usualZone' in x and x['conversionTimezone'] != x['usualZone'])
        print('| %s | %d | %s | %s | %s | %s | %d |' % (
            label(r, multi), len(recs), instants[0], instants[-1], counts(sources), counts(zones), differs))


if __name__ == '__main__':
    main()
