#!/usr/bin/env python3
"""Independent checker: what revimport should send for one realworld export folder.

    python3 expected.py <folder> [--file NAME] [--timezone ZONE] [--currency CUR]
                                 [--root DIR] [--now ISO]

<folder> is a folder name under ../shared/realworld (beside the project; $REALWORLD overrides) (or a path to one). Prints JSON:

    {folder, file, platform, encoding, delimiter, config, rows, records: [...],
     skipped: {reason: n}, invalid: {reason: n}, totals: {CUR: "decimal"}, notes: [...]}

When the folder holds several export files and --file is not given, prints a JSON array with one
such object per file.

Standard library only. Nothing here is taken from revimport: the rules are the project's issues
(9: money, 10: instants) as restated in README.md next to this file, and each policy choice is
commented where it is applied. No e-mail or name is ever written to the output.
"""

import argparse
import csv
import json
import os
import re
import sys
from collections import Counter, OrderedDict
from datetime import datetime, timedelta, timezone
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from zoneinfo import ZoneInfo

# The real exports live beside the project (../shared/realworld from its root), never in it.
REALWORLD = os.environ.get(
    'REALWORLD',
    os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), '..', 'shared', 'realworld'),
)
UTC = timezone.utc

# Rule (issue 10): an instant before 2000-01-01T00:00:00Z or more than 1 day after now is invalid.
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST_AHEAD = timedelta(days=1)

# ---------------------------------------------------------------------------------------------
# What a user would configure for each folder (top-level `timezone` / `currency` of the revimport
# config). Files whose times carry no zone are read in this zone; files without a currency column
# take this currency. Each choice is a guess from the file itself (offsets, currency, country);
# README.md lists them. configs/<folder>.json must use the same values.
# date_order: how a d/m/y date is read when the file writes one (MDY = US, DMY = day first).
# ---------------------------------------------------------------------------------------------
FOLDER_CONFIG = {
    'etsy-deborahkim': {'timezone': 'America/New_York', 'date_order': 'MDY'},  # US shop, zone unknown
    'etsy-orders-epicrae-tsv': {'timezone': 'America/New_York', 'date_order': 'MDY'},  # US shop, zone unknown
    'etsy-orders-rey-cad-delivery': {'timezone': 'America/New_York', 'date_order': 'MDY'},  # CAD shop, zone unknown
    'etsy-items-starrysticker': {'timezone': 'America/New_York', 'date_order': 'MDY'},
    'gclid-andrey-generic': {'timezone': 'UTC', 'currency': 'USD'},  # neither zone nor currency known
    'meta-fb-sse-events': {'timezone': 'UTC'},
    'meta-fb-uploader-example': {'timezone': 'UTC'},
    # preset.csv has no event_name/currency: the uploader's own config for it
    # (e2e-test/case-1-3/cfg.json) sets presetValues {event_name: Purchase, currency: USD}.
    'meta-fb-uploader-preset': {'timezone': 'UTC', 'currency': 'USD', 'event_name': 'Purchase'},
    'meta-fb-uploader-rich': {'timezone': 'UTC'},
    'meta-fb-uploader-simple': {'timezone': 'UTC'},
    'paypal-asendice-amount': {'timezone': 'America/Los_Angeles', 'date_order': 'MDY'},
    'paypal-balanco-ptbr': {'timezone': 'America/Sao_Paulo', 'date_order': 'DMY', 'decimal': ','},
    'paypal-ejbest': {'timezone': 'America/New_York', 'date_order': 'MDY'},
    'paypal-zuniga': {'timezone': 'America/Los_Angeles', 'date_order': 'MDY'},
    'shopify-abandoned-monfrere': {'timezone': 'America/Los_Angeles'},
    'shopify-autofulfill': {'timezone': 'America/Vancouver'},  # CAD, -0700 in Mar/Apr
    'shopify-bibiwatson-excel': {'timezone': 'America/Toronto', 'date_order': 'DMY'},  # CAD
    'shopify-explorer': {'timezone': 'America/New_York'},  # -0400/-0500
    'shopify-kidsliving': {'timezone': 'Africa/Johannesburg'},  # ZAR, +0200
    'shopify-maison-maria': {'timezone': 'Europe/London'},  # GBP, +0000/+0100
    'shopify-maison-maria-custom': {'timezone': 'Europe/London', 'currency': 'GBP'},
    'shopify-scarica-eur': {'timezone': 'Europe/Rome'},  # EUR, +0100, Italian shop
    'shopify-teste-brl': {'timezone': 'America/Sao_Paulo', 'date_order': 'DMY'},  # BRL
    'shopify-zhangerson': {'timezone': 'Asia/Dhaka'},  # BDT (its offsets +0400/+0500 disagree)
    'stripe-fmm': {'timezone': 'UTC'},
    'stripe-meedi8': {'timezone': 'UTC'},
    'stripe-primeorca': {'timezone': 'UTC'},
    'stripe-streaming-overlays': {'timezone': 'UTC'},
    'stripe-verdigris': {'timezone': 'UTC'},
    'woocommerce-pmd': {'timezone': 'America/New_York', 'currency': 'USD'},  # US shop, $ prices
}
DEFAULT_CONFIG = {'timezone': 'UTC', 'date_order': 'MDY', 'decimal': '.'}

# ---------------------------------------------------------------------------------------------
# Zone abbreviations (issue 10): an abbreviation is an OFFSET. The record's zone is the configured
# zone when that zone has that offset at that instant, else the abbreviation's usual zone.
# BRT (Brasilia time, -3) is added because paypal-balanco-ptbr writes it.
# ---------------------------------------------------------------------------------------------
ABBREVIATIONS = {
    # abbreviation: (offset minutes east of UTC, usual zone)
    'PDT': (-420, 'America/Los_Angeles'),
    'PST': (-480, 'America/Los_Angeles'),
    'MDT': (-360, 'America/Denver'),
    'MST': (-420, 'America/Denver'),
    'CDT': (-300, 'America/Chicago'),
    'CST': (-360, 'America/Chicago'),
    'EDT': (-240, 'America/New_York'),
    'EST': (-300, 'America/New_York'),
    'CET': (60, 'Europe/Paris'),
    'CEST': (120, 'Europe/Paris'),
    'BST': (60, 'Europe/London'),  # British Summer Time by default
    'GMT': (0, 'Europe/London'),
    'UTC': (0, 'UTC'),
    'BRT': (-180, 'America/Sao_Paulo'),
}

# ISO 4217 minor units; every currency not listed has 2.
MINOR_UNITS = {
    'BHD': 3, 'IQD': 3, 'JOD': 3, 'KWD': 3, 'LYD': 3, 'OMR': 3, 'TND': 3,
    'BIF': 0, 'CLP': 0, 'DJF': 0, 'GNF': 0, 'ISK': 0, 'JPY': 0, 'KMF': 0, 'KRW': 0, 'PYG': 0,
    'RWF': 0, 'UGX': 0, 'UYI': 0, 'VND': 0, 'VUV': 0, 'XAF': 0, 'XOF': 0, 'XPF': 0,
}


# =============================================================================================
# Reading: encoding, preamble, delimiter, physical lines
# =============================================================================================

def read_text(path):
    """Decode a file: UTF-16 by BOM, UTF-8 (BOM or not), else windows-1252."""
    raw = open(path, 'rb').read()
    if raw.startswith(b'\xff\xfe'):
        return raw[2:].decode('utf-16-le'), 'utf-16le+bom'
    if raw.startswith(b'\xfe\xff'):
        return raw[2:].decode('utf-16-be'), 'utf-16be+bom'
    if raw.startswith(b'\xef\xbb\xbf'):
        return raw[3:].decode('utf-8'), 'utf-8+bom'
    try:
        return raw.decode('utf-8'), 'utf-8'
    except UnicodeDecodeError:
        return raw.decode('cp1252'), 'windows-1252'


def physical_lines(text):
    """Split on \\n only (a \\r\\n ending keeps its \\r for the csv module); keeps the endings."""
    parts = text.split('\n')
    lines = [p + '\n' for p in parts[:-1]]
    if parts[-1] != '':
        lines.append(parts[-1])
    return lines


def cells_of(line, delimiter):
    return next(csv.reader([line], delimiter=delimiter), [])


def find_header(lines):
    """Index of the header line and the delimiter.

    Rule: `#` comment blocks and report titles before the header are not data. A line starting with
    `#` is a comment; a line that is a single cell under every delimiter (a report title such as
    `Campaign report`, or a date range) is a title. The delimiter is the one of `,` `;` tab that
    splits the header into the most cells.
    """
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped == '' or stripped.startswith('#'):
            continue
        best = max((',', ';', '\t'), key=lambda d: len(cells_of(line, d)))
        if len(cells_of(line, best)) >= 2:
            return i, best
    raise ValueError('no header line found')


TOTAL_ROW = re.compile(r'^\s*(grand\s+)?totals?\b', re.IGNORECASE)


def read_table(path):
    """Parse one export into (meta, header, data rows).

    Each data row is (line, cells) where line is the 1-based physical line of the row's first line,
    counting the preamble and the header. Blank rows and total rows are not data (rule: a
    `Totals`/`Total`/`Grand total` row at the end is not data; blank rows are not data).
    """
    text, encoding = read_text(path)
    lines = physical_lines(text)
    start, delimiter = find_header(lines)
    reader = csv.reader(iter(lines[start:]), delimiter=delimiter)
    header = [h.strip().lstrip('\ufeff') for h in next(reader)]
    rows, blank, totals = [], 0, 0
    consumed = reader.line_num
    for cells in reader:
        first_line = start + consumed + 1
        consumed = reader.line_num
        if all(c.strip() == '' for c in cells):
            blank += 1
            continue
        if cells and TOTAL_ROW.match(cells[0]):
            totals += 1
            continue
        rows.append((first_line, cells))
    meta = {
        'encoding': encoding,
        'delimiter': {',': ',', ';': ';', '\t': 'tab'}[delimiter],
        'preambleLines': start,
        'blankRows': blank,
        'totalRows': totals,
        'replacementChars': text.count('\ufffd'),
    }
    return meta, header, rows


def loose(name):
    """Column-name key: lower case, ASCII letters and digits only. `Líquido` and a damaged
    `L\ufffdquido` both become `lquido`, so Portuguese headers with broken accents still match."""
    return re.sub(r'[^a-z0-9]', '', name.lower())


class Row:
    """One data row with look-up by column name (exact, then loose)."""

    def __init__(self, header, line, cells):
        self.line = line
        self.values = {}
        self.loose_values = {}
        for i, name in enumerate(header):
            value = cells[i].strip() if i < len(cells) else ''
            # Rule (Meta uploader files): duplicated headers (three `email` columns): the first wins.
            self.values.setdefault(name, value)
            self.loose_values.setdefault(loose(name), value)

    def get(self, *names):
        for name in names:
            if name in self.values:
                return self.values[name]
            if loose(name) in self.loose_values:
                return self.loose_values[loose(name)]
        return None

    def has(self, name):
        return name in self.values or loose(name) in self.loose_values


# =============================================================================================
# Values
# =============================================================================================

def parse_amount(text, decimal='.'):
    """A display-formatted amount as Decimal, or None when empty. `decimal` is the file's decimal
    mark; the other mark is a grouping separator (`3,000.00`, `1.393,88`)."""
    if text is None:
        return None
    s = text.strip().replace('\u00a0', '').replace(' ', '')
    if s in ('', '-', '--'):
        return None
    negative = s.startswith('(') and s.endswith(')')
    if negative:
        s = s[1:-1]
    if decimal == '.':
        s = s.replace(',', '')
    else:
        s = s.replace('.', '').replace(',', '.')
    try:
        value = Decimal(s)
    except InvalidOperation:
        raise ValueError('invalid number')
    return -value if negative else value


def round_money(value, currency):
    """Rule: conversionValue rounded to ISO 4217 minor units (half up, i.e. away from zero)."""
    units = MINOR_UNITS.get(currency, 2)
    return value.quantize(Decimal(1).scaleb(-units), rounding=ROUND_HALF_UP)


def normalize_currency(text):
    """Rule: ISO 4217 upper case. Returns None when it is not three letters."""
    if text is None:
        return None
    code = text.strip().upper()
    return code if re.fullmatch(r'[A-Z]{3}', code) else None


# =============================================================================================
# Instants (issue 10)
# =============================================================================================

class DatetimeError(Exception):
    pass


def zone_offset_minutes(zone_name, instant):
    off = instant.astimezone(ZoneInfo(zone_name)).utcoffset()
    return int(off.total_seconds() // 60)


def fixed_zone_for(offset_minutes):
    """Zone id for an offset that the configured zone does not have: `UTC` or `Etc/GMT-2` for
    +02:00 (the Etc sign is inverted). Offsets that are not whole hours have no Etc id."""
    if offset_minutes == 0:
        return 'UTC'
    if offset_minutes % 60 == 0:
        hours = -offset_minutes // 60
        return 'Etc/GMT%+d' % hours
    return None


LOCAL_ISO = re.compile(r'(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?')
LOCAL_DMY = re.compile(r'(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?')


def parse_local(text, date_order):
    """A wall-clock time without zone: `yyyy-MM-dd[ T]H:mm[:ss[.fff]]`, or d/m/y in `date_order`
    (`MM/dd/yyyy`, `dd/MM/yyyy`, `dd-MM-yyyy`, `MM/dd/yy`), with optional `H:mm[:ss]` and AM/PM.
    Date-only values are midnight (a policy choice: see README)."""
    s = text.strip()
    m = LOCAL_ISO.fullmatch(s)
    if m:
        y, mo, d, h, mi, sec, frac = m.groups()
        micro = int((frac or '0').ljust(6, '0')[:6])
        return datetime(int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(sec or 0), micro)
    m = LOCAL_DMY.fullmatch(s)
    if m:
        a, b, y, h, mi, sec, ampm = m.groups()
        month, day = (int(a), int(b)) if date_order == 'MDY' else (int(b), int(a))
        year = int(y)
        if len(y) == 2:
            year += 2000  # two-digit years (Etsy `MM/dd/yy`) are 20yy
        hour = int(h or 0)
        if ampm:
            hour = hour % 12 + (12 if ampm.lower() == 'pm' else 0)
        return datetime(year, month, day, hour, int(mi or 0), int(sec or 0))
    raise DatetimeError('invalid datetime')


def localize(naive, zone_name):
    """A wall-clock time in an IANA zone -> aware UTC instant. A time in a spring-forward gap is
    invalid ('nonexistent local time'); an ambiguous one takes the earlier instant (fold=0)."""
    zone = ZoneInfo(zone_name)
    aware = naive.replace(tzinfo=zone, fold=0)
    instant = aware.astimezone(UTC)
    if instant.astimezone(zone).replace(tzinfo=None) != naive:
        raise DatetimeError('nonexistent local time')
    return instant


OFFSET_SUFFIX = re.compile(r'(.*?)\s*(Z|[+-]\d{2}:?\d{2})')
ABBR_SUFFIX = re.compile(r'(.*?)\s+([A-Za-z]{2,5})')


def resolve_instant(text, config_zone, date_order='MDY', zone_text=None, column_is_utc=False):
    """Read one datetime value. Returns dict(instant, zone, offset, source).

    Rules (issue 10):
    - epoch numbers by digit count: 10 s, 13 ms, 16 us, 19 ns (truncated to ms);
    - an offset written in the value (`+0200`, `Z`) makes an exact instant;
    - an abbreviation (after the time, or in a zone column given as zone_text) is an offset;
      the zone is the configured zone when it has that offset at that instant, else the usual zone;
    - otherwise the wall-clock time is in the configured zone.
    column_is_utc: the header names the zone (Stripe `Created date (UTC)`), same as a `Z`.
    """
    s = (text or '').strip()
    if s == '':
        raise DatetimeError('missing datetime')

    if re.fullmatch(r'\d{10}|\d{13}|\d{16}|\d{19}', s):
        digits = len(s)
        ms = {10: int(s) * 1000, 13: int(s), 16: int(s) // 1000, 19: int(s) // 1000000}[digits]
        instant = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=ms)
        return {'instant': instant, 'zone': config_zone,
                'offset': zone_offset_minutes(config_zone, instant), 'source': 'epoch%d' % digits}

    offset = None
    abbreviation = None
    m = OFFSET_SUFFIX.fullmatch(s)
    if m and m.group(1) and re.search(r'\d:\d', m.group(1) + ' '):
        s, written = m.group(1), m.group(2)
        if written == 'Z':
            offset = 0
        else:
            sign = 1 if written[0] == '+' else -1
            digits = written[1:].replace(':', '')
            offset = sign * (int(digits[:2]) * 60 + int(digits[2:]))
    else:
        m = ABBR_SUFFIX.fullmatch(s)
        if m and m.group(2).upper() in ABBREVIATIONS:
            s, abbreviation = m.group(1), m.group(2).upper()
    if zone_text and offset is None and abbreviation is None:
        z = zone_text.strip().upper()
        if z in ABBREVIATIONS:
            abbreviation = z
        elif re.fullmatch(r'[+-]\d{2}:?\d{2}', z):
            sign = 1 if z[0] == '+' else -1
            digits = z[1:].replace(':', '')
            offset = sign * (int(digits[:2]) * 60 + int(digits[2:]))
        elif z:
            try:
                ZoneInfo(zone_text.strip())
            except Exception:
                raise DatetimeError('unknown time zone')
            naive = parse_local(s, date_order)
            instant = localize(naive, zone_text.strip())
            return {'instant': instant, 'zone': zone_text.strip(),
                    'offset': zone_offset_minutes(zone_text.strip(), instant), 'source': 'zone-column'}
    if column_is_utc and offset is None and abbreviation is None:
        offset = 0

    naive = parse_local(s, date_order)
    if abbreviation is not None:
        offset, usual = ABBREVIATIONS[abbreviation]
        instant = (naive - timedelta(minutes=offset)).replace(tzinfo=UTC)
        zone = config_zone if zone_offset_minutes(config_zone, instant) == offset else usual
        return {'instant': instant, 'zone': zone, 'offset': offset, 'source': 'abbr:' + abbreviation,
                'usualZone': usual}
    if offset is not None:
        instant = (naive - timedelta(minutes=offset)).replace(tzinfo=UTC)
        # Policy (no rule in the issues for numeric offsets): the configured zone when it has that
        # offset at that instant, else a fixed-offset zone (UTC / Etc/GMT-2).
        if zone_offset_minutes(config_zone, instant) == offset:
            zone = config_zone
        else:
            zone = fixed_zone_for(offset) or config_zone
        return {'instant': instant, 'zone': zone, 'offset': offset,
                'source': 'utc-column' if column_is_utc else 'offset', 'usualZone': config_zone}
    instant = localize(naive, config_zone)
    return {'instant': instant, 'zone': config_zone,
            'offset': zone_offset_minutes(config_zone, instant), 'source': 'local'}


def format_instant(instant):
    """`YYYY-MM-DDTHH:mm:ss.sssZ` (milliseconds, truncated)."""
    instant = instant.astimezone(UTC)
    return instant.strftime('%Y-%m-%dT%H:%M:%S') + '.%03dZ' % (instant.microsecond // 1000)


# =============================================================================================
# Collecting the result
# =============================================================================================

class Result:
    def __init__(self, folder, file, meta, config, now):
        self.folder = folder
        self.file = file
        self.meta = meta
        self.config = config
        self.now = now
        self.rows = 0
        self.platform = None
        self.records = []
        self.skipped = Counter()
        self.invalid = Counter()
        self.notes = []

    def skip(self, reason, n=1):
        self.skipped[reason] += n

    def candidate(self, line, conversion_id, value, currency, when, link=None):
        """Check one record that the policy says should be sent; add it or count it invalid.

        value: Decimal or None or the string 'invalid number'; currency: raw text or None;
        when: a callable returning resolve_instant(...) (it may raise DatetimeError).
        link: 'email' or 'serviceId' when the row has a non-empty e-mail / visitor id cell (only
        which kind is recorded, never the cell), else None.
        One reason per rejected record, in the order value, currency, datetime.
        """
        if value is None:
            self.invalid['missing value'] += 1
            return
        if isinstance(value, str):
            self.invalid[value] += 1
            return
        # Rule (issue 9): negative values are refunds, not sales (they are netted, never sent).
        if value < 0:
            self.invalid['negative value'] += 1
            return
        code = normalize_currency(currency)
        if code is None:
            self.invalid['missing currency' if not (currency or '').strip() else 'invalid currency'] += 1
            return
        try:
            at = when()
        except DatetimeError as e:
            self.invalid[str(e)] += 1
            return
        except Exception:
            self.invalid['invalid datetime'] += 1
            return
        # Rule (issue 10): before 2000-01-01Z or more than 1 day after now: implausible.
        if at['instant'] < EARLIEST or at['instant'] > self.now + LATEST_AHEAD:
            self.invalid['implausible datetime'] += 1
            return
        record = OrderedDict()
        record['line'] = line
        record['conversionId'] = conversion_id or None
        record['conversionDatetime'] = format_instant(at['instant'])
        record['conversionTimezone'] = at['zone']
        record['offsetMinutes'] = at['offset']
        record['conversionValue'] = str(round_money(value, code))
        record['conversionCurrency'] = code
        record['timeSource'] = at['source']
        if 'usualZone' in at:
            record['usualZone'] = at['usualZone']
        record['link'] = link
        self.records.append(record)

    def to_json(self):
        totals = OrderedDict()
        for r in self.records:
            totals[r['conversionCurrency']] = totals.get(r['conversionCurrency'], Decimal(0)) + Decimal(r['conversionValue'])
        out = OrderedDict()
        out['folder'] = self.folder
        out['file'] = self.file
        out['platform'] = self.platform
        out['encoding'] = self.meta['encoding']
        out['delimiter'] = self.meta['delimiter']
        out['preambleLines'] = self.meta['preambleLines']
        out['config'] = self.config
        out['rows'] = self.rows
        out['records'] = self.records
        out['skipped'] = dict(sorted(self.skipped.items()))
        out['invalid'] = dict(sorted(self.invalid.items()))
        out['totals'] = {k: str(v) for k, v in sorted(totals.items())}
        # A CRM record needs a serviceId or an e-mail: records without either are rejected by
        # revimport unless a linking column is mapped. Counted here, not applied.
        out['unlinked'] = sum(1 for r in self.records if not r['link'])
        out['notes'] = self.notes
        return out


def fold(rows, key_column):
    """Rule (issue 9): line-item exports: one order per key; order-level columns are read from the
    FIRST row of each order only (later rows are empty, or repeat them: never summed)."""
    orders = OrderedDict()
    for row in rows:
        orders.setdefault(row.get(key_column), []).append(row)
    return orders


# =============================================================================================
# Shopify
# =============================================================================================

# Rule (issue 9): pending / authorized / voided / expired orders are skipped (no money captured).
SHOPIFY_SKIP = {'pending': 'pending', 'authorized': 'authorized', 'voided': 'voided',
                'expired': 'expired', 'unpaid': 'unpaid'}


def shopify(res, header, rows):
    cfg = res.config
    has_status = 'Financial Status' in header
    if 'Order Name' in header and 'Total Cost' in header:
        return shopify_custom(res, header, rows)
    statuses = [r.get('Financial Status') for r in rows if r.get('Financial Status')]
    if not statuses:
        # Rule: an abandoned-checkouts export (same header, no Financial Status, no Paid at) is not
        # revenue at all: zero records.
        res.platform = 'shopify-abandoned-checkouts'
        orders = fold(rows, 'Name')
        res.skip('abandoned checkout (not an order)', len(orders))
        return
    res.platform = 'shopify-orders'
    if 'Total' not in header:
        res.notes.append('no Total column (spreadsheet re-save dropped it): no value for any order')
    orders = fold(rows, 'Name')
    for name, order_rows in orders.items():
        first = order_rows[0]
        status = (first.get('Financial Status') or '').lower()
        if status in SHOPIFY_SKIP:
            res.skip(SHOPIFY_SKIP[status])
            continue
        if status not in ('paid', 'partially_paid', 'partially_refunded', 'refunded'):
            res.skip('unknown financial status')
            continue
        # Policy (judgment, see README): a `refunded` status means the whole payment went back,
        # even where Total - Refunded Amount leaves a few cents (shopify-scarica-eur).
        if status == 'refunded':
            res.skip('refunded')
            continue
        try:
            total = parse_amount(first.get('Total'))
            refunded = parse_amount(first.get('Refunded Amount')) or Decimal(0)
            outstanding = parse_amount(first.get('Outstanding Balance')) or Decimal(0)
        except ValueError:
            res.candidate(first.line, name, 'invalid number', None, None)
            continue
        if total is None:
            res.candidate(first.line, name, None, first.get('Currency'), None)
            continue
        # Rule (issue 9): refunds net by default (Total - Refunded Amount); partially_paid sends
        # Total - Outstanding Balance. Policy: Outstanding Balance (money still owed) is taken off
        # for every counted status, not only partially_paid (see README: shopify-autofulfill).
        value = total - refunded - (outstanding if outstanding > 0 else Decimal(0))
        if value <= 0:
            # Rule: an order with nothing left after refunds is skipped; a 0.00 order has no money.
            res.skip('nothing left after refunds' if refunded > 0 else 'zero total')
            continue
        paid_at = first.get('Paid at')
        # Rule: an empty `Paid at` with captured money takes `Created at`.
        when_text = paid_at if paid_at else first.get('Created at')
        if not paid_at:
            res.notes.append('%s: empty Paid at, Created at used' % name)
        # Rule: a cancelled order whose payment was kept (paid, nothing refunded) counts: the
        # `Cancelled at` column is deliberately not looked at.
        res.candidate(first.line, name, value, first.get('Currency') or cfg.get('currency'),
                      lambda t=when_text: resolve_instant(t, cfg['timezone'], cfg.get('date_order', 'MDY')),
                      link='email' if (first.get('Email')) else None)


def shopify_custom(res, header, rows):
    """shopify-maison-maria-custom: a hand-made sheet (Order Name, Date, Total Cost, ...): no status,
    no refunds, no currency, no offset. Policy: every order counts, Total Cost of its first row,
    Date in the configured zone, configured currency."""
    res.platform = 'shopify-custom-sheet'
    cfg = res.config
    for name, order_rows in fold(rows, 'Order Name').items():
        first = order_rows[0]
        try:
            value = parse_amount(first.get('Total Cost'))
        except ValueError:
            value = 'invalid number'
        res.candidate(first.line, name, value, cfg.get('currency'),
                      lambda t=first.get('Date'): resolve_instant(t, cfg['timezone'], cfg.get('date_order', 'MDY')),
                      link='email' if (first.get('email')) else None)


# =============================================================================================
# Stripe
# =============================================================================================

def stripe(res, header, rows):
    cfg = res.config
    res.platform = 'stripe-payments'
    date_column = next((h for h in header if h.startswith('Created') and '(' in h), None)
    column_is_utc = bool(date_column and '(UTC)' in date_column)
    has_id = 'id' in header
    if not has_id:
        res.notes.append('no id column (custom column selection): records have no conversionId')
    seen = set()
    for row in rows:
        charge_id = row.get('id') if has_id else None
        # Rule: only rows with a charge/payment id: `ch_`/`py_`, or any non-empty id in older
        # layouts. Rows with an empty id are PaymentIntent attempts (requires_payment_method...).
        if has_id:
            if not charge_id:
                res.skip('no charge id (payment attempt)')
                continue
            if charge_id.startswith(('pi_', 'in_', 'cs_')):
                res.skip('not a charge id')
                continue
        status = (row.get('Status') or '').strip().lower()
        # Rule: a paid status counts (Paid, Refunded, Partially refunded); not Failed, Canceled,
        # requires_*; Pending (ACH not settled) is skipped like a pending order.
        if status.startswith('requires_') or status in ('failed', 'canceled', 'cancelled'):
            res.skip('status %s' % (status if not status.startswith('requires_') else 'requires_*'))
            continue
        if status == 'pending':
            res.skip('pending')
            continue
        if status not in ('paid', 'refunded', 'partially refunded', 'succeeded', 'disputed'):
            res.skip('unknown status')
            continue
        captured = (row.get('Captured') or '').strip().lower()
        if captured in ('false', 'no'):
            res.skip('not captured (authorized)')
            continue
        try:
            amount = parse_amount(row.get('Amount'))
            refunded = parse_amount(row.get('Amount Refunded')) or Decimal(0)
        except ValueError:
            res.candidate(row.line, charge_id, 'invalid number', None, None)
            continue
        if amount is None:
            res.candidate(row.line, charge_id, None, row.get('Currency'), None)
            continue
        # Rule (issue 9): Amount - Amount Refunded; nothing left -> skipped.
        value = amount - refunded
        if value <= 0:
            res.skip('nothing left after refunds')
            continue
        if charge_id and charge_id in seen:
            res.skip('duplicate id')
            continue
        seen.add(charge_id)
        res.candidate(row.line, charge_id, value, row.get('Currency') or cfg.get('currency'),
                      lambda t=row.get(date_column): resolve_instant(t, cfg['timezone'], 'MDY', None, column_is_utc),
                      link='email' if (row.get('Customer Email')) else None)


# =============================================================================================
# PayPal
# =============================================================================================

# Policy (issue 9 + the files): a sale is a COMPLETED received payment of one of these types with a
# POSITIVE gross. Types compared in lower case. English names from the brief and from the three
# US files; the Portuguese one from paypal-balanco-ptbr ("recurring payment received").
PAYPAL_SALE_TYPES = {
    'express checkout payment', 'website payment', 'paypal here payment', 'mobile payment',
    'subscription payment', 'recurring payment', 'ebay auction payment', 'payment received',
    'preapproved payment bill user payment', 'shopping cart payment', 'virtual terminal payment',
    'pagamento recorrente recebido', 'pagamento recebido',
}
# Everything else is not a sale; grouped for the skip counts (exact list in README).
PAYPAL_NOT_SALE = [
    ('memo (invoice / authorization)', ('invoice sent', 'general authorization', 'reauthorization',
                                         'void of authorization', 'authorization')),
    ('hold / release', ('payment hold', 'payment release', 'account hold', 'reversal of general account hold',
                        'hold on balance', 'cancellation of hold')),
    ('card purchase / cash back', ('general paypal debit card transaction', 'debit card cash back')),
    ('transfer / withdrawal / deposit', ('general withdrawal', 'bank deposit', 'general card deposit',
                                         'recursos transferidos', 'transfer')),
    ('tax / fee', ('tax collected', 'fee')),
    ('credit, not a sale', ('non reference credit payment',)),
]
COMPLETED = {'completed', 'concludo'}  # loose('Concluído') == loose('Conclu\ufffddo') == 'concludo'


def paypal_category(type_name):
    t = type_name.strip().lower()
    for label, prefixes in PAYPAL_NOT_SALE:
        if any(t.startswith(p) for p in prefixes):
            return label
    return None


def paypal(res, header, rows):
    cfg = res.config
    res.platform = 'paypal-activity'
    decimal = cfg.get('decimal', '.')
    has_txn = any(loose(h) in ('transactionid', 'iddatransao') for h in header)
    gross_column = 'Gross' if any(loose(h) in ('gross', 'valorbruto') for h in header) else 'Amount'
    if not has_txn:
        res.notes.append('no Transaction ID column: records have no conversionId')

    def txn_id(row):
        value = row.get('Transaction ID', 'ID da transação')
        # Policy: a spreadsheet-mangled id (`1,23456765432346E+021`, the same for every row) is no id.
        if value and re.fullmatch(r'[\d,.]+E\+\d+', value, re.IGNORECASE):
            return None
        return value or None

    if has_txn and any(txn_id(r) is None for r in rows if r.get('Transaction ID', 'ID da transação')):
        res.notes.append('Transaction IDs are spreadsheet-mangled (scientific notation): not used as conversionId')

    sales = OrderedDict()  # key -> dict(row, value)
    refunds = []
    for row in rows:
        type_name = (row.get('Type', 'Tipo') or '').strip()
        t = type_name.lower()
        status = loose(row.get('Status') or '')
        try:
            gross = parse_amount(row.get(gross_column, 'Valor bruto'), decimal)
        except ValueError:
            gross = None
        if 'refund' in t or 'reembolso' in t:
            refunds.append((row, gross))
            continue
        if t in PAYPAL_SALE_TYPES:
            if status not in COMPLETED:
                res.skip('sale not completed')
                continue
            if gross is None or gross <= 0:
                res.skip('outgoing payment (negative gross)')
                continue
            key = txn_id(row) or ('line', row.line)
            if key in sales:
                res.skip('duplicate id')
                continue
            sales[key] = {'row': row, 'value': gross}
            continue
        res.skip('not a sale: ' + (paypal_category(type_name) or 'other type'))

    # Rule (issue 9): refunds are netted against their original through `Reference Txn ID` when
    # present. A refund without a usable reference is not netted (see README: paypal-asendice-amount).
    for row, gross in refunds:
        ref = row.get('Reference Txn ID', 'ID txn. de referência')
        if ref and ref in sales and gross is not None:
            sales[ref]['value'] += gross  # gross is negative
            res.skip('refund (netted)')
        else:
            res.skip('refund (no reference, not netted)')

    for key, sale in sales.items():
        row, value = sale['row'], sale['value']
        if value <= 0:
            res.skip('nothing left after refunds')
            continue
        conversion_id = key if not isinstance(key, tuple) else None
        date_text = row.get('Date', 'Data')
        time_text = row.get('Time', 'Hora')
        zone_text = row.get('TimeZone', 'Fuso horário')
        res.candidate(row.line, conversion_id, value, row.get('Currency', 'Moeda') or cfg.get('currency'),
                      lambda d=date_text, t=time_text, z=zone_text:
                      resolve_instant('%s %s' % (d, t), cfg['timezone'], cfg.get('date_order', 'MDY'), z),
                      link='email' if (row.get('From Email Address', 'Do e-mail')) else None)


# =============================================================================================
# Meta
# =============================================================================================

def meta(res, header, rows):
    cfg = res.config
    res.platform = 'meta-events'
    has_event = any(h in ('event_name',) for h in header)
    value_column = next((h for h in header if h in ('value', 'custom.value', 'custom_data.value')), None)
    currency_column = next((h for h in header if h in ('currency', 'custom.currency', 'custom_data.currency')), None)
    id_column = next((h for h in header if h in ('order_id', 'custom.order_id', 'custom_data.order_id')), None)
    if not has_event:
        res.notes.append('no event_name column: event name %r from the uploader config' % cfg.get('event_name'))
    for row in rows:
        event = row.get('event_name') if has_event else cfg.get('event_name')
        # Rule: only `Purchase` events count as revenue (compared without case: rich.csv writes PURCHASE).
        if (event or '').strip().lower() != 'purchase':
            res.skip('event %s' % (event or '(none)'))
            continue
        try:
            value = parse_amount(row.get(value_column)) if value_column else None
        except ValueError:
            value = 'invalid number'
        currency = (row.get(currency_column) if currency_column else None) or cfg.get('currency')
        res.candidate(row.line, row.get(id_column) if id_column else None, value, currency,
                      lambda t=row.get('event_time'): resolve_instant(t, cfg['timezone']),
                      link='email' if (row.get('email', 'user.email')) else None)


# =============================================================================================
# WooCommerce
# =============================================================================================

def woocommerce(res, header, rows):
    cfg = res.config
    res.platform = 'woocommerce-orders'
    for order_id, order_rows in fold(rows, 'Order ID').items():
        first = order_rows[0]
        status = (first.get('Status') or '').lower()
        # Rule: statuses completed and processing count; everything else (failed, refunded,
        # cancelled, pending, on-hold) does not.
        if status not in ('completed', 'processing'):
            res.skip('status %s' % status)
            continue
        try:
            value = parse_amount(first.get('Total Amount', 'Order Total', 'Total'))
        except ValueError:
            value = 'invalid number'
        # Policy: Date Paid (the payment), else Date Created; both are site-local wall-clock times.
        when_text = first.get('Date Paid') or first.get('Date Created')
        res.candidate(first.line, order_id, value, first.get('Currency') or cfg.get('currency'),
                      lambda t=when_text: resolve_instant(t, cfg['timezone']),
                      link='email' if (first.get('Email')) else None)


# =============================================================================================
# Etsy
# =============================================================================================

def etsy(res, header, rows):
    cfg = res.config
    res.platform = 'etsy-sold-orders'
    for row in rows:
        try:
            adjusted = parse_amount(row.get('Adjusted Order Total'))
            total = parse_amount(row.get('Order Total'))
        except ValueError:
            res.candidate(row.line, row.get('Order ID'), 'invalid number', None, None)
            continue
        # Rule: `Order Total`, or `Adjusted Order Total` when non-zero (after a refund).
        value = adjusted if adjusted not in (None, Decimal(0)) else total
        # Rule: `Sale Date` is MM/dd/yy, a date only: midnight in the configured zone (policy).
        res.candidate(row.line, row.get('Order ID'), value, row.get('Currency') or cfg.get('currency'),
                      lambda t=row.get('Sale Date'): resolve_instant(t, cfg['timezone'], 'MDY'))


# =============================================================================================
# Google Ads click conversions (gclid)
# =============================================================================================

def gclid(res, header, rows):
    cfg = res.config
    res.platform = 'google-ads-click-conversions'
    value_column = next(h for h in header if 'value' in h.lower())
    time_column = next(h for h in header if h.lower() in ('timestamp', 'conversion time', 'conversion_time'))
    currency_column = next((h for h in header if 'currency' in h.lower()), None)
    for row in rows:
        try:
            value = parse_amount(row.get(value_column))
        except ValueError:
            value = 'invalid number'
        currency = (row.get(currency_column) if currency_column else None) or cfg.get('currency')
        # Policy: a gclid row is a conversion even with value 0 (a lead); no order id -> no conversionId.
        res.candidate(row.line, None, value, currency,
                      lambda t=row.get(time_column): resolve_instant(t, cfg['timezone']),
                      link='serviceId' if (row.get('cookie_id')) else None)


# =============================================================================================
# Reports that are not conversion exports
# =============================================================================================

def not_conversions(res, header, rows, platform, reason):
    """Rule: GA4 UI reports and Google Ads report downloads are aggregates (per campaign / per event
    name, over a date range), with no per-conversion time or id: zero records."""
    res.platform = platform
    res.skip(reason, len(rows))


# =============================================================================================
# Dispatch
# =============================================================================================

def platform_of(folder, header):
    prefix = folder.split('-')[0]
    if prefix in ('shopify', 'stripe', 'paypal', 'meta', 'woocommerce', 'etsy', 'gclid', 'ga4'):
        return prefix
    if folder.startswith('gads-report'):
        return 'gads-report'
    # Fallback by header
    h = set(header)
    if 'Financial Status' in h:
        return 'shopify'
    if 'id' in h and any(x.startswith('Created') for x in h):
        return 'stripe'
    if 'TimeZone' in h or 'Fuso horário' in h:
        return 'paypal'
    if 'event_name' in h or 'event_time' in h:
        return 'meta'
    raise ValueError('cannot tell the platform of %s' % folder)


def expected_for_file(folder_path, file_name, overrides, now):
    folder = os.path.basename(os.path.normpath(folder_path))
    config = dict(DEFAULT_CONFIG)
    config.update(FOLDER_CONFIG.get(folder, {}))
    config.update({k: v for k, v in overrides.items() if v})
    meta_info, header, raw_rows = read_table(os.path.join(folder_path, file_name))
    rows = [Row(header, line, cells) for line, cells in raw_rows]
    res = Result(folder, file_name, meta_info, config, now)
    res.rows = len(rows)
    if meta_info['replacementChars']:
        res.notes.append('%d U+FFFD replacement characters in the file (damaged before upload)'
                         % meta_info['replacementChars'])
    if meta_info['preambleLines']:
        res.notes.append('%d preamble line(s) before the header' % meta_info['preambleLines'])
    if meta_info['totalRows']:
        res.notes.append('%d total row(s) after the data' % meta_info['totalRows'])
    platform = platform_of(folder, header)
    if platform == 'shopify':
        shopify(res, header, rows)
    elif platform == 'stripe':
        stripe(res, header, rows)
    elif platform == 'paypal':
        paypal(res, header, rows)
    elif platform == 'meta':
        meta(res, header, rows)
    elif platform == 'woocommerce':
        woocommerce(res, header, rows)
    elif platform == 'etsy':
        etsy(res, header, rows)
    elif platform == 'gclid':
        gclid(res, header, rows)
    elif platform == 'gads-report':
        # `Conv. value` / `All conv. value` are values; `Conv. value / cost` is a ratio.
        has_value = any(h.strip().lower() in ('conv. value', 'all conv. value', 'conversion value') for h in header)
        not_conversions(res, header, rows, 'google-ads-report',
                        'aggregate campaign row' + (' (has Conv. value, no time or id)' if has_value else ' (no conversion value)'))
    elif platform == 'ga4':
        not_conversions(res, header, rows, 'ga4-ui-report', 'aggregate event-name row')
    # Duplicate conversionIds within one file would collapse on the CRM side: report them.
    ids = Counter(r['conversionId'] for r in res.records if r['conversionId'])
    dups = [k for k, n in ids.items() if n > 1]
    if dups:
        res.notes.append('%d duplicated conversionId(s)' % len(dups))
    return res.to_json()


def data_files(folder_path):
    return sorted(f for f in os.listdir(folder_path)
                  if f not in ('SOURCE.txt', 'README.md') and os.path.isfile(os.path.join(folder_path, f)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('folder')
    parser.add_argument('--file', help='one file of the folder (default: all of them)')
    parser.add_argument('--timezone', help='override the configured zone')
    parser.add_argument('--currency', help='override the configured currency')
    parser.add_argument('--root', default=REALWORLD)
    parser.add_argument('--now', help='ISO instant used as "now" (default: the clock)')
    args = parser.parse_args(argv)
    folder_path = args.folder if os.path.isdir(args.folder) else os.path.join(args.root, args.folder)
    now = datetime.fromisoformat(args.now.replace('Z', '+00:00')) if args.now else datetime.now(UTC)
    overrides = {'timezone': args.timezone, 'currency': args.currency}
    files = [args.file] if args.file else data_files(folder_path)
    results = [expected_for_file(folder_path, f, overrides, now) for f in files]
    json.dump(results[0] if len(results) == 1 else results, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
