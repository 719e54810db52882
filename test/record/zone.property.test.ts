// localToUtc and offsetAt against a slow oracle built on Luxon. Luxon's own gap/overlap choices differ
// from ours, so the oracle only asks Luxon for offsets at instants and applies our rule itself: an
// offset o is valid for local time L when offset(L - o) === o; none = gap, several = the earliest instant.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { localToUtc, offsetAt } from '../../src/record/zone.js';

const zones = [
  'Asia/Kathmandu',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Australia/Sydney',
  'America/New_York',
  'Europe/Berlin',
  'America/Sao_Paulo',
  'Pacific/Chatham',
  'Africa/Casablanca',
  'America/St_Johns',
  'UTC',
] as const;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const FROM = Date.UTC(1970, 0, 1);
const TO = Date.UTC(2037, 11, 31);

function oracleOffset(zone: string, utcMs: number): number {
  return DateTime.fromMillis(utcMs, { zone }).offset;
}

/** The UTC instant for a local time (ms on a zone-less timeline), or undefined in a gap. */
function oracleLocalToUtc(zone: string, localMs: number): number | undefined {
  const candidates = new Set<number>();
  for (let at = localMs - 16 * HOUR; at <= localMs + 16 * HOUR; at += HOUR) {
    candidates.add(oracleOffset(zone, at));
  }
  const valid = [...candidates].filter((o) => oracleOffset(zone, localMs - o * MINUTE) === o);
  return valid.length === 0 ? undefined : localMs - Math.max(...valid) * MINUTE;
}

function ours(zone: string, localMs: number): number | undefined {
  const d = new Date(localMs);
  const result = localToUtc(
    zone,
    d.getUTCFullYear(),
    d.getUTCMonth() + 1,
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
  return result.ok ? result.utcMs : undefined;
}

interface Transition {
  zone: string;
  at: number;
  before: number;
  after: number;
}

/** Every offset change of a zone in 1970-2037, found with Luxon (2-day scan, then bisection to the second). */
function transitionsOf(zone: string): Transition[] {
  const found: Transition[] = [];
  const step = 2 * 24 * HOUR;
  let previous = oracleOffset(zone, FROM);
  for (let t = FROM + step; t <= TO; t += step) {
    const offset = oracleOffset(zone, t);
    if (offset === previous) continue;
    let lo = t - step;
    let hi = t;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (oracleOffset(zone, mid) === previous) lo = mid;
      else hi = mid;
    }
    found.push({ zone, at: hi, before: previous, after: oracleOffset(zone, hi) });
    previous = offset;
  }
  return found;
}

describe('zone offsets against a Luxon oracle', () => {
  let transitions: Transition[] = [];
  beforeAll(() => {
    transitions = zones.flatMap((zone) => transitionsOf(zone));
  });

  it('finds transitions for the DST zones (guards the generator below)', () => {
    const count = (zone: string) => transitions.filter((t) => t.zone === zone).length;
    expect(count('Europe/Berlin')).toBeGreaterThan(100);
    expect(count('Australia/Lord_Howe')).toBeGreaterThan(100);
    expect(count('America/Sao_Paulo')).toBeGreaterThan(40);
    expect(count('Asia/Kathmandu')).toBe(1);
    expect(count('UTC')).toBe(0);
  });

  it('offsetAt matches at random instants 1970-2037', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: FROM, max: TO }), (zone, at) => {
        expect(offsetAt(zone, at)).toBe(oracleOffset(zone, at));
      }),
      { numRuns: 3000 },
    );
  });

  it('localToUtc matches at random local times 1970-2037', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: FROM, max: TO }), (zone, localMs) => {
        expect(ours(zone, localMs)).toBe(oracleLocalToUtc(zone, localMs));
      }),
      { numRuns: 2000 },
    );
  });

  it('offsetAt and localToUtc match within 3 hours of every kind of transition', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.integer({ min: -3 * 3600, max: 3 * 3600 }),
        fc.integer({ min: 0, max: 999 }),
        fc.boolean(),
        (pick, deltaSeconds, ms, useAfter) => {
          const t = transitions[pick % transitions.length]!;
          const instant = t.at + deltaSeconds * 1000 + ms;
          expect(offsetAt(t.zone, instant)).toBe(oracleOffset(t.zone, instant));
          const localMs = instant + (useAfter ? t.after : t.before) * MINUTE;
          expect(ours(t.zone, localMs)).toBe(oracleLocalToUtc(t.zone, localMs));
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('matches exactly at the edges of gaps and overlaps', () => {
    for (const t of transitions.filter(
      (x) => x.zone === 'Australia/Lord_Howe' || x.zone === 'Pacific/Chatham',
    )) {
      for (const edge of [-1000, 0, 1000]) {
        for (const offset of [t.before, t.after]) {
          const localMs = t.at + edge + offset * MINUTE;
          expect(ours(t.zone, localMs)).toBe(oracleLocalToUtc(t.zone, localMs));
        }
      }
    }
  });
});
