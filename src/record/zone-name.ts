// IANA zone names (validation, canonical spelling, fixed-offset Etc names) and UTC-offset text.
// Names are resolved through Intl once per distinct input and cached; later calls are a Map lookup.
//
// A zone name is an IANA name or one of tzdb's official aliases (its `backward` links: US/Eastern, GB, NZ,
// Japan...), never an abbreviation. Intl alone is not the test: ICU also accepts its legacy Java ids, which
// look like abbreviations and mean unrelated zones (BST -> Asia/Dhaka, AST -> America/Anchorage, IST ->
// Asia/Calcutta, CST -> America/Chicago, NST -> Pacific/Auckland), and `SystemV/...` names. Accepted: the
// names Intl lists, the UTC aliases, Etc/GMT±N, names with a `/` that Intl accepts (except SystemV/), and
// the slash-less aliases listed below. tzdb's EST, MST, HST, CET, EET, MET and WET are refused too: as
// written in exports they are abbreviations, i.e. offsets, which zone-abbreviations.ts looks up.
import { detached } from '../detached.js';
import { utcAliases } from './utc-aliases.js';

// Current IANA names that ICU/CLDR (Node 20) lists and resolves under an older spelling
// (Asia/Kolkata -> Asia/Calcutta): a user who writes the IANA name keeps it.
const ianaNamesIcuRenames = [
  'Africa/Asmara',
  'America/Argentina/Buenos_Aires',
  'America/Argentina/Catamarca',
  'America/Argentina/Cordoba',
  'America/Argentina/Jujuy',
  'America/Argentina/Mendoza',
  'America/Atikokan',
  'America/Indiana/Indianapolis',
  'America/Kentucky/Louisville',
  'America/Nuuk',
  'Asia/Dhaka',
  'Asia/Ho_Chi_Minh',
  'Asia/Kathmandu',
  'Asia/Kolkata',
  'Asia/Thimphu',
  'Asia/Ulaanbaatar',
  'Asia/Yangon',
  'Atlantic/Faroe',
  'Europe/Kyiv',
  'Pacific/Chuuk',
  'Pacific/Kanton',
  'Pacific/Pohnpei',
];

// tzdb's `backward` links without a `/` (less the UTC ones above and the abbreviation-like EST, MST, HST,
// CET, EET, MET, WET), plus its POSIX-rule zones EST5EDT... (links to America/New_York... since 2024b).
const tzdbNamesWithoutSlash = new Set(
  [
    'Cuba',
    'Egypt',
    'Eire',
    'GB',
    'GB-Eire',
    'Hongkong',
    'Iceland',
    'Iran',
    'Israel',
    'Jamaica',
    'Japan',
    'Kwajalein',
    'Libya',
    'NZ',
    'NZ-CHAT',
    'Navajo',
    'PRC',
    'Poland',
    'Portugal',
    'ROC',
    'ROK',
    'Singapore',
    'Turkey',
    'W-SU',
    'EST5EDT',
    'CST6CDT',
    'MST7MDT',
    'PST8PDT',
  ].map((name) => name.toLowerCase()),
);

const maxCacheSize = 10_000;
/** Raw input -> canonical name; '' marks an invalid input. */
const canonicalCache = new Map<string, string>();
let knownNames: Map<string, string> | undefined;

function isAcceptedByIntl(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

// Without a formatter: the renamed names and Etc/GMT±N are known to the ICU of every Node revimport runs on
// (>= 20.18), and a DateTimeFormat, even one only asked for its zone, loads ICU's formatting data (+7 MiB of
// RSS; cli/zone-clock.ts). Names outside the list still go through Intl (resolveZone's last step).
function buildKnownNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const name of Intl.supportedValuesOf('timeZone')) names.set(name.toLowerCase(), name);
  for (const name of ianaNamesIcuRenames) names.set(name.toLowerCase(), name);
  for (let hours = -14; hours <= 12; hours++) {
    if (hours === 0) continue;
    const name = `Etc/GMT${hours > 0 ? '+' : '-'}${Math.abs(hours)}`;
    names.set(name.toLowerCase(), name);
  }
  return names;
}

function resolveZone(name: string): string {
  const trimmed = name.trim();
  const first = trimmed.charCodeAt(0);
  // Node 24 also accepts offset zones ("+05:00"); conversionTimezone must be an IANA name.
  const startsWithLetter = (first >= 65 && first <= 90) || (first >= 97 && first <= 122);
  if (!startsWithLetter || trimmed.length > 64) return '';
  const lower = trimmed.toLowerCase();
  if (utcAliases.has(lower)) return 'UTC';
  const slash = lower.includes('/');
  // Checked before the listed names too, should a runtime list a legacy id.
  if (slash ? lower.startsWith('systemv/') : !tzdbNamesWithoutSlash.has(lower)) return '';
  knownNames ??= buildKnownNames();
  const known = knownNames.get(lower);
  if (known !== undefined) return known;
  // A link Intl knows but does not list (US/Eastern, GB): Node 20 resolves it to its target, Node 24 keeps
  // the link name; both are valid IANA names.
  return isAcceptedByIntl(trimmed) ?? '';
}

/**
 * The canonical spelling of an IANA zone name (`europe/berlin` -> `Europe/Berlin`; UTC aliases -> `UTC`),
 * or undefined when the runtime does not know it or it is not a tzdb name (`BST`, `EST`, `SystemV/EST5`).
 * Surrounding spaces are ignored.
 */
export function canonicalZone(name: string): string | undefined {
  let resolved = canonicalCache.get(name);
  if (resolved === undefined) {
    resolved = resolveZone(name);
    // Zone values can come from a data column: bound the cache against a file full of junk.
    if (canonicalCache.size >= maxCacheSize) canonicalCache.clear();
    canonicalCache.set(detached(name), resolved);
  }
  return resolved === '' ? undefined : resolved;
}

export function isValidZone(name: string): boolean {
  return canonicalZone(name) !== undefined;
}

/**
 * The `Etc/GMT±N` zone for a whole-hour offset in minutes, `UTC` for 0, else undefined.
 * POSIX inverts the sign: +60 (UTC+01:00) is `Etc/GMT-1`. The Etc range is UTC-12..UTC+14.
 */
export function fixedOffsetZone(offsetMinutes: number): string | undefined {
  if (offsetMinutes === 0) return 'UTC';
  if (!Number.isInteger(offsetMinutes) || offsetMinutes % 60 !== 0) return undefined;
  const hours = offsetMinutes / 60;
  if (hours < -12 || hours > 14) return undefined;
  return `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function upper(code: number): number {
  return code >= 97 && code <= 122 ? code - 32 : code;
}

/**
 * Reads a UTC offset in `text[start, end)` and returns minutes, or NaN. Accepted: `Z`/`z`; `+hh`,
 * `+hhmm`, `+hh:mm` (`-` or U+2212 minus too; hours 00-23, minutes 00-59); the same after `UTC` or `GMT`,
 * where a one-digit hour is allowed too (`GMT+1`); and bare `UTC`/`GMT` (0). Case-insensitive.
 */
export function scanOffset(text: string, start: number, end: number): number {
  let i = start;
  if (end - i === 1 && upper(text.charCodeAt(i)) === 90) return 0;
  let prefixed = false;
  if (end - i >= 3) {
    const a = upper(text.charCodeAt(i));
    const b = upper(text.charCodeAt(i + 1));
    const c = upper(text.charCodeAt(i + 2));
    if ((a === 85 && b === 84 && c === 67) || (a === 71 && b === 77 && c === 84)) {
      prefixed = true;
      i += 3;
      if (i === end) return 0;
    }
  }
  const sign = text.charCodeAt(i);
  const negative = sign === 45 || sign === 0x2212;
  if (!negative && sign !== 43) return Number.NaN;
  i++;
  let hours: number;
  const h1 = text.charCodeAt(i);
  const h2 = text.charCodeAt(i + 1);
  if (!isDigit(h1)) return Number.NaN;
  if (i + 1 < end && isDigit(h2)) {
    hours = (h1 - 48) * 10 + (h2 - 48);
    i += 2;
  } else if (prefixed) {
    hours = h1 - 48;
    i += 1;
  } else {
    return Number.NaN;
  }
  let minutes = 0;
  if (i < end) {
    if (text.charCodeAt(i) === 58) i++;
    if (end - i !== 2) return Number.NaN;
    const m1 = text.charCodeAt(i);
    const m2 = text.charCodeAt(i + 1);
    if (!isDigit(m1) || !isDigit(m2)) return Number.NaN;
    minutes = (m1 - 48) * 10 + (m2 - 48);
  }
  if (hours > 23 || minutes > 59) return Number.NaN;
  const total = hours * 60 + minutes;
  return negative ? 0 - total : total;
}

/** A UTC offset (see {@link scanOffset} for the forms) in minutes, or undefined. Surrounding spaces are ignored. */
export function parseOffset(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const minutes = scanOffset(trimmed, 0, trimmed.length);
  return Number.isNaN(minutes) ? undefined : minutes;
}
