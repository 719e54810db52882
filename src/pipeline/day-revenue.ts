// Revenue per local day and currency for the run report (issue 25): each record counted on the day of its
// own conversionTimezone, summed exactly in minor units. Per record: a fixed-position parse of the ISO
// instant, zone.ts's cached offset, and two array slots; no Date, no Intl, no Map lookup for the common case
// (one currency after another, days within ten years), so a 1M-row push does not feel it (npm run bench).
import { minorUnits } from '../record/currency.js';
import type { ConversionRecord } from '../record/fields.js';
import { dayText, recordDay } from '../record/local-day.js';
import type { DayRevenue } from '../report/run-report.js';
import { byCodeUnits } from '../text-order.js';

/** Days an array of one currency may span; a day farther out (a stray year) goes to `far`. */
const MAX_SPAN = 4000;
const MARGIN = 32;

interface CurrencyDays {
  currency: string;
  scale: number;
  /** The day (since 1970-01-01) of slot 0. */
  base: number;
  records: Float64Array;
  /** Sums in minor units: integers, exact below 2^53. */
  minor: Float64Array;
  far: Map<number, [number, number]>;
}

export class DayRevenueTally {
  readonly #currencies = new Map<string, CurrencyDays>();
  #last: CurrencyDays | undefined;

  /** `day`: the record's local day when computed already (the row thread), else computed here. */
  add(record: ConversionRecord, day = recordDay(record.conversionDatetime, record.conversionTimezone)): void {
    if (Number.isNaN(day) || !Number.isFinite(record.conversionValue)) return;
    const entry = this.#entry(record.conversionCurrency);
    const minor = Math.round(record.conversionValue * entry.scale);
    let slot = day - entry.base;
    if (slot < 0 || slot >= entry.records.length) {
      if (!grow(entry, day)) {
        const sums = entry.far.get(day) ?? [0, 0];
        entry.far.set(day, [sums[0] + 1, sums[1] + minor]);
        return;
      }
      slot = day - entry.base;
    }
    entry.records[slot]!++;
    entry.minor[slot]! += minor;
  }

  /** By day, then currency: what the report draws. */
  toJSON(): DayRevenue[] {
    const out: DayRevenue[] = [];
    for (const { currency, scale, base, records, minor, far } of this.#currencies.values()) {
      for (let i = 0; i < records.length; i++) {
        if (records[i]! > 0)
          out.push({ day: dayText(base + i), currency, records: records[i]!, value: minor[i]! / scale });
      }
      for (const [day, [n, sum]] of far)
        out.push({ day: dayText(day), currency, records: n, value: sum / scale });
    }
    return out.sort((a, b) =>
      a.day === b.day ? byCodeUnits(a.currency, b.currency) : a.day < b.day ? -1 : 1,
    );
  }

  /** The currency's days; the last one is kept at hand, since exports run long in one currency. */
  #entry(currency: string): CurrencyDays {
    const last = this.#last;
    if (last !== undefined && last.currency === currency) return last;
    let entry = this.#currencies.get(currency);
    if (entry === undefined) {
      const empty = new Float64Array(0);
      entry = {
        currency,
        scale: 10 ** minorUnits(currency),
        base: 0,
        records: empty,
        minor: empty,
        far: new Map(),
      };
      this.#currencies.set(currency, entry);
    }
    this.#last = entry;
    return entry;
  }
}

/** Widens the arrays to hold `day` (with a margin); false when that would pass MAX_SPAN days. */
function grow(entry: CurrencyDays, day: number): boolean {
  const empty = entry.records.length === 0;
  const from = empty ? day - MARGIN : Math.min(entry.base, day - MARGIN);
  const to = empty ? day + MARGIN : Math.max(entry.base + entry.records.length, day + MARGIN);
  if (to - from > MAX_SPAN) return false;
  const records = new Float64Array(to - from);
  const minor = new Float64Array(to - from);
  if (!empty) {
    records.set(entry.records, entry.base - from);
    minor.set(entry.minor, entry.base - from);
  }
  Object.assign(entry, { base: from, records, minor });
  return true;
}
