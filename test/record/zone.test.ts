import { describe, expect, it } from 'vitest';
import {
  canonicalZone,
  fixedOffsetZone,
  isValidZone,
  localMsToUtc,
  localToUtc,
  offsetAt,
  parseOffset,
} from '../../src/record/zone.js';

const utc = (text: string) => Date.parse(text);

describe('canonicalZone / isValidZone', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['  EUROPE/BERLIN ', 'Europe/Berlin'],
    ['america/new_york', 'America/New_York'],
    ['asia/kolkata', 'Asia/Kolkata'],
    ['Asia/Kathmandu', 'Asia/Kathmandu'],
    ['europe/kyiv', 'Europe/Kyiv'],
    ['Asia/Calcutta', 'Asia/Calcutta'],
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['Etc/UTC', 'UTC'],
    ['GMT', 'UTC'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
    ['etc/gmt-14', 'Etc/GMT-14'],
    ['australia/lord_howe', 'Australia/Lord_Howe'],
  ])('%j -> %s', (input, expected) => {
    expect(canonicalZone(input)).toBe(expected);
    expect(isValidZone(input)).toBe(true);
  });

  it.each(['', 'Mars/Olympus', 'Europe', '+05:00', '-0500', 'Etc/GMT+13', 'Z', 'PM', 'America/New York'])(
    '%j is not a zone',
    (input) => {
      expect(canonicalZone(input)).toBeUndefined();
      expect(isValidZone(input)).toBe(false);
    },
  );

  it('resolves an alias Intl does not list to a valid zone', () => {
    const zone = canonicalZone('US/Eastern');
    expect(['America/New_York', 'US/Eastern']).toContain(zone);
  });

  // ICU's legacy Java ids (BST = Asia/Dhaka...), tzdb's abbreviation-like names and SystemV names: an
  // abbreviation is an offset (zone-abbreviations.ts), not a zone.
  it.each(['BST', 'AST', 'IST', 'CST', 'NST', 'EST', 'PST', 'CET', 'MST', 'HST', 'MET', 'WET', 'EET', 'pdt'])(
    'abbreviation %j is not a zone',
    (input) => {
      expect(canonicalZone(input)).toBeUndefined();
      expect(isValidZone(input)).toBe(false);
    },
  );

  it.each(['SystemV/EST5', 'systemv/ast4adt', 'SystemV/PST8PDT'])('legacy %j is not a zone', (input) => {
    expect(canonicalZone(input)).toBeUndefined();
  });

  // tzdb's backward aliases stay valid; Node 20 resolves them to their target, later Nodes may keep the name.
  it.each([
    ['US/Eastern', ['America/New_York', 'US/Eastern']],
    ['GB', ['Europe/London', 'GB']],
    ['gb-eire', ['Europe/London', 'GB-Eire']],
    ['NZ', ['Pacific/Auckland', 'NZ']],
    ['Japan', ['Asia/Tokyo', 'Japan']],
    ['PRC', ['Asia/Shanghai', 'PRC']],
    ['ROK', ['Asia/Seoul', 'ROK']],
    ['W-SU', ['Europe/Moscow', 'W-SU']],
    ['EST5EDT', ['America/New_York', 'EST5EDT']],
    ['PST8PDT', ['America/Los_Angeles', 'PST8PDT']],
    ['Asia/Kolkata', ['Asia/Kolkata']],
    ['utc', ['UTC']],
    ['Zulu', ['UTC']],
  ])('tzdb name %j stays valid', (input, expected) => {
    expect(expected).toContain(canonicalZone(input));
    expect(isValidZone(input)).toBe(true);
  });
});

describe('fixedOffsetZone', () => {
  it.each([
    [0, 'UTC'],
    [60, 'Etc/GMT-1'],
    [-300, 'Etc/GMT+5'],
    [840, 'Etc/GMT-14'],
    [-720, 'Etc/GMT+12'],
    [330, undefined],
    [345, undefined],
    [-780, undefined],
    [900, undefined],
  ])('%d min -> %s', (minutes, expected) => {
    expect(fixedOffsetZone(minutes)).toBe(expected);
    if (expected !== undefined) expect(offsetAt(expected, 0)).toBe(minutes);
  });
});

describe('parseOffset', () => {
  it.each([
    ['Z', 0],
    ['z', 0],
    ['+0500', 300],
    ['-05:00', -300],
    ['+05', 300],
    ['+05:45', 345],
    ['-0930', -570],
    ['\u221203:00', -180],
    ['GMT+01:00', 60],
    ['UTC-5', -300],
    ['gmt+1', 60],
    ['UTC', 0],
    ['-00:00', 0],
    [' +01:00 ', 60],
  ])('%j -> %d', (text, minutes) => {
    expect(parseOffset(text)).toBe(minutes);
  });

  it.each(['', '5', '+5', '0500', '+05:6', '+0560', '+2400', '+05:00:00', 'GMT+', 'EST', '++05'])(
    '%j is not an offset',
    (text) => {
      expect(parseOffset(text)).toBeUndefined();
    },
  );

  it('gives +0 for a negative zero offset', () => {
    expect(Object.is(parseOffset('-00:00'), 0)).toBe(true);
  });
});

describe('offsetAt', () => {
  it.each([
    ['Europe/Berlin', '2024-01-15T12:00:00Z', 60],
    ['Europe/Berlin', '2024-07-15T12:00:00Z', 120],
    ['Europe/Berlin', '2024-03-31T00:59:59.999Z', 60],
    ['Europe/Berlin', '2024-03-31T01:00:00Z', 120],
    ['Europe/Berlin', '2024-10-27T00:59:59.999Z', 120],
    ['Europe/Berlin', '2024-10-27T01:00:00Z', 60],
    ['Asia/Kathmandu', '2024-06-01T00:00:00Z', 345],
    ['Asia/Kathmandu', '1985-06-01T00:00:00Z', 330],
    ['Asia/Kolkata', '2024-06-01T00:00:00Z', 330],
    ['Australia/Lord_Howe', '2024-01-01T00:00:00Z', 660],
    ['Australia/Lord_Howe', '2024-07-01T00:00:00Z', 630],
    ['Australia/Sydney', '2024-01-01T00:00:00Z', 660],
    ['Australia/Sydney', '2024-07-01T00:00:00Z', 600],
    ['America/St_Johns', '2024-01-01T00:00:00Z', -210],
    ['Pacific/Chatham', '2024-01-01T00:00:00Z', 825],
    ['America/New_York', '2024-11-03T05:59:59Z', -240],
    ['America/New_York', '2024-11-03T06:00:00Z', -300],
    ['Etc/GMT+5', '2024-01-01T00:00:00Z', -300],
    ['UTC', '2024-01-01T00:00:00Z', 0],
  ])('%s at %s is %d', (zone, instant, minutes) => {
    expect(offsetAt(zone, utc(instant))).toBe(minutes);
  });

  it('accepts any spelling of a zone and throws RangeError for an unknown one', () => {
    expect(offsetAt('europe/berlin', utc('2024-07-01T00:00:00Z'))).toBe(120);
    expect(() => offsetAt('Mars/Olympus', 0)).toThrow(RangeError);
  });
});

describe('localToUtc', () => {
  const cases: [string, [number, number, number, number, number, number], string][] = [
    ['Europe/Berlin', [2024, 3, 5, 14, 22, 10], '2024-03-05T13:22:10.000Z'],
    ['Europe/Berlin', [2024, 3, 31, 1, 59, 59], '2024-03-31T00:59:59.000Z'],
    ['Europe/Berlin', [2024, 3, 31, 3, 0, 0], '2024-03-31T01:00:00.000Z'],
    // Overlap: the earlier instant (still summer time).
    ['Europe/Berlin', [2024, 10, 27, 2, 30, 0], '2024-10-27T00:30:00.000Z'],
    ['Europe/Berlin', [2024, 10, 27, 3, 0, 0], '2024-10-27T02:00:00.000Z'],
    ['America/New_York', [2024, 11, 3, 1, 30, 0], '2024-11-03T05:30:00.000Z'],
    ['America/New_York', [2024, 3, 10, 3, 0, 0], '2024-03-10T07:00:00.000Z'],
    ['Asia/Kathmandu', [2024, 1, 1, 0, 0, 0], '2023-12-31T18:15:00.000Z'],
    ['Asia/Kolkata', [2024, 1, 1, 5, 30, 0], '2024-01-01T00:00:00.000Z'],
    ['Australia/Sydney', [2024, 1, 15, 10, 0, 0], '2024-01-14T23:00:00.000Z'],
    ['Australia/Sydney', [2024, 4, 7, 2, 30, 0], '2024-04-06T15:30:00.000Z'],
    ['Australia/Lord_Howe', [2024, 4, 7, 1, 45, 0], '2024-04-06T14:45:00.000Z'],
    ['Australia/Lord_Howe', [2024, 4, 7, 2, 0, 0], '2024-04-06T15:30:00.000Z'],
    ['America/St_Johns', [2024, 7, 1, 12, 0, 0], '2024-07-01T14:30:00.000Z'],
    ['Pacific/Chatham', [2024, 1, 1, 12, 0, 0], '2023-12-31T22:15:00.000Z'],
    ['Etc/GMT-1', [2024, 7, 1, 12, 0, 0], '2024-07-01T11:00:00.000Z'],
    ['UTC', [1970, 1, 1, 0, 0, 0], '1970-01-01T00:00:00.000Z'],
  ];
  it.each(cases)('%s %j -> %s', (zone, [y, mo, d, h, mi, s], expected) => {
    const result = localToUtc(zone, y, mo, d, h, mi, s, 0);
    expect(result.ok && new Date(result.utcMs).toISOString()).toBe(expected);
  });

  it.each([
    ['Europe/Berlin', [2024, 3, 31, 2, 30, 0]],
    ['Europe/Berlin', [2024, 3, 31, 2, 0, 0]],
    ['America/New_York', [2024, 3, 10, 2, 30, 0]],
    ['Australia/Sydney', [2024, 10, 6, 2, 30, 0]],
    ['Australia/Lord_Howe', [2024, 10, 6, 2, 15, 0]],
    ['America/St_Johns', [2024, 3, 10, 2, 30, 0]],
  ] as const)('%s %j is in a DST gap', (zone, [y, mo, d, h, mi, s]) => {
    expect(localToUtc(zone, y, mo, d, h, mi, s, 0)).toEqual({ ok: false, reason: 'gap' });
  });

  it('keeps milliseconds and agrees with localMsToUtc', () => {
    const result = localToUtc('Europe/Berlin', 2024, 7, 1, 0, 0, 0, 123);
    expect(result).toEqual({ ok: true, utcMs: utc('2024-06-30T22:00:00.123Z') });
    expect(localMsToUtc('Europe/Berlin', Date.UTC(2024, 6, 1, 0, 0, 0, 123))).toBe(
      utc('2024-06-30T22:00:00.123Z'),
    );
    expect(localMsToUtc('Europe/Berlin', Date.UTC(2024, 2, 31, 2, 30))).toBeNaN();
  });

  it('gives the same answers in any query order (cache fills are order-independent)', () => {
    const days = [27, 26, 28, 27, 25, 27];
    const seen = days.map((day) => localToUtc('Europe/Paris', 2024, 10, day, 2, 30, 0, 0));
    expect(seen[0]).toEqual({ ok: true, utcMs: utc('2024-10-27T00:30:00Z') });
    expect(seen[1]).toEqual({ ok: true, utcMs: utc('2024-10-26T00:30:00Z') });
    expect(seen[2]).toEqual({ ok: true, utcMs: utc('2024-10-28T01:30:00Z') });
    expect(seen[3]).toEqual(seen[0]);
    expect(seen[5]).toEqual(seen[0]);
  });
});
