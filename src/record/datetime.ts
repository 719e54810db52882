// Datetime values to UTC instants: a parser compiled once per mapping field from its formats, then
// called once per row; plus the wire form of an instant. Zone rules live in zone.ts.
import { civilFromDays, daysInMonth, MS_PER_DAY, wallMs } from './calendar.js';
import {
  createFields,
  type FormatMatcher,
  matchEpoch,
  matchEpochNumber,
  matchIso,
  type ParsedFields,
} from './datetime-formats.js';
import { compilePattern } from './datetime-pattern.js';
import { canonicalZone, localMsToUtc } from './zone.js';

/** Stable grouping keys for rejected datetimes (the rejects file and the summary count by them). */
export const datetimeFailureReasons = [
  'invalid datetime',
  'impossible date',
  'nonexistent local time',
  'missing time zone',
  'unknown time zone',
] as const;
export type DatetimeFailureReason = (typeof datetimeFailureReasons)[number];

export type DatetimeResult =
  | {
      ok: true;
      utcMs: number;
      /** Set when the value ended with a zone name: the time was local there (use it as conversionTimezone). */
      zone?: string;
      /** Set when the value carried an explicit offset or `Z` (minutes east of UTC). */
      offsetMinutes?: number;
    }
  | { ok: false; reason: DatetimeFailureReason; message: string };

/** `zone`: the IANA zone a value without offset or zone name is read in (mapping/config `timezone`). */
export type DatetimeParser = (raw: string | number, zone: string | undefined) => DatetimeResult;

/** The formats used when a field gives none. */
export const defaultDatetimeFormats = ['iso', 'epoch'] as const;

// Years 0000-9999: what formatUtc can write.
const MIN_MS = -62_167_219_200_000;
const MAX_MS = 253_402_300_799_999;

function describeFormat(format: string): string {
  if (format === 'iso') return 'iso (2024-03-05T14:22:10Z)';
  if (format === 'epoch') return 'epoch (10-digit seconds or 13-digit milliseconds)';
  return `"${format}"`;
}

function quote(raw: string | number): string {
  const text = String(raw);
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

function failure(reason: DatetimeFailureReason, message: string): DatetimeResult {
  return { ok: false, reason, message };
}

function isRealDate(f: ParsedFields): boolean {
  return (
    f.month >= 1 &&
    f.month <= 12 &&
    f.day >= 1 &&
    f.day <= daysInMonth(f.year, f.month) &&
    f.hour <= 23 &&
    f.minute <= 59 &&
    f.second <= 59
  );
}

/**
 * Compiles a parser for a field's `format` list, tried in order. Entries: `iso` (ISO 8601 / RFC 3339,
 * `T` or space, optional seconds and 1-9 fraction digits truncated to ms, date alone = local midnight),
 * `epoch` (10 digits = seconds, 13 = milliseconds; strings or JSON numbers), or a Unicode/Luxon token
 * pattern (yyyy yy M MM MMM MMMM d dd H HH h hh m mm s ss S..SSSSSSSSS a EEE, literal text in '...').
 * Every format also takes a trailing offset (`Z`, `+hh`, `+hhmm`, `+hh:mm`, a space before allowed) or
 * a space and an IANA zone name. Defaults to `['iso', 'epoch']`. Throws an Error for an unusable pattern.
 */
export function createDatetimeParser(formats: readonly string[] = defaultDatetimeFormats): DatetimeParser {
  if (formats.length === 0) throw new Error('datetime formats must not be empty');
  const matchers: FormatMatcher[] = formats.map((format) =>
    format === 'iso' ? matchIso : format === 'epoch' ? matchEpoch : compilePattern(format),
  );
  const acceptsEpoch = formats.includes('epoch');
  const tried = formats.map(describeFormat).join(', ');
  const fields = createFields();

  return (raw, zone) => {
    let sawImpossible = false;
    let unknownZone = '';
    let matched = false;
    if (typeof raw === 'number') {
      if (!Number.isFinite(raw)) return failure('invalid datetime', `${quote(raw)} is not a datetime.`);
      matched = acceptsEpoch && matchEpochNumber(raw, fields);
    }
    const text = matched ? '' : typeof raw === 'number' ? String(raw) : raw.trim();
    for (let i = 0; !matched && i < matchers.length; i++) {
      if (!matchers[i]!(text, fields)) continue;
      if (Number.isNaN(fields.epochMs) && !isRealDate(fields)) {
        sawImpossible = true;
        continue;
      }
      if (fields.zoneName !== '') {
        // An unknown trailing word ("PM" for a 24-hour pattern) may still fit a later format.
        const canonical = canonicalZone(fields.zoneName);
        if (canonical === undefined) {
          unknownZone = fields.zoneName;
          continue;
        }
        fields.zoneName = canonical;
      }
      matched = true;
    }
    if (!matched) {
      if (sawImpossible) {
        return failure(
          'impossible date',
          `${quote(raw)} is not a real date and time (check the day of the month, month 1-12, hour 0-23, minute and second 0-59).`,
        );
      }
      if (unknownZone !== '') {
        return failure(
          'unknown time zone',
          `${quote(raw)} ends with ${quote(unknownZone)}, which is not a known IANA time zone (like America/New_York).`,
        );
      }
      return failure(
        'invalid datetime',
        `${quote(raw)} does not match any accepted datetime format (tried ${tried}).`,
      );
    }
    return resolve(raw, zone, fields);
  };
}

function resolve(raw: string | number, zone: string | undefined, f: ParsedFields): DatetimeResult {
  let utcMs: number;
  let result: DatetimeResult;
  if (!Number.isNaN(f.epochMs)) {
    utcMs = f.epochMs;
    result = { ok: true, utcMs };
  } else {
    const local = wallMs(f.year, f.month, f.day, f.hour, f.minute, f.second, f.millisecond);
    if (!Number.isNaN(f.offsetMinutes)) {
      utcMs = local - f.offsetMinutes * 60_000;
      result = { ok: true, utcMs, offsetMinutes: f.offsetMinutes };
    } else {
      const named = f.zoneName !== '';
      const zoneText = named ? f.zoneName : zone;
      if (zoneText === undefined) {
        return failure(
          'missing time zone',
          `${quote(raw)} has no UTC offset or time zone: map a timezone column or set \`timezone\` in the config.`,
        );
      }
      const canonical = named ? zoneText : canonicalZone(zoneText);
      if (canonical === undefined) {
        return failure(
          'unknown time zone',
          `The time zone ${quote(zoneText)} for ${quote(raw)} is not a known IANA time zone (like Europe/Berlin).`,
        );
      }
      utcMs = localMsToUtc(canonical, local);
      if (Number.isNaN(utcMs)) {
        return failure(
          'nonexistent local time',
          `${quote(raw)} does not exist in ${canonical}: clocks skipped that hour for daylight saving time.`,
        );
      }
      result = named ? { ok: true, utcMs, zone: canonical } : { ok: true, utcMs };
    }
  }
  if (utcMs < MIN_MS || utcMs > MAX_MS) {
    return failure('impossible date', `${quote(raw)} is outside the years 0000-9999.`);
  }
  return result;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

/** `YYYY-MM-DDTHH:mm:ss.sssZ` for an instant in the years 0000-9999 (RangeError otherwise). */
export function formatUtc(utcMs: number): string {
  if (!Number.isFinite(utcMs) || utcMs < MIN_MS || utcMs > MAX_MS) {
    throw new RangeError(`Instant out of range for formatUtc: ${utcMs}`);
  }
  const ms = Math.floor(utcMs);
  const days = Math.floor(ms / MS_PER_DAY);
  const civil = civilFromDays(days);
  const year = Math.floor(civil / 10_000);
  const month = Math.floor(civil / 100) % 100;
  const day = civil % 100;
  let rest = ms - days * MS_PER_DAY;
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const milli = rest - second * 1000;
  const yyyy = year < 1000 ? `${year}`.padStart(4, '0') : `${year}`;
  const sss = milli < 10 ? `00${milli}` : milli < 100 ? `0${milli}` : `${milli}`;
  return `${yyyy}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}.${sss}Z`;
}
