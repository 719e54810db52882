// UTC offsets of IANA zones: offset at an instant and local wall time -> UTC, exact and cached so the
// per-row cost is a Map lookup and some arithmetic (a zone clock is only read to fill the caches).
//
// Cache design. Per zone, `utcDays` holds for each UTC day either its one offset (a number) or, on a day
// with a transition, the exact instants where the offset changes. A day is filled by sampling the clock at
// every whole hour and bisecting (to the second) every hour whose two ends differ, so every transition
// is found unless two cancel out within one hour, which tzdb never does. `localDays` holds, per local
// date, the offset when the offset is the same over the three UTC days around it: then `local - offset`
// is the only solution (every candidate instant lies in that window since |offset| < 24 h). Otherwise
// it holds the offsets seen in that window and each row is solved exactly: an offset `o` is valid when
// offsetAt(local - o) === o; none is a DST gap, two are an overlap (we take the larger offset, i.e. the
// earlier instant).
//
// The clock. Offsets come from Node's ICU either way: by default through an Intl.DateTimeFormat per zone
// (`intlClock`); the CLI's main thread installs the process's own clock (cli/zone-clock.ts: the zone set as
// TZ for one read, the instants' local fields read from Date), which gives the same offsets without the 7 MiB
// of ICU's formatting data that any Intl formatter loads (issue 23, "memory flat").
import { detached } from '../detached.js';
import { MS_PER_DAY, wallMs } from './calendar.js';
import { canonicalZone } from './zone-name.js';

export { canonicalZone, fixedOffsetZone, isValidZone, parseOffset, scanOffset } from './zone-name.js';

/** The zone's offset (ms, east-positive) at a whole second. */
export type OffsetReader = (second: number) => number;

/** Where a zone's offsets are read: `read` hands `use` a reader for the zone, valid only during the call. */
export interface ZoneClock {
  read<T>(zone: string, use: (offsetAt: OffsetReader) => T): T;
  /** UTC days filled by one read (a read that costs more than its samples fills more days at once). */
  readonly daysPerRead: number;
}

interface Transitions {
  /** starts[0] is the day's start; offsets[i] (ms) holds from starts[i]. */
  starts: number[];
  offsets: number[];
}

interface ZoneState {
  /** The offset in ms of a zone that never changes (UTC, Etc/GMT±N), NaN otherwise. */
  fixed: number;
  canonical: string;
  utcDays: Map<number, number | Transitions>;
  /** Offset of a quiet local day, or the candidate offsets (largest first) near a transition. */
  localDays: Map<number, number | number[]>;
}

const HOUR = 3_600_000;
// Intl cannot format years before 1 without eras; tzdb offsets are constant (LMT) that far back anyway.
const MIN_SAMPLE_MS = -62_135_510_400_000;
const MAX_DAYS_PER_ZONE = 100_000;

const statesByName = new Map<string, ZoneState>();
const statesByCanonical = new Map<string, ZoneState>();

function etcOffsetMs(canonical: string): number {
  if (canonical === 'UTC') return 0;
  const match = /^Etc\/GMT([+-])(\d{1,2})$/.exec(canonical);
  if (match === null) return Number.NaN;
  const hours = Number(match[2]);
  return (match[1] === '+' ? -hours : hours) * HOUR;
}

function zoneState(zone: string): ZoneState {
  const known = statesByName.get(zone);
  if (known !== undefined) return known;
  const canonical = canonicalZone(zone);
  if (canonical === undefined) throw new RangeError(`Unknown time zone: ${JSON.stringify(zone)}`);
  let state = statesByCanonical.get(canonical);
  if (state === undefined) {
    state = {
      fixed: etcOffsetMs(canonical),
      canonical,
      utcDays: new Map(),
      localDays: new Map(),
    };
    statesByCanonical.set(canonical, state);
  }
  statesByName.set(detached(zone), state);
  return state;
}

/** The offset (ms) at a whole second, from Intl: "M/D/YYYY, HH:mm:ss" read as a UTC wall time. */
function formattedOffset(format: Intl.DateTimeFormat, second: number): number {
  const text = format.format(second);
  let month = 0;
  let day = 0;
  let year = 0;
  let hour = 0;
  let minute = 0;
  let value = 0;
  let field = 0;
  let inNumber = false;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      inNumber = true;
    } else if (inNumber) {
      if (field === 0) month = value;
      else if (field === 1) day = value;
      else if (field === 2) year = value;
      else if (field === 3) hour = value;
      else if (field === 4) minute = value;
      field++;
      if (field === 6) return wallMs(year, month, day, hour, minute, value, 0) - second;
      value = 0;
      inNumber = false;
    }
  }
  throw new Error(`Unexpected Intl date format: ${text}`);
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Offsets from an Intl.DateTimeFormat per zone: works on any thread, loads ICU's formatting data. */
export const intlClock: ZoneClock = {
  daysPerRead: 1,
  read(zone, use) {
    let format = formats.get(zone);
    if (format === undefined) {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
      formats.set(zone, format);
    }
    const chosen = format;
    return use((second) => formattedOffset(chosen, second));
  },
};

let clock: ZoneClock = intlClock;

/**
 * Sets where offsets are read from (the CLI's main thread: cli/zone-clock.ts); the caches filled so far stay
 * (every clock gives the same offsets).
 */
export function useZoneClock(next: ZoneClock): void {
  clock = next;
}

/** The offset at a whole second, before year 1 the offset of year 1's start (Intl writes no earlier year). */
function sampled(offsetAt: OffsetReader, second: number): number {
  return offsetAt(Math.max(second, MIN_SAMPLE_MS));
}

/** Adds the transitions in (a, b] where the offset goes from `oa` to `ob`, in time order. */
function refine(
  offsetAt: OffsetReader,
  a: number,
  oa: number,
  b: number,
  ob: number,
  out: Transitions,
): void {
  if (b - a <= 1000) {
    out.starts.push(b);
    out.offsets.push(ob);
    return;
  }
  const mid = a + Math.floor((b - a) / 2000) * 1000;
  const om = sampled(offsetAt, mid);
  if (om !== oa) refine(offsetAt, a, oa, mid, om, out);
  if (om !== ob) refine(offsetAt, mid, om, b, ob, out);
}

/** The UTC day's offset, or its transitions, from the clock. */
function readDay(offsetAt: OffsetReader, dayIndex: number): number | Transitions {
  const start = dayIndex * MS_PER_DAY;
  const first = sampled(offsetAt, start);
  let entry: number | Transitions = first;
  let previous = first;
  for (let hour = 1; hour <= 24; hour++) {
    const at = start + hour * HOUR;
    const offset = sampled(offsetAt, at);
    if (offset !== previous) {
      if (typeof entry === 'number') entry = { starts: [start], offsets: [first] };
      refine(offsetAt, at - HOUR, previous, at, offset, entry);
      previous = offset;
    }
  }
  // A transition exactly at the next midnight belongs to the next day.
  if (typeof entry !== 'number' && entry.starts[entry.starts.length - 1] === start + MS_PER_DAY) {
    entry.starts.pop();
    entry.offsets.pop();
    if (entry.starts.length === 1) entry = first;
  }
  return entry;
}

/** The UTC day's entry; a miss reads the clock once for the `daysPerRead` days around it not cached yet. */
function utcDay(state: ZoneState, dayIndex: number): number | Transitions {
  const cached = state.utcDays.get(dayIndex);
  if (cached !== undefined) return cached;
  const days = clock.daysPerRead;
  const first = dayIndex - (((dayIndex % days) + days) % days);
  if (state.utcDays.size + days > MAX_DAYS_PER_ZONE) state.utcDays.clear();
  return clock.read(state.canonical, (offsetAt) => {
    for (let day = first; day < first + days; day++) {
      if (!state.utcDays.has(day)) state.utcDays.set(day, readDay(offsetAt, day));
    }
    return state.utcDays.get(dayIndex)!;
  });
}

function offsetMsAt(state: ZoneState, utcMs: number): number {
  if (!Number.isNaN(state.fixed)) return state.fixed;
  const entry = utcDay(state, Math.floor(utcMs / MS_PER_DAY));
  if (typeof entry === 'number') return entry;
  let i = entry.starts.length - 1;
  while (i > 0 && entry.starts[i]! > utcMs) i--;
  return entry.offsets[i]!;
}

function localDay(state: ZoneState, dayIndex: number): number | number[] {
  const cached = state.localDays.get(dayIndex);
  if (cached !== undefined) return cached;
  const offsets: number[] = [];
  for (let d = dayIndex - 1; d <= dayIndex + 1; d++) {
    const entry = utcDay(state, d);
    for (const offset of typeof entry === 'number' ? [entry] : entry.offsets) {
      if (!offsets.includes(offset)) offsets.push(offset);
    }
  }
  offsets.sort((x, y) => y - x);
  const result = offsets.length === 1 ? offsets[0]! : offsets;
  if (state.localDays.size >= MAX_DAYS_PER_ZONE) state.localDays.clear();
  state.localDays.set(dayIndex, result);
  return result;
}

/**
 * The UTC instant (ms) of a wall-clock time given as ms on a zone-less timeline (see `wallMs`),
 * or NaN when that time does not exist (DST gap). An ambiguous time (overlap) gives the earlier instant.
 * Throws RangeError for a zone `canonicalZone` rejects.
 */
export function localMsToUtc(zone: string, localMs: number): number {
  const state = zoneState(zone);
  if (!Number.isNaN(state.fixed)) return localMs - state.fixed;
  const day = localDay(state, Math.floor(localMs / MS_PER_DAY));
  if (typeof day === 'number') return localMs - day;
  for (const offset of day) {
    if (offsetMsAt(state, localMs - offset) === offset) return localMs - offset;
  }
  return Number.NaN;
}

/**
 * The zone's UTC offset in minutes at an instant (east positive: Berlin in winter is 60). Whole minutes
 * for every zone since 1972; earlier local mean times can be fractional (Africa/Monrovia -44.5).
 * Throws RangeError for a zone `canonicalZone` rejects.
 */
export function offsetAt(zone: string, utcMs: number): number {
  return offsetMsAt(zoneState(zone), utcMs) / 60_000;
}

export type LocalToUtcResult = { ok: true; utcMs: number } | { ok: false; reason: 'gap' };

/**
 * A wall-clock time in `zone` to a UTC instant (ms). A time skipped by a DST change is `gap`; a time that
 * occurs twice resolves to the earlier instant. Fields are not range-checked (month 1-12, day 1-31...):
 * out-of-range values roll over arithmetically. Throws RangeError for a zone `canonicalZone` rejects.
 */
export function localToUtc(
  zone: string,
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millisecond: number,
): LocalToUtcResult {
  const utcMs = localMsToUtc(zone, wallMs(year, month, day, hour, minute, second, millisecond));
  return Number.isNaN(utcMs) ? { ok: false, reason: 'gap' } : { ok: true, utcMs };
}
