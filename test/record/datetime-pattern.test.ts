import { describe, expect, it } from 'vitest';
import { createDatetimeParser, type DatetimeResult } from '../../src/record/datetime.js';

function view(result: DatetimeResult) {
  if (!result.ok) return { reason: result.reason };
  const { ok: _ok, utcMs, ...rest } = result;
  return { at: new Date(utcMs).toISOString(), ...rest };
}

describe('Google Ads Conversion Time forms', () => {
  const parse = createDatetimeParser([
    'yyyy-MM-dd HH:mm:ss',
    'MM/dd/yyyy HH:mm:ss',
    'MM/dd/yyyy h:mm:ss a',
    'MMM d, yyyy h:mm:ss a',
    "yyyy-MM-dd'T'HH:mm:ss",
  ]);

  it.each([
    ['2024-03-05 14:22:10+0500', '2024-03-05T09:22:10.000Z'],
    ['2024-03-05 14:22:10 +0500', '2024-03-05T09:22:10.000Z'],
    ['03/05/2024 14:22:10+0500', '2024-03-05T09:22:10.000Z'],
    ['03/05/2024 2:22:10 PM+0500', '2024-03-05T09:22:10.000Z'],
    ['03/05/2024 2:22:10 PM +0500', '2024-03-05T09:22:10.000Z'],
    ['Mar 5, 2024 2:22:10 PM +0500', '2024-03-05T09:22:10.000Z'],
    ['2024-03-05T14:22:10+0500', '2024-03-05T09:22:10.000Z'],
    ['2024-03-05T14:22:10+05:00', '2024-03-05T09:22:10.000Z'],
  ])('%j -> %s (offset)', (raw, at) => {
    expect(view(parse(raw, undefined))).toEqual({ at, offsetMinutes: 300 });
  });

  it.each([
    ['2024-03-05 14:22:10 America/Los_Angeles', '2024-03-05T22:22:10.000Z'],
    ['03/05/2024 14:22:10 America/Los_Angeles', '2024-03-05T22:22:10.000Z'],
    ['03/05/2024 2:22:10 PM America/Los_Angeles', '2024-03-05T22:22:10.000Z'],
    ['Mar 5, 2024 2:22:10 PM America/Los_Angeles', '2024-03-05T22:22:10.000Z'],
    ['2024-03-05T14:22:10 America/Los_Angeles', '2024-03-05T22:22:10.000Z'],
    ['Jul 5, 2024 2:22:10 PM America/Los_Angeles', '2024-07-05T21:22:10.000Z'],
  ])('%j -> %s (zone name)', (raw, at) => {
    expect(view(parse(raw, undefined))).toEqual({ at, zone: 'America/Los_Angeles' });
  });
});

describe('token patterns', () => {
  it.each([
    ['MMM d, yyyy h:mm:ss a', 'Aug 14,2012 12:05:00 AM', '2012-08-14T00:05:00.000Z'],
    ['MMM d, yyyy h:mm:ss a', 'Aug 14, 2012 12:05:00 AM', '2012-08-14T00:05:00.000Z'],
    ['MMM d, yyyy h:mm:ss a', 'aug 14, 2012 12:05:00 pm', '2012-08-14T12:05:00.000Z'],
    ['MMM d, yyyy h:mm:ss a', 'AUG 14, 2012 1:05:00 p.m.', '2012-08-14T13:05:00.000Z'],
    ['MMM d, yyyy h:mm:ss a', 'Sept 1, 2012 11:59:59 PM', '2012-09-01T23:59:59.000Z'],
    ['MMMM d, yyyy', 'August 14, 2012', '2012-08-14T00:00:00.000Z'],
    ['MMMM d, yyyy', 'december 1, 2012', '2012-12-01T00:00:00.000Z'],
    ['MM/dd/yyyy h:mm:ss a', '3/5/2024 12:00:00 AM', '2024-03-05T00:00:00.000Z'],
    ['MM/dd/yyyy h:mm:ss a', '3/5/2024 12:00:00 PM', '2024-03-05T12:00:00.000Z'],
    ['MM/dd/yyyy HH:mm:ss', '3/5/2024 9:05:07', '2024-03-05T09:05:07.000Z'],
    ['M/d/yyyy H:mm', '03/05/2024 09:05', '2024-03-05T09:05:00.000Z'],
    ['dd.MM.yyyy HH:mm', '05.03.2024 14:22', '2024-03-05T14:22:00.000Z'],
    ['dd.MM.yyyy HH:mm', '5.3.2024 14:22', '2024-03-05T14:22:00.000Z'],
    ['dd.MM.yyyy  HH:mm', '5.3.2024 14:22', '2024-03-05T14:22:00.000Z'],
    ['dd/MM/yy HH:mm', '05/03/24 14:22', '2024-03-05T14:22:00.000Z'],
    ['dd/MM/yy HH:mm', '05/03/99 14:22', '1999-03-05T14:22:00.000Z'],
    ['yyyyMMddHHmmss', '20240305142210', '2024-03-05T14:22:10.000Z'],
    ['yyyy-MM-dd HH:mm:ss.SSS', '2024-03-05 14:22:10.5', '2024-03-05T14:22:10.500Z'],
    ['yyyy-MM-dd HH:mm:ss.SSS', '2024-03-05 14:22:10.123456', '2024-03-05T14:22:10.123Z'],
    ['EEE, dd MMM yyyy HH:mm:ss', 'Tue, 05 Mar 2024 14:22:10', '2024-03-05T14:22:10.000Z'],
    ["yyyy-MM-dd'T'HH:mm:ssZZ", '2024-03-05T14:22:10', '2024-03-05T14:22:10.000Z'],
    ["'at' yyyy-MM-dd HH:mm", 'at 2024-03-05 14:22', '2024-03-05T14:22:00.000Z'],
    ["yyyy-MM-dd HH'h'mm", '2024-03-05 14h22', '2024-03-05T14:22:00.000Z'],
    ["dd MMM yyyy 'o''clock' H", "05 Mar 2024 o'clock 14", '2024-03-05T14:00:00.000Z'],
  ])('%s reads %j', (format, raw, at) => {
    expect(view(createDatetimeParser([format])(raw, 'UTC'))).toEqual({ at });
  });

  it('tries formats in order, so a day-first value can follow a month-first one', () => {
    const parse = createDatetimeParser(['MM/dd/yyyy', 'dd/MM/yyyy']);
    expect(view(parse('12/25/2024', 'UTC'))).toEqual({ at: '2024-12-25T00:00:00.000Z' });
    expect(view(parse('25/12/2024', 'UTC'))).toEqual({ at: '2024-12-25T00:00:00.000Z' });
  });

  it('takes an offset with a GMT prefix', () => {
    const parse = createDatetimeParser(['yyyy-MM-dd HH:mm']);
    expect(view(parse('2024-03-05 14:22 GMT+01:00', undefined))).toEqual({
      at: '2024-03-05T13:22:00.000Z',
      offsetMinutes: 60,
    });
  });

  it.each([
    ['MM/dd/yyyy', '02/30/2024', 'impossible date'],
    ['MM/dd/yyyy', '13/01/2024', 'impossible date'],
    ['MM/dd/yyyy h:mm a', '03/05/2024 13:00 PM', 'impossible date'],
    ['MM/dd/yyyy h:mm a', '03/05/2024 0:30 AM', 'impossible date'],
    ['dd.MM.yyyy HH:mm', '05.03.2024 24:00', 'impossible date'],
    ['dd.MM.yyyy HH:mm', '05.03.2024 14:60', 'impossible date'],
    ['MMM d, yyyy', 'Foo 5, 2024', 'invalid datetime'],
    ['MM/dd/yyyy', '2024-03-05', 'invalid datetime'],
    ['MM/dd/yyyy', '03/05/2024 Mars/Olympus', 'unknown time zone'],
    ['MM/dd/yyyy HH:mm', '03/31/2024 02:30', 'nonexistent local time'],
    ['yyyy-MM-dd HH:mm:ss', '2024-03-05 14:22:10', 'missing time zone'],
  ])('%s rejects %j as %s', (format, raw, reason) => {
    const parse = createDatetimeParser([format]);
    const zone = reason === 'missing time zone' ? undefined : 'Europe/Berlin';
    expect(view(parse(raw, zone))).toEqual({ reason });
  });

  it('reads JSON numbers with a pattern when epoch is not listed', () => {
    expect(view(createDatetimeParser(['yyyyMMdd'])(20240305, 'UTC'))).toEqual({
      at: '2024-03-05T00:00:00.000Z',
    });
  });

  it('quotes the patterns it tried in the message', () => {
    const result = createDatetimeParser(['dd.MM.yyyy HH:mm', 'iso'])('yesterday', 'UTC');
    expect(!result.ok && result.message).toBe(
      '"yesterday" does not match any accepted datetime format (tried "dd.MM.yyyy HH:mm", iso (2024-03-05T14:22:10Z)).',
    );
  });

  it.each([
    ['yyyy-MM-dd qq', /unknown token "qq"/],
    ['yyyy-MM-ddTHH:mm', /unknown token "T"/],
    ["yyyy-MM-dd 'T", /unclosed quote/],
    ['HH:mm', /has no year/],
    ['yyyy HH:mm', /has no month/],
  ])('refuses the pattern %j', (format, problem) => {
    expect(() => createDatetimeParser([format])).toThrow(problem);
  });
});
