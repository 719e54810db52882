// Instants from real export shapes: epoch units by digit count, zone abbreviations as offsets (PayPal's
// Date + Time + TimeZone), the configured zone picking an ambiguous abbreviation's meaning.
import { describe, expect, it } from 'vitest';
import { createDatetimeParser, type DatetimeResult } from '../../src/record/datetime.js';

function view(result: DatetimeResult) {
  if (!result.ok) return { reason: result.reason };
  const { ok: _ok, utcMs, ...rest } = result;
  return { at: new Date(utcMs).toISOString(), ...rest };
}

describe('epoch by digit count', () => {
  const parse = createDatetimeParser(['epoch']);

  it.each([
    ['1719842531', '2024-07-01T14:02:11.000Z'],
    ['1719842531123', '2024-07-01T14:02:11.123Z'],
    // GA4 BigQuery event_timestamp: microseconds.
    ['1719842531123456', '2024-07-01T14:02:11.123Z'],
    ['1719842531123999', '2024-07-01T14:02:11.123Z'],
    ['1719842531123456789', '2024-07-01T14:02:11.123Z'],
    ['1719842531.9', '2024-07-01T14:02:11.900Z'],
  ])('%s -> %s', (raw, at) => {
    expect(view(parse(raw, undefined))).toEqual({ at });
  });

  it.each([
    [1719842531, '2024-07-01T14:02:11.000Z'],
    [1719842531123, '2024-07-01T14:02:11.123Z'],
    [1719842531123456, '2024-07-01T14:02:11.123Z'],
  ])('JSON number %d -> %s', (raw, at) => {
    expect(view(parse(raw, undefined))).toEqual({ at });
  });

  it('refuses a JSON number beyond 2^53 (nanoseconds): its digits are no longer exact', () => {
    const result = parse(JSON.parse('1719843731999999999') as number, undefined);
    expect(result).toMatchObject({ ok: false, reason: 'invalid datetime' });
    expect(!result.ok && result.message).toContain('write the timestamp as a string');
    expect(view(parse('1719843731999999999', undefined))).toEqual({ at: '2024-07-01T14:22:11.999Z' });
  });

  it.each([
    '17198425',
    '171984253112',
    '17198425311234',
    '17198425311234567',
    '12345678901234567890',
    '-1719842531',
  ])('refuses %s: no unit has that many digits', (raw) => {
    expect(parse(raw, undefined)).toMatchObject({ ok: false, reason: 'invalid datetime' });
  });

  it.each([
    ['epoch-s', '1719842531', '2024-07-01T14:02:11.000Z'],
    ['epoch-s', '946684800', '2000-01-01T00:00:00.000Z'],
    ['epoch-ms', '946684800000', '2000-01-01T00:00:00.000Z'],
    ['epoch-us', '946684800000000', '2000-01-01T00:00:00.000Z'],
    ['epoch-ns', '1719842531123456789', '2024-07-01T14:02:11.123Z'],
  ])('an explicit unit (%s) reads any digit count: %s', (format, raw, at) => {
    expect(view(createDatetimeParser([format])(raw, undefined))).toEqual({ at });
  });

  it('an explicit unit applies to JSON numbers whatever their size', () => {
    expect(view(createDatetimeParser(['epoch-ms'])(946684800000, undefined))).toEqual({
      at: '2000-01-01T00:00:00.000Z',
    });
    expect(view(createDatetimeParser(['epoch-us'])(1719842531123456, undefined))).toEqual({
      at: '2024-07-01T14:02:11.123Z',
    });
  });
});

describe('zone abbreviations are offsets', () => {
  const parse = createDatetimeParser(['MM/dd/yyyy HH:mm:ss']);

  it.each([
    // PayPal US activity download: Date, Time, TimeZone joined.
    ['07/01/2024 14:02:11 PDT', '2024-07-01T21:02:11.000Z', 'America/Los_Angeles', -420],
    ['07/01/2024 14:02:11 EDT', '2024-07-01T18:02:11.000Z', 'America/New_York', -240],
    ['07/01/2024 14:02:11 CEST', '2024-07-01T12:02:11.000Z', 'Europe/Berlin', 120],
    ['07/01/2024 14:02:11 AEST', '2024-07-01T04:02:11.000Z', 'Australia/Sydney', 600],
  ])('%s -> %s in %s (unambiguous, no zone configured)', (raw, at, zone, offsetMinutes) => {
    const result = parse(raw, undefined);
    expect(view(result)).toEqual({ at, zone, offsetMinutes });
  });

  it.each([
    // PST is also Philippine Standard Time (+08:00), EST also Australian Eastern (+10:00).
    ['01/15/2024 14:02:11 PST', 'America/Los_Angeles', '2024-01-15T22:02:11.000Z', -480],
    ['01/15/2024 14:02:11 PST', 'America/Vancouver', '2024-01-15T22:02:11.000Z', -480],
    ['01/15/2024 14:02:11 PST', 'Asia/Manila', '2024-01-15T06:02:11.000Z', 480],
    ['01/15/2024 14:02:11 EST', 'America/Toronto', '2024-01-15T19:02:11.000Z', -300],
  ])('%s in %s -> %s: the configured zone picks the meaning', (raw, zone, at, offsetMinutes) => {
    expect(view(parse(raw, zone))).toEqual({ at, zone, offsetMinutes });
  });

  it('takes the configured zone as the record zone when it has the offset then', () => {
    expect(view(parse('07/01/2024 14:02:11 PDT', 'America/Vancouver'))).toEqual({
      at: '2024-07-01T21:02:11.000Z',
      zone: 'America/Vancouver',
      offsetMinutes: -420,
    });
  });

  it('keeps the written instant when the offset contradicts the configured zone, and says so', () => {
    // PDT in January: Los Angeles is on PST then; the written offset still decides the instant.
    expect(view(parse('01/15/2024 14:02:11 PDT', 'America/Los_Angeles'))).toEqual({
      at: '2024-01-15T21:02:11.000Z',
      zone: 'America/Los_Angeles',
      offsetMinutes: -420,
      contradicts: true,
    });
  });

  it('never reads BST as Bangladesh or a legacy id: the configured zone picks the meaning', () => {
    expect(view(parse('07/01/2024 14:02:11 BST', 'Europe/London'))).toEqual({
      at: '2024-07-01T13:02:11.000Z',
      zone: 'Europe/London',
      offsetMinutes: 60,
    });
    expect(view(parse('07/01/2024 14:02:11 BST', 'Asia/Dhaka'))).toEqual({
      at: '2024-07-01T08:02:11.000Z',
      zone: 'Asia/Dhaka',
      offsetMinutes: 360,
    });
    // London is on GMT in January: no meaning fits, and strict reading refuses to guess.
    expect(view(parse('01/15/2024 14:02:11 BST', 'Europe/London'))).toEqual({
      reason: 'ambiguous time zone',
    });
  });

  it('makes an ambiguous abbreviation without a deciding zone invalid, naming the meanings', () => {
    const result = parse('07/01/2024 14:02:11 BST', undefined);
    expect(result).toMatchObject({ ok: false, reason: 'ambiguous time zone' });
    expect(!result.ok && result.message).toMatch(/BST is ambiguous: .*UTC\+01:00.*UTC\+06:00/);
    expect(!result.ok && result.message).toContain('timezone');
    const elsewhere = parse('07/01/2024 14:02:11 BST', 'America/Chicago');
    expect(elsewhere).toMatchObject({ ok: false, reason: 'ambiguous time zone' });
    expect(!elsewhere.ok && elsewhere.message).toContain('America/Chicago has none of these offsets');
  });

  it('reads an ambiguous abbreviation with its documented default only when allowed', () => {
    const lenient = createDatetimeParser(['MM/dd/yyyy HH:mm:ss'], { abbreviations: 'default' });
    expect(view(lenient('07/01/2024 14:02:11 BST', undefined))).toEqual({
      at: '2024-07-01T13:02:11.000Z',
      zone: 'Europe/London',
      offsetMinutes: 60,
      assumed: { abbreviation: 'BST', meaning: expect.objectContaining({ zone: 'Europe/London' }) },
    });
    // A configured zone that decides still wins over the default.
    expect(view(lenient('07/01/2024 14:02:11 BST', 'Asia/Dhaka'))).toMatchObject({ zone: 'Asia/Dhaka' });
  });

  it('reads the North American or European meaning under north-america-europe (issue 21: PST is not Manila)', () => {
    const paypal = createDatetimeParser(['MM/dd/yyyy HH:mm:ss'], { abbreviations: 'north-america-europe' });
    expect(view(paypal('01/15/2024 09:00:00 PST', undefined))).toEqual({
      at: '2024-01-15T17:00:00.000Z',
      zone: 'America/Los_Angeles',
      offsetMinutes: -480,
      assumed: { abbreviation: 'PST', meaning: expect.objectContaining({ name: 'Pacific Standard Time' }) },
    });
    // Where it differs from PostgreSQL's default: IST is Irish, not Israeli.
    expect(view(paypal('07/15/2024 10:00:00 IST', undefined))).toMatchObject({
      at: '2024-07-15T09:00:00.000Z',
      zone: 'Europe/Dublin',
    });
    expect(view(paypal('01/15/2024 10:00:00 CST', undefined))).toMatchObject({ zone: 'America/Chicago' });
    // No meaning in the Americas or Europe: still ambiguous.
    expect(paypal('01/15/2024 10:00:00 GST', undefined)).toMatchObject({
      ok: false,
      reason: 'ambiguous time zone',
    });
    // A configured zone still decides first, and an unambiguous abbreviation assumes nothing.
    const manila = view(paypal('01/15/2024 09:00:00 PST', 'Asia/Manila'));
    expect(manila).toEqual({ at: '2024-01-15T01:00:00.000Z', zone: 'Asia/Manila', offsetMinutes: 480 });
    expect(view(paypal('07/15/2024 09:00:00 PDT', undefined))).not.toHaveProperty('assumed');
  });

  it('takes the abbreviation from the row zone column when the value has none', async () => {
    const { lookupAbbreviation } = await import('../../src/record/zone-abbreviations.js');
    expect(view(parse('07/01/2024 14:02:11', undefined, lookupAbbreviation('PDT')))).toEqual({
      at: '2024-07-01T21:02:11.000Z',
      zone: 'America/Los_Angeles',
      offsetMinutes: -420,
    });
  });

  it('still names an unknown trailing word', () => {
    const result = parse('07/01/2024 14:02:11 XYZT', undefined);
    expect(result).toMatchObject({ ok: false, reason: 'unknown time zone' });
    expect(!result.ok && result.message).toContain('"XYZT"');
  });
});

describe('an ambiguous abbreviation is decided by the zone that writes it, not by an equal offset', () => {
  const parse = createDatetimeParser(['yyyy-MM-dd HH:mm:ss']);

  it.each([
    // New York is -05:00 in January like Cuba's CST, but CST there is Central time: not New York's own.
    ['2024-01-15 10:00:00 CST', 'America/New_York'],
    ['2024-07-15 10:00:00 CDT', 'America/New_York'],
  ])('%s in %s is not read as Cuba time', (raw, zone) => {
    expect(parse(raw, zone)).toMatchObject({ ok: false, reason: 'ambiguous time zone' });
    const lenient = createDatetimeParser(['yyyy-MM-dd HH:mm:ss'], { abbreviations: 'default' });
    // The documented default (US Central) then applies, with the contradiction flagged.
    expect(view(lenient(raw, zone))).toMatchObject({ zone: 'America/Chicago', contradicts: true });
  });

  it.each([
    ['2024-01-15 10:00:00 CST', 'America/Winnipeg', '2024-01-15T16:00:00.000Z'],
    ['2024-01-15 10:00:00 EST', 'America/Toronto', '2024-01-15T15:00:00.000Z'],
    ['2024-07-15 10:00:00 IST', 'Europe/Dublin', '2024-07-15T09:00:00.000Z'],
    ['2024-07-15 10:00:00 IST', 'Asia/Kolkata', '2024-07-15T04:30:00.000Z'],
  ])('%s in %s: the zone writes it, so it decides', (raw, zone, at) => {
    expect(view(parse(raw, zone))).toMatchObject({ at, zone });
  });
});
