import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDatetimeParser, type DatetimeResult, formatUtc } from '../../src/record/datetime.js';

/** The result with the instant as ISO text, so tables read like the wire. */
function view(result: DatetimeResult) {
  if (!result.ok) return { reason: result.reason };
  const { ok: _ok, utcMs, ...rest } = result;
  return { at: new Date(utcMs).toISOString(), ...rest };
}

describe('default formats (iso, epoch)', () => {
  const parse = createDatetimeParser();

  it.each([
    ['2024-03-05T14:22:10Z', { at: '2024-03-05T14:22:10.000Z', offsetMinutes: 0 }],
    ['2024-03-05t14:22:10z', { at: '2024-03-05T14:22:10.000Z', offsetMinutes: 0 }],
    ['2024-03-05T14:22:10', { at: '2024-03-05T13:22:10.000Z' }],
    ['2024-03-05 14:22:10', { at: '2024-03-05T13:22:10.000Z' }],
    ['  2024-03-05 14:22:10  ', { at: '2024-03-05T13:22:10.000Z' }],
    ['2024-03-05T14:22', { at: '2024-03-05T13:22:00.000Z' }],
    ['2024-03-05', { at: '2024-03-04T23:00:00.000Z' }],
    ['2024-03-05T14:22:10.5Z', { at: '2024-03-05T14:22:10.500Z', offsetMinutes: 0 }],
    ['2024-03-05T14:22:10.123456789Z', { at: '2024-03-05T14:22:10.123Z', offsetMinutes: 0 }],
    ['2024-03-05T23:59:59.9999Z', { at: '2024-03-05T23:59:59.999Z', offsetMinutes: 0 }],
    ['2024-03-05T14:22:10,25Z', { at: '2024-03-05T14:22:10.250Z', offsetMinutes: 0 }],
    ['2024-03-05T14:22:10+05:30', { at: '2024-03-05T08:52:10.000Z', offsetMinutes: 330 }],
    ['2024-03-05T14:22:10+0545', { at: '2024-03-05T08:37:10.000Z', offsetMinutes: 345 }],
    ['2024-03-05T14:22:10+05', { at: '2024-03-05T09:22:10.000Z', offsetMinutes: 300 }],
    ['2024-03-05T14:22:10-03:00', { at: '2024-03-05T17:22:10.000Z', offsetMinutes: -180 }],
    ['2024-03-05 14:22:10 +0100', { at: '2024-03-05T13:22:10.000Z', offsetMinutes: 60 }],
    ['2024-03-05 14:22:10 -0500', { at: '2024-03-05T19:22:10.000Z', offsetMinutes: -300 }],
    ['2024-03-05 14:22:10 America/New_York', { at: '2024-03-05T19:22:10.000Z', zone: 'America/New_York' }],
    ['2024-03-05 14:22:10 asia/kolkata', { at: '2024-03-05T08:52:10.000Z', zone: 'Asia/Kolkata' }],
    ['2024-03-05 14:22:10 UTC', { at: '2024-03-05T14:22:10.000Z', zone: 'UTC' }],
    ['2024-03-05 Asia/Tokyo', { at: '2024-03-04T15:00:00.000Z', zone: 'Asia/Tokyo' }],
    ['2024-10-27 02:30:00', { at: '2024-10-27T00:30:00.000Z' }],
    ['1709648530', { at: '2024-03-05T14:22:10.000Z' }],
    ['1709648530123', { at: '2024-03-05T14:22:10.123Z' }],
    ['1709648530.5', { at: '2024-03-05T14:22:10.500Z' }],
    ['1709648530.123999', { at: '2024-03-05T14:22:10.123Z' }],
  ])('%j (Europe/Berlin) -> %j', (raw, expected) => {
    expect(view(parse(raw, 'Europe/Berlin'))).toEqual(expected);
  });

  it.each([
    [1709648530, '2024-03-05T14:22:10.000Z'],
    [1709648530123, '2024-03-05T14:22:10.123Z'],
    [1709648530.123, '2024-03-05T14:22:10.123Z'],
    [1709648530.5, '2024-03-05T14:22:10.500Z'],
  ])('JSON number %d -> %s, mixed in one column', (raw, expected) => {
    expect(view(parse(raw, undefined))).toEqual({ at: expected });
  });

  it('ignores the zone argument for an offset, Z or epoch', () => {
    expect(parse('2024-03-05T14:22:10Z', 'Asia/Tokyo')).toEqual(parse('2024-03-05T14:22:10Z', undefined));
    expect(parse('1709648530', 'Asia/Tokyo')).toEqual({
      ok: true,
      utcMs: Date.parse('2024-03-05T14:22:10Z'),
    });
  });

  it('reads a local time in the zone argument, preferring a zone written in the value', () => {
    expect(view(parse('2024-07-01 12:00', 'Asia/Tokyo'))).toEqual({ at: '2024-07-01T03:00:00.000Z' });
    expect(view(parse('2024-07-01 12:00 Europe/London', 'Asia/Tokyo'))).toEqual({
      at: '2024-07-01T11:00:00.000Z',
      zone: 'Europe/London',
    });
  });

  it.each([
    ['garbage', 'invalid datetime'],
    ['', 'invalid datetime'],
    ['2024-3-5', 'invalid datetime'],
    ['2024-03-05T14:22:10+5', 'invalid datetime'],
    ['2024-03-05T14:22:10.Z', 'invalid datetime'],
    ['2024-03-05T14:22:10.1234567890Z', 'invalid datetime'],
    ['2024-03-05T14:22:10 +01:00 x', 'invalid datetime'],
    ['170964853', 'invalid datetime'],
    ['17096485301', 'invalid datetime'],
    ['2024-02-30', 'impossible date'],
    ['2023-02-29 10:00', 'impossible date'],
    ['2024-13-01', 'impossible date'],
    ['2024-00-10', 'impossible date'],
    ['2024-03-05T24:00', 'impossible date'],
    ['2024-03-05T12:60', 'impossible date'],
    ['2024-03-05T12:00:60Z', 'impossible date'],
    ['2024-03-31 02:30:00', 'nonexistent local time'],
    ['2024-03-05 14:22:10 Mars/Olympus', 'unknown time zone'],
  ])('%j fails with %s', (raw, reason) => {
    expect(view(parse(raw, 'Europe/Berlin'))).toEqual({ reason });
  });

  it('accepts 29 February in a leap year', () => {
    expect(view(parse('2024-02-29T00:00:00Z', undefined))).toEqual({
      at: '2024-02-29T00:00:00.000Z',
      offsetMinutes: 0,
    });
  });

  it('fails a local time without any zone, saying how to fix it', () => {
    const result = parse('2024-03-05 14:22:10', undefined);
    expect(result).toMatchObject({ ok: false, reason: 'missing time zone' });
    expect(!result.ok && result.message).toContain('"2024-03-05 14:22:10"');
    expect(!result.ok && result.message).toContain('timezone');
  });

  it('fails a local time in an unknown zone argument', () => {
    expect(parse('2024-03-05 14:22:10', 'Nowhere/City')).toMatchObject({
      ok: false,
      reason: 'unknown time zone',
    });
  });

  it('names the value and the formats tried when nothing matches', () => {
    const result = parse('05/03/2024', 'UTC');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/^"05\/03\/2024" does not match .*iso .*epoch/);
  });

  it('names the zone in a DST gap message', () => {
    const result = parse('2024-03-10 02:30', 'America/New_York');
    expect(result).toMatchObject({ ok: false, reason: 'nonexistent local time' });
    expect(!result.ok && result.message).toContain('America/New_York');
  });

  it('rejects a non-finite JSON number', () => {
    expect(parse(Number.NaN, 'UTC')).toMatchObject({ ok: false, reason: 'invalid datetime' });
  });
});

describe('formatUtc', () => {
  it.each([
    [0, '1970-01-01T00:00:00.000Z'],
    [Date.parse('2024-02-29T23:59:59.999Z'), '2024-02-29T23:59:59.999Z'],
    [Date.parse('1969-12-31T23:59:59.001Z'), '1969-12-31T23:59:59.001Z'],
    [Date.parse('0000-01-01T00:00:00.000Z'), '0000-01-01T00:00:00.000Z'],
    [Date.parse('0999-05-06T07:08:09.010Z'), '0999-05-06T07:08:09.010Z'],
    [Date.parse('9999-12-31T23:59:59.999Z'), '9999-12-31T23:59:59.999Z'],
  ])('%d -> %s', (ms, text) => {
    expect(formatUtc(ms)).toBe(text);
  });

  it('matches Date#toISOString over years 0000-9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
        expect(formatUtc(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5000 },
    );
  });

  it.each([Number.NaN, -62_167_219_200_001, 253_402_300_800_000])('throws RangeError for %d', (ms) => {
    expect(() => formatUtc(ms)).toThrow(RangeError);
  });
});
