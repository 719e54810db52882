#!/usr/bin/env python3
"""Compare what revimport sent (receiver.mjs output) with what expected.py says it should send.

    python3 compare.py <expected.json> <received.jsonl> [--file NAME] [--json]

Matching: by conversionId; records without an id are matched by `line` when the received record
carries one, else by (instant, value, currency), and what is left in file order. Reports matched,
missing (expected, not received), extra (received, not expected), per-field differences
(datetime, timezone, value, currency) and totals per currency side by side. Exit 0 only when every
record matches; 1 otherwise; 2 on bad input. Prints ids and lines, never e-mails or names.
"""

import argparse
import json
import sys
from collections import Counter, OrderedDict, defaultdict
from datetime import datetime, timezone
from decimal import Decimal, InvalidOperation

FIELDS = ('datetime', 'timezone', 'value', 'currency')


def load_expected(path, file_name):
    data = json.load(open(path))
    if isinstance(data, list):
        if file_name:
            data = [d for d in data if d['file'] == file_name]
        if len(data) != 1:
            sys.exit('expected.json holds %d files: pick one with --file' % len(data))
        data = data[0]
    return data


def load_received(path):
    records = []
    for n, line in enumerate(open(path, encoding='utf-8'), 1):
        line = line.strip()
        if not line:
            continue
        item = json.loads(line)
        # One record per line (receiver.mjs); a whole body (array) per line is accepted too.
        records.extend(item if isinstance(item, list) else [item])
    return records


def instant(text):
    """ISO 8601 -> aware UTC datetime, or None."""
    if not isinstance(text, str):
        return None
    try:
        return datetime.fromisoformat(text.replace('Z', '+00:00')).astimezone(timezone.utc)
    except ValueError:
        return None


def decimal(value):
    try:
        return Decimal(str(value))
    except (InvalidOperation, TypeError):
        return None


def differences(exp, got):
    diffs = {}
    a, b = instant(exp['conversionDatetime']), instant(got.get('conversionDatetime'))
    if a is None or b is None or a != b:
        diffs['datetime'] = (exp['conversionDatetime'], got.get('conversionDatetime'))
    if exp['conversionTimezone'] != got.get('conversionTimezone'):
        diffs['timezone'] = (exp['conversionTimezone'], got.get('conversionTimezone'))
    a, b = decimal(exp['conversionValue']), decimal(got.get('conversionValue'))
    if a is None or b is None or a != b:
        diffs['value'] = (exp['conversionValue'], got.get('conversionValue'))
    if exp['conversionCurrency'] != got.get('conversionCurrency'):
        diffs['currency'] = (exp['conversionCurrency'], got.get('conversionCurrency'))
    return diffs


def key_of(record):
    return (instant(record.get('conversionDatetime')), decimal(record.get('conversionValue')),
            record.get('conversionCurrency'))


def match(expected, received):
    """Returns (pairs, missing, extra)."""
    pairs, missing, extra = [], [], []
    by_id = defaultdict(list)
    no_id_received = []
    for r in received:
        cid = r.get('conversionId')
        if cid not in (None, ''):
            by_id[str(cid)].append(r)
        else:
            no_id_received.append(r)
    no_id_expected = []
    for e in expected:
        cid = e.get('conversionId')
        if cid:
            if by_id.get(cid):
                pairs.append((e, by_id[cid].pop(0)))
            else:
                missing.append(e)
        else:
            no_id_expected.append(e)
    for rest in by_id.values():
        extra.extend(rest)

    # Records without an id: by line when the receiver saw one, else by (instant, value, currency),
    # then whatever is left pairs up in order (and shows its differences).
    left_expected = []
    by_line = {r['line']: r for r in no_id_received if isinstance(r.get('line'), int)}
    if by_line:
        for e in no_id_expected:
            r = by_line.pop(e['line'], None)
            if r is not None:
                pairs.append((e, r))
            else:
                left_expected.append(e)
        left_received = [r for r in no_id_received if r.get('line') in by_line or not isinstance(r.get('line'), int)]
    else:
        pool = defaultdict(list)
        for r in no_id_received:
            pool[key_of(r)].append(r)
        for e in no_id_expected:
            bucket = pool.get(key_of(e))
            if bucket:
                pairs.append((e, bucket.pop(0)))
            else:
                left_expected.append(e)
        left_received = [r for bucket in pool.values() for r in bucket]
    n = min(len(left_expected), len(left_received))
    pairs.extend(zip(left_expected[:n], left_received[:n]))
    missing.extend(left_expected[n:])
    extra.extend(left_received[n:])
    return pairs, missing, extra


def totals(records, value_key='conversionValue'):
    out = defaultdict(Decimal)
    for r in records:
        v = decimal(r.get(value_key))
        if v is not None:
            out[str(r.get('conversionCurrency'))] += v
    return out


def label(record):
    return record.get('conversionId') or 'line %s' % record.get('line', '?')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('expected')
    parser.add_argument('received')
    parser.add_argument('--file')
    parser.add_argument('--json', action='store_true', help='print the report as JSON')
    parser.add_argument('--show', type=int, default=10, help='examples shown per kind (default 10)')
    args = parser.parse_args()
    try:
        exp = load_expected(args.expected, args.file)
        received = load_received(args.received)
    except (OSError, ValueError) as e:
        print('compare: %s' % e, file=sys.stderr)
        sys.exit(2)

    pairs, missing, extra = match(exp['records'], received)
    diff_counts = Counter()
    diff_examples = defaultdict(list)
    matched = 0
    for e, r in pairs:
        d = differences(e, r)
        if not d:
            matched += 1
        for field, (want, got) in d.items():
            diff_counts[field] += 1
            diff_examples[field].append({'record': label(e), 'line': e['line'], 'expected': want, 'received': got})
    dup_ids = [k for k, n in Counter(r.get('conversionId') for r in received if r.get('conversionId')).items() if n > 1]

    t_exp, t_got = totals(exp['records']), totals(received)
    report = OrderedDict([
        ('folder', exp['folder']), ('file', exp['file']),
        ('expected', len(exp['records'])), ('received', len(received)),
        ('matched', matched), ('differing', len(pairs) - matched),
        ('missing', len(missing)), ('extra', len(extra)),
        ('duplicateIdsReceived', len(dup_ids)),
        ('fieldDifferences', {f: diff_counts.get(f, 0) for f in FIELDS}),
        ('totals', {c: {'expected': str(t_exp.get(c, 0)), 'received': str(t_got.get(c, 0))}
                    for c in sorted(set(t_exp) | set(t_got))}),
        ('examples', {
            'missing': [{'record': label(e), 'line': e['line'], 'value': e['conversionValue'],
                         'currency': e['conversionCurrency'], 'datetime': e['conversionDatetime']}
                        for e in missing[:args.show]],
            'extra': [{'record': label(r), 'value': r.get('conversionValue'), 'currency': r.get('conversionCurrency'),
                       'datetime': r.get('conversionDatetime')} for r in extra[:args.show]],
            **{f: diff_examples[f][:args.show] for f in FIELDS if diff_examples[f]},
        }),
    ])
    ok = matched == len(exp['records']) == len(received) and not missing and not extra and not dup_ids

    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
    else:
        print('%s/%s: expected %d, received %d: matched %d, differing %d, missing %d, extra %d'
              % (report['folder'], report['file'], report['expected'], report['received'], matched,
                 report['differing'], len(missing), len(extra)))
        if dup_ids:
            print('duplicate conversionIds received: %d (e.g. %s)' % (len(dup_ids), ', '.join(dup_ids[:5])))
        print('field differences: ' + ', '.join('%s %d' % (f, diff_counts.get(f, 0)) for f in FIELDS))
        print('\n| currency | expected total | received total |\n|---|---:|---:|')
        for c, t in report['totals'].items():
            print('| %s | %s | %s |' % (c, t['expected'], t['received']))
        for kind, items in report['examples'].items():
            if items:
                print('\n%s (first %d):' % (kind, len(items)))
                for item in items:
                    print('  ' + json.dumps(item, ensure_ascii=False))
        print('\nRESULT: %s' % ('all records match' if ok else 'MISMATCH'))
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
