// The datetime formats a parser tries: a hand-written ISO 8601 scanner, epoch seconds/milliseconds and
// Unicode (Luxon-style) token patterns compiled once to a regex. Each fills a reused `ParsedFields`.
import { scanOffset } from './zone-name.js';

/** What a format read from one value; reused across rows, so read it before the next call. */
export interface ParsedFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Explicit offset in minutes, NaN when none. */
  offsetMinutes: number;
  /** A trailing zone name (as written), '' when none. */
  zoneName: string;
  /** The instant, for epoch values; NaN otherwise. */
  epochMs: number;
}

/** Returns true when `text` matched and `out` is filled; false when the format does not apply. */
export type FormatMatcher = (text: string, out: ParsedFields) => boolean;

export function createFields(): ParsedFields {
  return {
    year: 0,
    month: 0,
    day: 0,
    hour: 0,
    minute: 0,
    second: 0,
    millisecond: 0,
    offsetMinutes: Number.NaN,
    zoneName: '',
    epochMs: Number.NaN,
  };
}

/** The time of day, offset, zone and instant back to none: a reading sets what its value holds. */
export function resetTime(out: ParsedFields): void {
  out.hour = 0;
  out.minute = 0;
  out.second = 0;
  out.millisecond = 0;
  out.offsetMinutes = Number.NaN;
  out.zoneName = '';
  out.epochMs = Number.NaN;
}

function digit(text: string, i: number): number {
  const code = text.charCodeAt(i) - 48;
  return code >= 0 && code <= 9 ? code : -1;
}

/** Two digits at i as a number, or -1. */
function twoDigits(text: string, i: number): number {
  const a = digit(text, i);
  const b = digit(text, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

function isZoneChar(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 95 || // _
    code === 47 || // /
    code === 45 || // -
    code === 43 // +
  );
}

/** Milliseconds from 1-9 fraction digits at [start, end), truncated (.9999 -> 999): never rolls into the next second. */
function fractionMs(text: string, start: number, end: number): number {
  let ms = 0;
  for (let i = start; i < start + 3; i++) ms = ms * 10 + (i < end ? text.charCodeAt(i) - 48 : 0);
  return ms;
}

/**
 * Reads what may follow the time: `Z`, `±hh`, `±hhmm`, `±hh:mm` (optionally prefixed by UTC/GMT and
 * one space), or one space and a zone name. False when the tail is anything else.
 */
function readTail(text: string, i: number, out: ParsedFields): boolean {
  const end = text.length;
  if (i === end) return true;
  const spaced = text.charCodeAt(i) === 32;
  const start = spaced ? i + 1 : i;
  if (start === end) return false;
  // "UTC" / "GMT" alone is a zone name, not an offset.
  const bareUtc = end - start === 3 && (text.charCodeAt(start) | 32) >= 97;
  if (!bareUtc) {
    const minutes = scanOffset(text, start, end);
    if (!Number.isNaN(minutes)) {
      out.offsetMinutes = minutes;
      return true;
    }
  }
  if (!spaced) return false;
  const first = text.charCodeAt(start) | 32;
  if (first < 97 || first > 122) return false;
  for (let j = start + 1; j < end; j++) if (!isZoneChar(text.charCodeAt(j))) return false;
  out.zoneName = text.slice(start, end);
  return true;
}

/** `yyyy-MM-dd`, then optionally `T`/space + `HH:mm[:ss[.f{1,9}]]` and a tail (see readTail). */
export const matchIso: FormatMatcher = (text, out) => {
  const end = text.length;
  if (end < 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return false;
  const hi = twoDigits(text, 0);
  const lo = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (hi < 0 || lo < 0 || month < 0 || day < 0) return false;
  out.year = hi * 100 + lo;
  out.month = month;
  out.day = day;
  resetTime(out);
  if (end === 10) return true;
  const sep = text.charCodeAt(10);
  if (sep !== 84 && sep !== 116 && sep !== 32) return false;
  const hour = twoDigits(text, 11);
  if (hour < 0 || text.charCodeAt(13) !== 58) {
    // Date then a zone: "2024-03-05 Europe/Berlin"
    return sep === 32 && readTail(text, 10, out) && out.zoneName !== '';
  }
  const minute = twoDigits(text, 14);
  if (minute < 0) return false;
  out.hour = hour;
  out.minute = minute;
  let i = 16;
  if (text.charCodeAt(i) === 58) {
    const second = twoDigits(text, i + 1);
    if (second < 0) return false;
    out.second = second;
    i += 3;
    const dot = text.charCodeAt(i);
    if (dot === 46 || dot === 44) {
      const start = i + 1;
      let j = start;
      while (j < end && digit(text, j) >= 0) j++;
      if (j === start || j - start > 9) return false;
      out.millisecond = fractionMs(text, start, j);
      i = j;
    }
  }
  return readTail(text, i, out);
};

/** Epoch units, as milliseconds per unit (`us` and `ns` divide). */
export type EpochUnit = 's' | 'ms' | 'us' | 'ns';
const unitByDigits: Record<number, EpochUnit> = { 10: 's', 13: 'ms', 16: 'us', 19: 'ns' };

/** Integer digits (and, for seconds, a fraction) to ms, exactly: `us`/`ns` are truncated, never rounded up. */
function epochDigitsToMs(text: string, intEnd: number, unit: EpochUnit): number {
  if (unit === 'us' || unit === 'ns') {
    // 16- and 19-digit values exceed 2^53: drop the sub-millisecond digits before converting.
    const drop = unit === 'us' ? 3 : 6;
    return intEnd <= drop ? 0 : Number(text.slice(0, intEnd - drop));
  }
  const value = Number(text.slice(0, intEnd));
  if (unit === 'ms') return value;
  return value * 1000 + (intEnd < text.length ? fractionMs(text, intEnd + 1, text.length) : 0);
}

/**
 * Unix epoch by digit count: 10 digits = seconds (a fraction allowed), 13 = milliseconds,
 * 16 = microseconds (GA4 BigQuery `event_timestamp`), 19 = nanoseconds; sub-milliseconds are truncated.
 */
export const matchEpoch: FormatMatcher = (text, out) => matchEpochDigits(text, out, undefined);

/** A matcher for an explicit epoch unit (`epoch-s`, `epoch-ms`, `epoch-us`, `epoch-ns`): any digit count. */
export function epochMatcher(unit: EpochUnit): FormatMatcher {
  return (text, out) => matchEpochDigits(text, out, unit);
}

function matchEpochDigits(text: string, out: ParsedFields, unit: EpochUnit | undefined): boolean {
  const end = text.length;
  let i = 0;
  while (i < end && digit(text, i) >= 0) i++;
  if (i === 0 || i > 19) return false;
  const resolved = unit ?? unitByDigits[i];
  if (resolved === undefined) return false;
  if (i < end) {
    // Only seconds take a fraction: "1700000000.25".
    if (resolved !== 's' || text.charCodeAt(i) !== 46 || i + 1 === end) return false;
    for (let j = i + 1; j < end; j++) if (digit(text, j) < 0) return false;
  }
  resetTime(out);
  out.epochMs = epochDigitsToMs(text, i, resolved);
  return true;
}

/** Magnitudes of JSON-number epochs by unit: seconds 1e9..1e10, ms 1e12..1e13, µs 1e15..1e16, ns 1e18..1e19. */
const numberRanges: Array<[number, EpochUnit]> = [
  [1e9, 's'],
  [1e12, 'ms'],
  [1e15, 'us'],
  [1e18, 'ns'],
];

/**
 * A JSON number as an epoch: by magnitude (see numberRanges), or in `unit` when given. Seconds may have a
 * fraction, read from the shortest decimal form (what the export wrote), not the binary float.
 */
export function matchEpochNumber(value: number, out: ParsedFields, unit?: EpochUnit): boolean {
  if (!Number.isFinite(value) || value < 0) return false;
  let resolved = unit;
  if (resolved === undefined) {
    for (const [low, candidate] of numberRanges) if (value >= low && value < low * 10) resolved = candidate;
    if (resolved === undefined) return false;
  }
  if (!Number.isInteger(value)) {
    return resolved === 's' && matchEpochDigits(String(value), out, 's');
  }
  resetTime(out);
  if (resolved === 's') out.epochMs = value * 1000;
  else if (resolved === 'ms') out.epochMs = value;
  else out.epochMs = Math.floor(value / (resolved === 'us' ? 1000 : 1_000_000));
  return true;
}
