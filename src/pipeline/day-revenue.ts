// Revenue per local day and currency for the run report (issue 25): each record counted on the day of its
// own conversionTimezone, summed exactly in minor units. Per record: a fixed-position parse of the ISO
// instant and zone.ts's cached offset, no Date and no Intl formatter (the 1M-row push must not feel it).

import { civilFromDays, MS_PER_DAY, wallMs } from '../record/calendar.js';
import { minorUnits } from '../record/currency.js';
import type { ConversionRecord } from '../record/fields.js';
import { offsetAt } from '../record/zone.js';
import type { DayRevenue } from '../report/run-report.js';

interface CurrencyDays {
  scale: number;
  /** Days since 1970-01-01 (local) -> [records, value in minor units]. */
  days: Map<number, [number, number]>;
}

export class DayRevenueTally {
  readonly #currencies = new Map<string, CurrencyDays>();

  add(record: ConversionRecord): void {
    const currency = record.conversionCurrency;
    let entry = this.#currencies.get(currency);
    if (entry === undefined) {
      entry = { scale: 10 ** minorUnits(currency), days: new Map() };
      this.#currencies.set(currency, entry);
    }
    const day = localDayOf(record.conversionDatetime, record.conversionTimezone);
    const minor = Math.round(record.conversionValue * entry.scale);
    const sums = entry.days.get(day);
    if (sums === undefined) entry.days.set(day, [1, minor]);
    else {
      sums[0]++;
      sums[1] += minor;
    }
  }

  /** By day, then currency: what the report draws. */
  toJSON(): DayRevenue[] {
    const out: DayRevenue[] = [];
    for (const [currency, { scale, days }] of this.#currencies) {
      for (const [day, [records, minor]] of days) {
        out.push({ day: isoDay(day), currency, records, value: minor / scale });
      }
    }
    return out.sort((a, b) =>
      a.day === b.day ? a.currency.localeCompare(b.currency) : a.day < b.day ? -1 : 1,
    );
  }
}

/** Days since 1970-01-01 of the local date of `iso` (`YYYY-MM-DDTHH:mm:ss.sssZ`, as validate.ts writes it) in `zone`. */
export function localDayOf(iso: string, zone: string): number {
  const utcMs = wallMs(
    digits(iso, 0, 4),
    digits(iso, 5, 2),
    digits(iso, 8, 2),
    digits(iso, 11, 2),
    digits(iso, 14, 2),
    digits(iso, 17, 2),
    digits(iso, 20, 3),
  );
  return Math.floor((utcMs + offsetAt(zone, utcMs) * 60_000) / MS_PER_DAY);
}

function digits(text: string, at: number, length: number): number {
  let value = 0;
  for (let i = at; i < at + length; i++) value = value * 10 + (text.charCodeAt(i) - 48);
  return value;
}

/** `2026-03-09` for days since 1970-01-01. */
function isoDay(days: number): string {
  const packed = civilFromDays(days);
  const year = Math.floor(packed / 10_000);
  const month = Math.floor(packed / 100) % 100;
  const day = packed % 100;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
