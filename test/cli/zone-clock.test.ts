// The process's zone clock (src/cli/zone-clock.ts): the same offsets as Intl for every zone name revimport
// accepts, TZ put back after every read, and installed only where TZ is set or can be set to what it means.
// Each test file runs in a process of its own (vitest's forks pool), whose main thread this is.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { installZoneClock, processZoneClock } from '../../src/cli/zone-clock.js';
import { clockReadsAlike, linkedZone, pinZone } from '../../src/cli/zone-env.js';
import {
  canonicalZone,
  intlClock,
  localMsToUtc,
  type OffsetReader,
  offsetAt,
  useZoneClock,
} from '../../src/record/zone.js';

const DAY = 86_400_000;
const originalTz = process.env.TZ;

afterEach(() => {
  useZoneClock(intlClock);
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

/** TZ as the process runs with it: pinZone sets it when it was unset (here to UTC, whatever the host's link). */
function processClock() {
  const tz = process.env.TZ ?? 'Etc/UTC';
  process.env.TZ = tz;
  return { clock: processZoneClock(process.env, tz), tz };
}

/** Every zone name canonicalZone accepts that is not a fixed offset (those never read a clock). */
function acceptedZones(): string[] {
  const names = [
    ...Intl.supportedValuesOf('timeZone'),
    ...['Asia/Kolkata', 'Europe/Kyiv', 'America/Nuuk', 'Pacific/Kanton', 'Asia/Yangon', 'Asia/Ho_Chi_Minh'],
    ...['US/Eastern', 'US/Pacific', 'GB', 'NZ', 'Japan', 'Eire', 'Cuba', 'Iran', 'EST5EDT', 'PST8PDT'],
  ];
  const zones = new Set<string>();
  for (const name of names) {
    const canonical = canonicalZone(name);
    if (canonical !== undefined && canonical !== 'UTC' && !canonical.startsWith('Etc/GMT'))
      zones.add(canonical);
  }
  return [...zones];
}

function read(clock: typeof intlClock, zone: string, instants: number[]): number[] {
  return clock.read(zone, (offsetAt: OffsetReader) => instants.map((at) => offsetAt(at)));
}

describe('processZoneClock', () => {
  it("reads Intl's offsets, to the second, for every zone accepted, 1800-2100", () => {
    const { clock } = processClock();
    const instants: number[] = [];
    // 1800-2100 in steps of 41 days, 7 h and 13 s: every month, hour and second of the day comes round.
    for (let at = Date.UTC(1800, 0, 1); at < Date.UTC(2100, 0, 1); at += 41 * DAY + 7 * 3_600_000 + 13_000)
      instants.push(Math.floor(at / 1000) * 1000);
    const zones = acceptedZones();
    expect(zones.length).toBeGreaterThan(300);
    for (const zone of zones)
      expect([zone, read(clock, zone, instants)]).toEqual([zone, read(intlClock, zone, instants)]);
  });

  it("reads names ICU would take as a fixed offset through Intl (Eire, PRC...), with Intl's offsets", () => {
    const { clock } = processClock();
    const instants = [Date.UTC(1950, 0, 1), Date.UTC(2024, 0, 15), Date.UTC(2024, 6, 15)];
    for (const zone of ['Eire', 'PRC', 'ROC', 'ROK', 'Cuba', 'Iran', 'W-SU', 'GB', 'NZ', 'Japan']) {
      expect(clockReadsAlike(zone)).toBe(false);
      expect([zone, read(clock, zone, instants)]).toEqual([zone, read(intlClock, zone, instants)]);
    }
    for (const zone of ['EST5EDT', 'Europe/Dublin', 'Asia/Kolkata']) expect(clockReadsAlike(zone)).toBe(true);
  });

  it("reads Intl's offsets around every DST change of 2020-2026 in zones that have them, every 15 minutes", () => {
    const { clock } = processClock();
    const instants: number[] = [];
    for (let at = Date.UTC(2020, 0, 1); at < Date.UTC(2027, 0, 1); at += 15 * 60_000) instants.push(at);
    for (const zone of [
      'Europe/Berlin',
      'America/Santiago',
      'Australia/Lord_Howe',
      'Asia/Gaza',
      'America/Nuuk',
    ])
      expect([zone, read(clock, zone, instants)]).toEqual([zone, read(intlClock, zone, instants)]);
  });

  it('puts TZ back after a read, and after a read that throws; local time is as before', () => {
    const { clock, tz } = processClock();
    const local = new Date(Date.UTC(2024, 6, 1, 12)).getHours();
    expect(clock.read('Asia/Tokyo', (offsetAt) => offsetAt(Date.UTC(2024, 0, 1)))).toBe(9 * 3_600_000);
    expect(process.env.TZ).toBe(tz);
    expect(() =>
      clock.read('Asia/Kathmandu', () => {
        throw new Error('in the read');
      }),
    ).toThrow('in the read');
    expect(process.env.TZ).toBe(tz);
    expect(new Date(Date.UTC(2024, 6, 1, 12)).getHours()).toBe(local);
  });
});

describe('the zone module on the process clock', () => {
  const zones = [
    'Europe/Berlin',
    'America/New_York',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'Pacific/Chatham',
  ];

  it("offsetAt and localMsToUtc give Intl's answers at any instant (filled 32 days a read)", () => {
    useZoneClock(processClock().clock);
    const instant = fc.integer({ min: Date.UTC(1900, 0, 1) / 1000, max: Date.UTC(2060, 0, 1) / 1000 });
    fc.assert(
      fc.property(fc.constantFrom(...zones), instant, (zone, seconds) => {
        const at = seconds * 1000;
        const [expected] = read(intlClock, zone, [at]);
        expect(offsetAt(zone, at) * 60_000).toBe(expected);
        // A wall time read back: the instant itself, or (in an overlap) the earlier one of the same wall time.
        const back = localMsToUtc(zone, at + expected!);
        expect(
          back === at || (back < at && back + read(intlClock, zone, [back])[0]! === at + expected!),
        ).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('pinZone', () => {
  it('sets TZ, when unset, to the zone /etc/localtime names', () => {
    for (const zone of ['Europe/Berlin', 'Etc/UTC', 'UTC', 'Zulu', 'GMT-0', 'Greenwich', 'EST5EDT']) {
      const env: NodeJS.ProcessEnv = {};
      expect(pinZone(env, () => zone)).toBe(zone);
      expect(env.TZ).toBe(zone);
    }
  });

  it('keeps a TZ that is set, whatever it holds', () => {
    for (const tz of ['Asia/Tokyo', 'CET-1CEST,M3.5.0,M10.5.0/3', '']) {
      const env: NodeJS.ProcessEnv = { TZ: tz };
      expect(pinZone(env, () => 'Europe/Berlin')).toBe(tz);
      expect(env).toEqual({ TZ: tz });
    }
  });

  it('pins a linked name revimport does not accept (glibc and ICU read the one link), for which no clock is installed', () => {
    // A zone file under a name of its own: TZ then says what the link said, and offsets are read through Intl.
    for (const zone of ['Mars/Olympus', 'SystemV/EST5']) {
      const env: NodeJS.ProcessEnv = {};
      expect(pinZone(env, () => zone)).toBe(zone);
      expect(canonicalZone(zone)).toBeUndefined();
      expect(installZoneClock(env, zone, () => true)).toBe(false);
      expect(env).toEqual({ TZ: zone });
    }
  });

  it('leaves TZ unset where the link names no zone, or one ICU would read as a fixed offset', () => {
    for (const zone of [undefined, 'Eire', 'PRC', 'EST']) {
      const env: NodeJS.ProcessEnv = {};
      expect(pinZone(env, () => zone)).toBeUndefined();
      expect(env).toEqual({});
    }
  });
});

describe('installZoneClock', () => {
  const glibc = () => true;

  it('is installed for the TZ made present at start-up, when it names a zone ICU reads alike', () => {
    for (const tz of ['Asia/Tokyo', 'UTC', 'Zulu', 'US/Eastern', 'Europe/Berlin']) {
      const env: NodeJS.ProcessEnv = { TZ: tz };
      expect(installZoneClock(env, tz, glibc)).toBe(true);
      expect(env.TZ).toBe(tz);
    }
  });

  it('is not installed, TZ left as it is, where a switch back would not name a zone ICU knows at once', () => {
    // A POSIX rule, an abbreviation-like link ICU reads as a fixed offset, a name unknown, a colon path.
    for (const tz of ['CET-1CEST,M3.5.0,M10.5.0/3', 'Eire', 'Mars/Olympus', ':/etc/localtime', '']) {
      const env: NodeJS.ProcessEnv = { TZ: tz };
      expect(installZoneClock(env, tz, glibc)).toBe(false);
      expect(env).toEqual({ TZ: tz });
    }
  });

  it('is not installed without a TZ made present at start-up, with one changed since, nor off glibc', () => {
    expect(installZoneClock({}, undefined, glibc)).toBe(false);
    expect(installZoneClock({ TZ: 'Asia/Tokyo' }, undefined, glibc)).toBe(false);
    expect(installZoneClock({ TZ: 'Asia/Tokyo' }, 'Europe/Berlin', glibc)).toBe(false);
    expect(installZoneClock({ TZ: 'Asia/Tokyo' }, 'Asia/Tokyo', () => false)).toBe(false);
  });
});

describe('linkedZone', () => {
  it.each([
    ['/usr/share/zoneinfo/Europe/Berlin', 'Europe/Berlin'],
    ['../usr/share/zoneinfo/America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['/usr/share/zoneinfo/posix/Asia/Tokyo', 'Asia/Tokyo'],
    ['/usr/share/zoneinfo/Etc/GMT+5', 'Etc/GMT+5'],
    ['/var/db/timezone/zoneinfo/UTC', 'UTC'],
    ['/etc/localtime.copy', undefined],
    ['/usr/share/zoneinfo/', undefined],
    ['/usr/share/zoneinfo/posixrules', undefined],
    ['/usr/share/zoneinfo/../../etc/passwd', undefined],
    [undefined, undefined],
  ])('%s -> %s', (link, zone) => {
    expect(linkedZone(link)).toBe(zone);
  });
});
