// UTC offsets of IANA zones: offset at an instant and local wall time -> UTC, exact and cached so the
// per-row cost is a Map lookup and some arithmetic (Intl is only called to fill the caches).
//
// Cache design. Per zone, `utcDays` holds for each UTC day either its one offset (a number) or, on a day
// with a transition, the exact instants where the offset changes. A day is filled by sampling Intl at
// every whole hour and bisecting (to the second) every hour whose two ends differ, so every transition
// is found unless two cancel out within one hour, which tzdb never does. `localDays` holds, per local
// date, the offset when the offset is the same over the three UTC days around it: then `local - offset`
// is the only solution (every candidate instant lies in that window since |offset| < 24 h). Otherwise
// it holds the offsets seen in that window and each row is solved exactly: an offset `o` is valid when
// offsetAt(local - o) === o; none is a DST gap, two are an overlap (we take the larger offset, i.e. the
// earlier instant).
import { detached } from '../detached.js';
import { MS_PER_DAY, wallMs } from './calendar.js';
import { canonicalZone } from './zone-name.js';

export { canonicalZone, fixedOffsetZone, isValidZone, parseOffset, scanOffset } from './zone-name.js';

interface Transitions {
  /** starts[0] is the day's start; offsets[i] (ms) holds from starts[i]. */
  starts: number[];
  offsets: number[];
}

interface ZoneState {
  /** The offset in ms of a zone that never changes (UTC, Etc/GMT±N), NaN otherwise. */
  fixed: number;
  format: Intl.DateTimeFormat | undefined;
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
    const fixed = etcOffsetMs(canonical);
    state = {
      fixed,
      format: Number.isNaN(fixed)
        ? new Intl.DateTimeFormat('en-US', {
            timeZone: canonical,
            hourCycle: 'h23',
            year: 'numeric',
            month: 'numeric',
            day: 'numeric',
            hour: 'numeric',
            minute: 'numeric',
            second: 'numeric',
          })
        : undefined,
      utcDays: new Map(),
      localDays: new Map(),
    };
    statesByCanonical.set(canonical, state);
  }
  statesByName.set(detached(zone), state);
  return state;
}

/** The offset (ms) at a whole second, from Intl: "M/D/YYYY, HH:mm:ss" read as a UTC wall time. */
function sampleOffset(format: Intl.DateTimeFormat, second: number): number {
  const at = Math.max(second, MIN_SAMPLE_MS);
  const text = format.format(at);
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
      if (field === 6) return wallMs(year, month, day, hour, minute, value, 0) - at;
      value = 0;
      inNumber = false;
    }
  }
  throw new Error(`Unexpected Intl date format: ${text}`);
}

/** Adds the transitions in (a, b] where the offset goes from `oa` to `ob`, in time order. */
function refine(
  format: Intl.DateTimeFormat,
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
  const om = sampleOffset(format, mid);
  if (om !== oa) refine(format, a, oa, mid, om, out);
  if (om !== ob) refine(format, mid, om, b, ob, out);
}

function utcDay(state: ZoneState, format: Intl.DateTimeFormat, dayIndex: number): number | Transitions {
  const cached = state.utcDays.get(dayIndex);
  if (cached !== undefined) return cached;
  const start = dayIndex * MS_PER_DAY;
  const first = sampleOffset(format, start);
  let entry: number | Transitions = first;
  let previous = first;
  for (let hour = 1; hour <= 24; hour++) {
    const at = start + hour * HOUR;
    const offset = sampleOffset(format, at);
    if (offset !== previous) {
      if (typeof entry === 'number') entry = { starts: [start], offsets: [first] };
      refine(format, at - HOUR, previous, at, offset, entry);
      previous = offset;
    }
  }
  // A transition exactly at the next midnight belongs to the next day.
  if (typeof entry !== 'number' && entry.starts[entry.starts.length - 1] === start + MS_PER_DAY) {
    entry.starts.pop();
    entry.offsets.pop();
    if (entry.starts.length === 1) entry = first;
  }
  if (state.utcDays.size >= MAX_DAYS_PER_ZONE) state.utcDays.clear();
  state.utcDays.set(dayIndex, entry);
  return entry;
}

function offsetMsAt(state: ZoneState, utcMs: number): number {
  if (!Number.isNaN(state.fixed)) return state.fixed;
  const entry = utcDay(state, state.format!, Math.floor(utcMs / MS_PER_DAY));
  if (typeof entry === 'number') return entry;
  let i = entry.starts.length - 1;
  while (i > 0 && entry.starts[i]! > utcMs) i--;
  return entry.offsets[i]!;
}

function localDay(state: ZoneState, dayIndex: number): number | number[] {
  const cached = state.localDays.get(dayIndex);
  if (cached !== undefined) return cached;
  const format = state.format!;
  const offsets: number[] = [];
  for (let d = dayIndex - 1; d <= dayIndex + 1; d++) {
    const entry = utcDay(state, format, d);
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
