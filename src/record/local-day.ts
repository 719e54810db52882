// A conversion's local day: its instant (`conversionDatetime`, UTC) on the calendar of its own zone, as days
// since 1970-01-01, and as `yyyy-MM-dd`. Per record: a fixed-position parse and zone.ts's cached offset, no Date,
// no Intl. Used by the run report's revenue per day and by the value guard's gaps in a series.
import { civilFromDays, daysFromCivil, MS_PER_DAY } from './calendar.js';
import { offsetAt } from './zone.js';

/** Days since 1970-01-01 of the local date of `iso` (`YYYY-MM-DDTHH:mm:ss.sssZ`, as validate.ts writes it) in `zone`. */
export function localDayNumber(iso: string, zone: string): number {
  const utcDay = daysFromCivil(
    digit(iso, 0) * 1000 + digit(iso, 1) * 100 + digit(iso, 2) * 10 + digit(iso, 3),
    digit(iso, 5) * 10 + digit(iso, 6),
    digit(iso, 8) * 10 + digit(iso, 9),
  );
  const timeOfDay =
    (digit(iso, 11) * 10 + digit(iso, 12)) * 3_600_000 +
    (digit(iso, 14) * 10 + digit(iso, 15)) * 60_000 +
    (digit(iso, 17) * 10 + digit(iso, 18)) * 1000 +
    digit(iso, 20) * 100 +
    digit(iso, 21) * 10 +
    digit(iso, 22);
  const offsetMs = offsetAt(zone, utcDay * MS_PER_DAY + timeOfDay) * 60_000;
  return utcDay + Math.floor((timeOfDay + offsetMs) / MS_PER_DAY);
}

function digit(text: string, at: number): number {
  return text.charCodeAt(at) - 48;
}

/** `2026-03-09` for days since 1970-01-01. */
/**
 * A record's local day (days since 1970-01-01), safe for any record. A record resent from the ledger was written by whatever revimport sent it first:
 * an instant with an offset, no zone, a zone this Node does not know. Those count on their UTC day (NaN when
 * the instant cannot be read: left out of the days, still in the totals); a hook that threw here would stop
 * the delivery (found by test/e2e/ledger-copy-twice.test.ts).
 */
export function recordDay(iso: string, zone: string): number {
  if (typeof iso === 'string' && iso.length === 24 && iso.charCodeAt(23) === 90) {
    try {
      return localDayNumber(iso, zone);
    } catch {
      // an unknown zone: the UTC day below
    }
  }
  // A date-time without an offset is its UTC day too: Date.parse would read it in the process's zone, which the
  // main thread's zone clock switches for a moment (cli/zone-clock.ts) and another thread may catch.
  const zoneless = typeof iso === 'string' && /T\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(iso);
  return Math.floor(Date.parse(zoneless ? `${iso}Z` : iso) / MS_PER_DAY);
}

/** `yyyy-MM-dd` of a day number. */
export function dayText(days: number): string {
  const packed = civilFromDays(days);
  const year = Math.floor(packed / 10_000);
  const month = Math.floor(packed / 100) % 100;
  const day = packed % 100;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
