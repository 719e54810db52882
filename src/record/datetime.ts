// Datetime values to UTC instants: a parser compiled once per mapping field from its formats, then
// called once per row; plus the wire form of an instant. Zone rules live in zone.ts.
import { quote } from '../quote.js';
import { civilFromDays, daysInMonth, MS_PER_DAY, wallMs } from './calendar.js';
import {
  createFields,
  type EpochUnit,
  epochMatcher,
  type FormatMatcher,
  matchEpoch,
  matchEpochNumber,
  matchIso,
  type ParsedFields,
} from './datetime-formats.js';
import { compilePattern } from './datetime-pattern.js';
import { canonicalZone, localMsToUtc, offsetAt } from './zone.js';
import {
  type Abbreviation,
  type AbbreviationMeaning,
  type AbbreviationReading,
  assumedMeaning,
  lookupAbbreviation,
} from './zone-abbreviations.js';

/** Stable grouping keys for rejected datetimes (the rejects file and the summary count by them). */
export const datetimeFailureReasons = [
  'invalid datetime',
  'impossible date',
  'nonexistent local time',
  'missing time zone',
  'unknown time zone',
  'ambiguous time zone',
  'implausible datetime',
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
      /**
       * Set when a zone abbreviation (in the value or the row's zone column) gave the offset and the
       * configured zone does not have that offset at that instant: the instant is kept, `zone` is the
       * abbreviation's usual zone.
       */
      contradicts?: true;
      /** Set when an ambiguous abbreviation no zone decided was read with the reading's meaning (PST: Pacific). */
      assumed?: { abbreviation: string; meaning: AbbreviationMeaning };
    }
  | { ok: false; reason: DatetimeFailureReason; message: string };

/**
 * `zone`: the IANA zone a value without offset or zone name is read in (the row's zone column, the file's,
 * or the configured one); it also picks an abbreviation's meaning. `abbreviation`: the row's zone column
 * held a zone abbreviation (PDT), which then gives the offset of a local time.
 */
export type DatetimeParser = (
  raw: string | number,
  zone: string | undefined,
  abbreviation?: Abbreviation,
) => DatetimeResult;

export interface DatetimeParserOptions {
  /** How an ambiguous abbreviation the zone cannot decide is read (zone-abbreviations.ts); default `strict`. */
  abbreviations?: AbbreviationReading;
}

const epochUnits: Record<string, EpochUnit> = {
  'epoch-s': 's',
  'epoch-ms': 'ms',
  'epoch-us': 'us',
  'epoch-ns': 'ns',
};

/** The formats used when a field gives none. */
export const defaultDatetimeFormats = ['iso', 'epoch'] as const;

// Years 0000-9999: what formatUtc can write.
const MIN_MS = -62_167_219_200_000;
const MAX_MS = 253_402_300_799_999;

function describeFormat(format: string): string {
  if (format === 'iso') return 'iso (2024-03-05T14:22:10Z)';
  if (format === 'epoch') return 'epoch (10-digit seconds, 13 ms, 16 µs or 19 ns)';
  if (format in epochUnits) return format;
  return `"${format}"`;
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
 * `epoch` (by digit count: 10 = seconds, 13 = ms, 16 = µs, 19 = ns; strings or JSON numbers),
 * `epoch-s`/`epoch-ms`/`epoch-us`/`epoch-ns` (that unit, any digit count), or a Unicode/Luxon token
 * pattern (yyyy yy M MM MMM MMMM d dd H HH h hh m mm s ss S..SSSSSSSSS a EEE, literal text in '...').
 * Every format also takes a trailing offset (`Z`, `+hh`, `+hhmm`, `+hh:mm`, a space before allowed) or
 * a space and an IANA zone name or a zone abbreviation (`PDT`: an offset, see zone-abbreviations.ts).
 * Defaults to `['iso', 'epoch']`. Throws an Error for an unusable pattern.
 */
export function createDatetimeParser(
  formats: readonly string[] = defaultDatetimeFormats,
  options: DatetimeParserOptions = {},
): DatetimeParser {
  const compiled = compileFormats(formats);
  const fields = createFields();
  const scan: Scan = { impossible: false, unknownZone: '', abbreviation: undefined };
  const reading = options.abbreviations ?? 'strict';

  return (raw, zone, rowAbbreviation) => {
    scan.impossible = false;
    scan.unknownZone = '';
    scan.abbreviation = rowAbbreviation;
    let matched = false;
    if (typeof raw === 'number') {
      const unusable = unusableNumber(raw);
      if (unusable) return unusable;
      matched = matchNumber(raw, compiled, fields);
    }
    if (!matched) {
      const text = typeof raw === 'number' ? String(raw) : raw.trim();
      matched = matchText(text, compiled.matchers, fields, scan);
    }
    return matched
      ? resolve(raw, zone, fields, scan.abbreviation, reading)
      : noMatch(raw, scan, compiled.tried);
  };
}

/** A field's formats, compiled once: the matchers in order, and how a JSON number is read. */
interface CompiledFormats {
  readonly matchers: readonly FormatMatcher[];
  /** `epoch` is listed: a JSON number is read by its magnitude. */
  readonly epochByMagnitude: boolean;
  /** Else the first explicit epoch unit listed, which a JSON number is read in. */
  readonly numberUnit: EpochUnit | undefined;
  /** The formats as the "tried ..." message names them. */
  readonly tried: string;
}

/**
 * What trying the formats on one value left behind: one object per parser, reset for each value (the
 * parser runs once per row: no allocation there).
 */
interface Scan {
  /** A format matched the shape, but the date does not exist (31 April). */
  impossible: boolean;
  /** A format matched, but with a trailing word that is no zone (kept for the message). */
  unknownZone: string;
  /** The abbreviation giving the offset: the row's zone column's, or the value's own. */
  abbreviation: Abbreviation | undefined;
}

function compileFormats(formats: readonly string[]): CompiledFormats {
  if (formats.length === 0) throw new Error('datetime formats must not be empty');
  const matchers = formats.map((format): FormatMatcher => {
    if (format === 'iso') return matchIso;
    if (format === 'epoch') return matchEpoch;
    const unit = epochUnits[format];
    return unit === undefined ? compilePattern(format) : epochMatcher(unit);
  });
  return {
    matchers,
    epochByMagnitude: formats.includes('epoch'),
    numberUnit: formats.map((f) => epochUnits[f]).find((u) => u !== undefined),
    tried: formats.map(describeFormat).join(', '),
  };
}

function unusableNumber(raw: number): DatetimeResult | undefined {
  if (!Number.isFinite(raw)) return failure('invalid datetime', `${quote(raw)} is not a datetime.`);
  // A 19-digit nanosecond epoch has lost its last digits in JSON.parse: it could round up a millisecond.
  if (Math.abs(raw) > Number.MAX_SAFE_INTEGER) {
    return failure(
      'invalid datetime',
      `${quote(raw)} is a JSON number too large to be exact: write the timestamp as a string.`,
    );
  }
  return undefined;
}

/** A JSON number is an epoch when a format says so: by magnitude, or in the first explicit unit. */
function matchNumber(raw: number, compiled: CompiledFormats, fields: ParsedFields): boolean {
  if (compiled.epochByMagnitude) return matchEpochNumber(raw, fields);
  return compiled.numberUnit !== undefined && matchEpochNumber(raw, fields, compiled.numberUnit);
}

/** The first format that reads `text` as a real date with a known zone (if it names one) fills `fields`. */
function matchText(
  text: string,
  matchers: readonly FormatMatcher[],
  fields: ParsedFields,
  scan: Scan,
): boolean {
  for (let i = 0; i < matchers.length; i++) {
    if (!matchers[i]!(text, fields)) continue;
    if (Number.isNaN(fields.epochMs) && !isRealDate(fields)) {
      scan.impossible = true;
      continue;
    }
    if (fields.zoneName === '' || knownZone(fields, scan)) return true;
  }
  return false;
}

/** Canonicalizes the value's zone name, or reads it as an abbreviation; false when it is neither. */
function knownZone(fields: ParsedFields, scan: Scan): boolean {
  const canonical = canonicalZone(fields.zoneName);
  if (canonical !== undefined) {
    fields.zoneName = canonical;
    return true;
  }
  // An abbreviation is an offset, never a zone name (BST is not Asia/Dhaka).
  const found = lookupAbbreviation(fields.zoneName);
  if (found === undefined) {
    // An unknown trailing word ("PM" for a 24-hour pattern) may still fit a later format.
    scan.unknownZone = fields.zoneName;
    return false;
  }
  scan.abbreviation = found;
  fields.zoneName = '';
  return true;
}

/** Why no format took the value: an impossible date first, then an unknown zone, else no match at all. */
function noMatch(raw: string | number, scan: Scan, tried: string): DatetimeResult {
  if (scan.impossible) {
    return failure(
      'impossible date',
      `${quote(raw)} is not a real date and time (check the day of the month, month 1-12, hour 0-23, minute and second 0-59).`,
    );
  }
  if (scan.unknownZone !== '') {
    return failure(
      'unknown time zone',
      `${quote(raw)} ends with ${quote(scan.unknownZone)}, which is neither a known IANA time zone (like America/New_York) nor a zone abbreviation (like PDT).`,
    );
  }
  return failure(
    'invalid datetime',
    `${quote(raw)} does not match any accepted datetime format (tried ${tried}).`,
  );
}

function resolve(
  raw: string | number,
  zone: string | undefined,
  f: ParsedFields,
  abbreviation: Abbreviation | undefined,
  reading: AbbreviationReading,
): DatetimeResult {
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
    } else if (abbreviation !== undefined && f.zoneName === '') {
      const resolved = resolveAbbreviation(
        abbreviation,
        local,
        zone === undefined ? undefined : canonicalZone(zone),
        reading,
      );
      if (!resolved.ok) return failure('ambiguous time zone', `${quote(raw)}: ${resolved.message}`);
      utcMs = resolved.utcMs;
      result = { ok: true, utcMs, zone: resolved.zone, offsetMinutes: resolved.offsetMinutes };
      if (resolved.contradicts) result.contradicts = true;
      if (resolved.assumed)
        result.assumed = { abbreviation: abbreviation.abbreviation, meaning: resolved.assumed };
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

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/** English locales whose short zone names are the abbreviations exports write (EST, BST, IST, AEST...). */
const abbreviationLocales = ['en-US', 'en-GB', 'en-IE', 'en-IN', 'en-AU', 'en-NZ', 'en-CA', 'en-ZA'];
const shortNameFormats = new Map<string, Intl.DateTimeFormat[]>();
/** `zone|hour` -> the zone's short names in those locales at that hour; bounded, refilled on demand. */
const shortNames = new Map<string, Set<string>>();

/** True when `zone` itself calls the instant `abbreviation` in one of the English locales. */
function writesAbbreviation(zone: string, utcMs: number, abbreviation: string): boolean {
  const key = `${zone}|${Math.floor(utcMs / 3_600_000)}`;
  let names = shortNames.get(key);
  if (names === undefined) {
    let formats = shortNameFormats.get(zone);
    if (formats === undefined) {
      formats = abbreviationLocales.map(
        (locale) => new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' }),
      );
      shortNameFormats.set(zone, formats);
    }
    names = new Set();
    for (const format of formats) {
      const part = format.formatToParts(utcMs).find((p) => p.type === 'timeZoneName');
      if (part) names.add(part.value.toUpperCase());
    }
    if (shortNames.size >= 10_000) shortNames.clear();
    shortNames.set(key, names);
  }
  return names.has(abbreviation);
}

type AbbreviationResult =
  | {
      ok: true;
      utcMs: number;
      zone: string;
      offsetMinutes: number;
      contradicts: boolean;
      /** The meaning `reading` chose for an ambiguous abbreviation. */
      assumed?: AbbreviationMeaning;
    }
  | { ok: false; message: string };

/**
 * A local time written with a zone abbreviation. The abbreviation is an offset; its meaning is the one
 * `zone` (the configured zone) has at that instant (for an ambiguous abbreviation, only a meaning of the
 * zone's own: its usual zone, or a zone that writes the abbreviation), and then the record's zone is
 * `zone`. Otherwise an
 * unambiguous abbreviation gives its usual zone (`contradicts` when a zone was configured), and an
 * ambiguous one the meaning `reading` gives it (its documented default, or its North American or European
 * one), else no answer: the row is invalid.
 */
export function resolveAbbreviation(
  abbreviation: Abbreviation,
  localMs: number,
  zone: string | undefined,
  reading: AbbreviationReading,
): AbbreviationResult {
  const { meanings } = abbreviation;
  if (zone !== undefined) {
    const ambiguous = meanings.length > 1;
    for (const meaning of meanings) {
      const utcMs = localMs - meaning.offsetMinutes * 60_000;
      if (offsetAt(zone, utcMs) !== meaning.offsetMinutes) continue;
      // An equal offset alone does not make an ambiguous abbreviation the zone's: New York in winter is
      // -05:00 like Cuba's CST, but CST there means Central time. The zone must be the meaning's own, or
      // write this abbreviation itself (Toronto writes EST, Winnipeg CST, Vancouver PST).
      if (ambiguous && meaning.zone !== zone && !writesAbbreviation(zone, utcMs, abbreviation.abbreviation)) {
        continue;
      }
      return { ok: true, utcMs, zone, offsetMinutes: meaning.offsetMinutes, contradicts: false };
    }
  }
  const assumed = meanings.length > 1 ? assumedMeaning(abbreviation, reading) : undefined;
  const chosen = meanings.length === 1 ? meanings[0] : assumed;
  if (chosen === undefined) {
    const list = meanings.map((m) => `${m.name} (${offsetText(m.offsetMinutes)}, ${m.zone})`).join(' or ');
    const where =
      zone === undefined ? 'no time zone is configured' : `${zone} has none of these offsets then`;
    return {
      ok: false,
      message:
        `${abbreviation.abbreviation} is ambiguous: ${list}, and ${where}. Set \`timezone\` to the zone the export ` +
        `was written in${abbreviation.hasDefault ? `, or mapping.zoneAbbreviations: default to read it as ${meanings[0]!.name}` : ''}.`,
    };
  }
  return {
    ok: true,
    utcMs: localMs - chosen.offsetMinutes * 60_000,
    zone: chosen.zone,
    offsetMinutes: chosen.offsetMinutes,
    contradicts: zone !== undefined,
    ...(assumed === undefined ? {} : { assumed }),
  };
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

/**
 * `YYYY-MM-DDTHH:mm:ss.sssZ` for an instant in the years 0000-9999 (RangeError otherwise). Built as one flat
 * string from its character codes: a template literal makes a rope (cons string) that every later reader (the
 * ledger's hash, the JSON body, the run report's day) must flatten first; this is also faster to build
 * (1M instants: 120 ms against 175 ms, and nothing left to flatten).
 */
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
  return String.fromCharCode(
    digit(year / 1000),
    digit(year / 100),
    digit(year / 10),
    digit(year),
    45,
    digit(month / 10),
    digit(month),
    45,
    digit(day / 10),
    digit(day),
    84,
    digit(hour / 10),
    digit(hour),
    58,
    digit(minute / 10),
    digit(minute),
    58,
    digit(second / 10),
    digit(second),
    46,
    digit(milli / 100),
    digit(milli / 10),
    digit(milli),
    90,
  );
}

/** The character code of the last decimal digit of `n`'s whole part. */
function digit(n: number): number {
  return 48 + (Math.floor(n) % 10);
}
