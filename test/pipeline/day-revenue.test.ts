// The run report's revenue per local day and currency (issue 25): each record on the day of its own zone,
// summed exactly in minor units.
import { describe, expect, it } from 'vitest';
import { DayRevenueTally } from '../../src/pipeline/day-revenue.js';
import type { ConversionRecord } from '../../src/record/fields.js';
import { localDayNumber as localDayOf } from '../../src/record/local-day.js';

const record = (value: number, currency: string, at: string, zone: string): ConversionRecord => ({
  conversionValue: value,
  conversionCurrency: currency,
  conversionDatetime: at,
  conversionTimezone: zone,
  serviceId: 's',
});

const days = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);

describe('localDayOf', () => {
  it.each([
    ['2024-05-01T22:30:00.000Z', 'Europe/Berlin', '2024-05-02'],
    ['2024-05-01T21:59:59.999Z', 'Europe/Berlin', '2024-05-01'],
    ['2024-05-02T03:00:00.000Z', 'America/New_York', '2024-05-01'],
    ['2024-03-10T07:30:00.000Z', 'America/New_York', '2024-03-10'],
    ['2024-12-31T23:00:00.000Z', 'UTC', '2024-12-31'],
    ['2024-12-31T11:00:00.000Z', 'Pacific/Kiritimati', '2025-01-01'],
    ['1969-12-31T23:00:00.000Z', 'Etc/GMT+2', '1969-12-31'],
  ])('%s in %s is %s', (iso, zone, day) => {
    expect(days(localDayOf(iso, zone))).toBe(day);
  });
});

describe('DayRevenueTally', () => {
  it('sums per local day and currency, exactly, sorted by day then currency', () => {
    const tally = new DayRevenueTally();
    tally.add(record(0.1, 'EUR', '2024-05-01T10:00:00.000Z', 'Europe/Berlin'));
    tally.add(record(0.2, 'EUR', '2024-05-01T11:00:00.000Z', 'Europe/Berlin'));
    tally.add(record(300, 'EUR', '2024-05-01T22:30:00.000Z', 'Europe/Berlin'));
    tally.add(record(1000, 'JPY', '2024-05-01T16:00:00.000Z', 'Asia/Tokyo'));
    tally.add(record(1.2345, 'KWD', '2024-05-01T10:00:00.000Z', 'UTC'));
    tally.add(record(-20, 'EUR', '2024-05-02T08:00:00.000Z', 'Europe/Berlin'));
    expect(tally.toJSON()).toEqual([
      { day: '2024-05-01', currency: 'EUR', records: 2, value: 0.3 },
      { day: '2024-05-01', currency: 'KWD', records: 1, value: 1.235 },
      { day: '2024-05-02', currency: 'EUR', records: 2, value: 280 },
      { day: '2024-05-02', currency: 'JPY', records: 1, value: 1000 },
    ]);
  });

  it('keeps days far apart and on both sides of the first one, a stray year included', () => {
    const tally = new DayRevenueTally();
    const at = (iso: string, value: number) => tally.add(record(value, 'USD', iso, 'UTC'));
    at('2024-05-01T10:00:00.000Z', 1);
    at('2024-09-30T10:00:00.000Z', 2);
    at('2023-01-02T10:00:00.000Z', 4);
    at('2001-01-01T10:00:00.000Z', 8);
    at('2024-05-01T11:00:00.000Z', 16);
    at('2001-01-01T12:00:00.000Z', 32);
    expect(tally.toJSON()).toEqual([
      { day: '2001-01-01', currency: 'USD', records: 2, value: 40 },
      { day: '2023-01-02', currency: 'USD', records: 1, value: 4 },
      { day: '2024-05-01', currency: 'USD', records: 2, value: 17 },
      { day: '2024-09-30', currency: 'USD', records: 1, value: 2 },
    ]);
  });

  it('counts a record resent from an older ledger on its UTC day: an offset, no zone, an unknown zone; an unreadable one not', () => {
    const tally = new DayRevenueTally();
    const old = (at: string, zone: string | undefined) =>
      tally.add({ ...record(10, 'EUR', at, 'UTC'), conversionTimezone: zone as string });
    old('2026-11-01T23:30:00+01:00', undefined);
    old('2026-11-01T23:30:00.000Z', 'Mars/Olympus');
    old('not a date', 'UTC');
    expect(tally.toJSON()).toEqual([{ day: '2026-11-01', currency: 'EUR', records: 2, value: 20 }]);
  });

  it('is empty without records', () => {
    expect(new DayRevenueTally().toJSON()).toEqual([]);
  });
});
