#!/usr/bin/env python3
"""Unit tests of expected.py's instant and money rules on made-up values (no real export read).

    python3 -m unittest test_expected.py
"""

import os
import sys
import unittest
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import expected as e  # noqa: E402


def at(text, zone='UTC', order='MDY', zone_text=None, utc=False):
    r = e.resolve_instant(text, zone, order, zone_text, utc)
    return e.format_instant(r['instant']), r['zone'], r['offset']


class Instants(unittest.TestCase):
    def test_epoch_by_digit_count(self):
        self.assertEqual(at('1627406670')[0], '2021-07-27T17:24:30.000Z')
        self.assertEqual(at('1627406670123')[0], '2021-07-27T17:24:30.123Z')
        self.assertEqual(at('1627406670123456')[0], '2021-07-27T17:24:30.123Z')
        self.assertEqual(at('1627406670123456789')[0], '2021-07-27T17:24:30.123Z')

    def test_written_offset_is_exact(self):
        self.assertEqual(at('2019-03-04 10:00:00 +0200', 'Africa/Johannesburg'),
                         ('2019-03-04T08:00:00.000Z', 'Africa/Johannesburg', 120))
        # configured zone without that offset: a fixed-offset zone
        self.assertEqual(at('2019-03-04 10:00:00 +0200', 'Europe/Paris')[1], 'Etc/GMT-2')
        self.assertEqual(at('2018-02-13T15:43:23.000Z'), ('2018-02-13T15:43:23.000Z', 'UTC', 0))

    def test_abbreviation_is_an_offset(self):
        # consistent with the configured zone: keep it
        self.assertEqual(at('07/01/2024 14:02:11', 'America/Vancouver', zone_text='PDT'),
                         ('2024-07-01T21:02:11.000Z', 'America/Vancouver', -420))
        # not consistent: the abbreviation's usual zone, the instant from the abbreviation
        self.assertEqual(at('07/01/2024 14:02:11', 'Europe/Paris', zone_text='PDT'),
                         ('2024-07-01T21:02:11.000Z', 'America/Los_Angeles', -420))
        # PDT written in winter: the offset wins, usual zone
        self.assertEqual(at('12/01/2020 10:00:00', 'America/Los_Angeles', zone_text='PDT'),
                         ('2020-12-01T17:00:00.000Z', 'America/Los_Angeles', -420))
        self.assertEqual(at('2024-06-01 10:00 BST', 'Europe/Dublin'),
                         ('2024-06-01T09:00:00.000Z', 'Europe/Dublin', 60))
        self.assertEqual(at('2024-06-01 10:00 CEST', 'UTC')[1:], ('Europe/Paris', 120))

    def test_local_times(self):
        self.assertEqual(at('09/09/2025 23:01', 'America/Sao_Paulo', 'DMY')[0], '2025-09-10T02:01:00.000Z')
        self.assertEqual(at('07/16/22', 'America/New_York')[0], '2022-07-16T04:00:00.000Z')
        self.assertEqual(at('2025-07-01 2:19:42')[0], '2025-07-01T02:19:42.000Z')
        self.assertEqual(at('26-07-2018 10:25:10', 'America/Sao_Paulo', 'DMY', 'BRT')[0], '2018-07-26T13:25:10.000Z')
        with self.assertRaises(e.DatetimeError):
            at('03/10/2024 02:30:00', 'America/New_York')  # spring-forward gap

    def test_utc_column(self):
        self.assertEqual(at('2023-08-28 20:18', utc=True), ('2023-08-28T20:18:00.000Z', 'UTC', 0))


class Money(unittest.TestCase):
    def test_amounts(self):
        self.assertEqual(e.parse_amount('3,000.00'), Decimal('3000.00'))
        self.assertEqual(e.parse_amount('1393,88', ','), Decimal('1393.88'))
        self.assertEqual(e.parse_amount('-2,52', ','), Decimal('-2.52'))
        self.assertIsNone(e.parse_amount(' -- '))

    def test_rounding_to_minor_units(self):
        self.assertEqual(str(e.round_money(Decimal('12.345'), 'EUR')), '12.35')
        self.assertEqual(str(e.round_money(Decimal('1234.5'), 'JPY')), '1235')
        self.assertEqual(str(e.round_money(Decimal('1.2345'), 'KWD')), '1.235')
        self.assertEqual(str(e.round_money(Decimal('49.0'), 'GBP')), '49.00')


class Reading(unittest.TestCase):
    def test_header_after_preamble(self):
        lines = e.physical_lines('# comment\n# more\nCampaign report\n"March 1, 2024 - March 31, 2024"\nA,B\n1,2\n')
        self.assertEqual(e.find_header(lines), (4, ','))
        lines = e.physical_lines('A;B;C\r\n1;2;3\r\n')
        self.assertEqual(e.find_header(lines), (0, ';'))


if __name__ == '__main__':
    unittest.main()
