import { describe, expect, it } from 'vitest';
import type { MappingInput } from '../../src/config/schema.js';
import { mappingSchema } from '../../src/config/schema.js';
import type { CsvRow, SourceInfo } from '../../src/input/types.js';
import { bindMapping } from '../../src/mapping/compile-mapping.js';
import { mergeMapping } from '../../src/mapping/merge-mapping.js';
import { conversionRecordSchema } from '../../src/record/schema.js';
import { createValidator, type ValidateOptions } from '../../src/record/validate.js';

const header = ['Order', 'Visitor', 'Email', 'Time', 'Zone', 'Value', 'Currency', 'Name'];

function validator(
  mapping: MappingInput = {},
  options: Partial<ValidateOptions> = {},
  parameters?: Record<string, string>,
) {
  const written = mappingSchema.parse({
    fields: {
      conversionId: 'Order',
      serviceId: 'Visitor',
      conversionEmail: 'Email',
      conversionDatetime: 'Time',
      conversionTimezone: 'Zone',
      conversionValue: 'Value',
      conversionCurrency: 'Currency',
      conversionName: 'Name',
      ...mapping.fields,
    },
    defaults: mapping.defaults ?? {},
  });
  const source: SourceInfo = { file: 'in.csv', format: 'csv', encoding: 'utf-8', header, parameters };
  const v = createValidator(bindMapping(mergeMapping(undefined, written), source), {
    timezone: undefined,
    currency: undefined,
    allowNegative: false,
    ...options,
  });
  return (cells: Partial<Record<(typeof header)[number], string>>) => {
    const row: CsvRow = { kind: 'csv', source, line: 2, cells: header.map((h) => cells[h] ?? '') };
    return v.check(v.candidate(row));
  };
}

const good = {
  Order: ' A-1 ',
  Visitor: 'v-1',
  Time: '2024-03-05 14:22:10',
  Zone: 'Europe/Berlin',
  Value: '12.50',
  Currency: 'eur',
};

describe('createValidator', () => {
  it('normalizes a good row into exactly the wire record, omitting empty optional fields', () => {
    const result = validator()(good);
    expect(result).toEqual({
      ok: true,
      record: {
        conversionCurrency: 'EUR',
        conversionValue: 12.5,
        conversionDatetime: '2024-03-05T13:22:10.000Z',
        conversionTimezone: 'Europe/Berlin',
        serviceId: 'v-1',
        conversionId: 'A-1',
      },
    });
    if (result.ok) expect(conversionRecordSchema.safeParse(result.record).success).toBe(true);
  });

  it.each([
    // zone, local time, expected UTC (DST gap => invalid, overlap => the earlier instant)
    ['Europe/Berlin', '2024-03-31 02:30:00', undefined],
    ['Europe/Berlin', '2024-10-27 02:30:00', '2024-10-27T00:30:00.000Z'],
    ['America/New_York', '2024-03-10 02:30:00', undefined],
    ['America/New_York', '2024-11-03 01:30:00', '2024-11-03T05:30:00.000Z'],
    ['Asia/Kathmandu', '2024-06-01 12:00:00', '2024-06-01T06:15:00.000Z'],
  ])('reads %s local time %s', (zone, time, utc) => {
    const result = validator()({ ...good, Zone: zone, Time: time });
    if (utc === undefined) {
      expect(result.ok).toBe(false);
      if (!result.ok && 'issues' in result)
        expect(result.issues[0]).toMatchObject({ column: 'Time', reason: 'nonexistent local time' });
    } else {
      expect(result).toMatchObject({
        ok: true,
        record: { conversionDatetime: utc, conversionTimezone: zone },
      });
    }
  });

  it.each([
    ['JPY', '1234.5', 1235],
    ['KWD', '1.2345', 1.235],
    ['EUR', '0.125', 0.13],
    ['EUR', '1.149,00', 1149],
    ['EUR', '14,9', 14.9],
    ['usd', '1,249.00', 1249],
    ['EUR', '0', 0],
  ])('rounds %s %s to %d', (currency, value, expected) => {
    const result = validator()({ ...good, Currency: currency, Value: value });
    expect(result).toMatchObject({ ok: true, record: { conversionValue: expected } });
  });

  it.each([
    [{ Value: '1,234' }, 'Value', 'ambiguous number'],
    [{ Value: 'abc' }, 'Value', 'invalid number'],
    [{ Value: '' }, 'Value', 'missing value'],
    [{ Value: '-5.00' }, 'Value', 'negative value'],
    [{ Currency: 'EURO' }, 'Currency', 'invalid currency'],
    [{ Currency: '' }, 'Currency', 'missing currency'],
    [{ Zone: 'Mars/Olympus' }, 'Zone', 'unknown time zone'],
    [{ Time: '2024-02-30 10:00:00' }, 'Time', 'impossible date'],
    [{ Time: '2024-13-01 10:00:00' }, 'Time', 'impossible date'],
    [{ Time: 'yesterday' }, 'Time', 'invalid datetime'],
    [{ Email: 'not-an-email', Visitor: '' }, 'Email', 'invalid e-mail'],
    [{ Email: 'a'.repeat(64), Visitor: '' }, 'Email', 'hashed e-mail'],
    [{ Visitor: '' }, 'Visitor / Email', 'missing visitor id'],
  ])('refuses %o with the source column and reason', (cells, column, reason) => {
    const result = validator()({ ...good, ...cells });
    expect(result.ok).toBe(false);
    if (!result.ok && 'issues' in result) {
      expect(result.issues.map((i) => [i.column, i.reason])).toContainEqual([column, reason]);
    }
  });

  it('masks the e-mail in the reported value', () => {
    const result = validator()({ ...good, Email: 'jane.doe@nowhere' });
    expect(result.ok).toBe(false);
    if (!result.ok && 'issues' in result) expect(result.issues[0]?.value).toBe('j***@nowhere');
  });

  it('takes the first e-mail address out of a cell with transform: email', () => {
    const v = validator({ fields: { conversionEmail: { column: 'Email', transform: 'email' } } });
    expect(v({ ...good, Email: 'Ann Lee (Ann@Example.com);Bob Ray (bob@example.org)' })).toMatchObject({
      ok: true,
      record: { conversionEmail: 'ann@example.com' },
    });
    expect(v({ ...good, Email: 'cy@example.net' })).toMatchObject({
      ok: true,
      record: { conversionEmail: 'cy@example.net' },
    });
    // A cell with no address is left as written, so it is rejected rather than sent without a link.
    const none = v({ ...good, Visitor: '', Email: 'Ann Lee' });
    expect(none.ok).toBe(false);
    if (!none.ok && 'issues' in none) expect(none.issues.map((i) => i.reason)).toContain('invalid e-mail');
    // Without the transform the wrapped form is not an e-mail.
    expect(validator()({ ...good, Email: 'Ann Lee (ann@example.com)' }).ok).toBe(false);
  });

  it('lower-cases and trims e-mails, accepts negatives when allowed, honours decimal and scale', () => {
    expect(validator()({ ...good, Email: '  Jane.Doe@Example.COM ' })).toMatchObject({
      ok: true,
      record: { conversionEmail: 'jane.doe@example.com' },
    });
    expect(validator({}, { allowNegative: true })({ ...good, Value: '-9,99' })).toMatchObject({
      ok: true,
      record: { conversionValue: -9.99 },
    });
    expect(
      validator({ fields: { conversionValue: { column: 'Value', decimal: ',' } } })({
        ...good,
        Value: '1,234',
      }),
    ).toMatchObject({ ok: true, record: { conversionValue: 1.23 } });
    expect(
      validator({ fields: { conversionValue: { column: 'Value', scale: 0.000001 } } })({
        ...good,
        Value: '129990000',
      }),
    ).toMatchObject({ ok: true, record: { conversionValue: 129.99 } });
  });

  it('takes the zone from the column, then the file Parameters row, then the configured default', () => {
    const local = { ...good, Zone: '', Time: '2024-07-01 12:00:00' };
    expect(validator()(local)).toMatchObject({ ok: false });
    expect(validator({}, { timezone: 'Asia/Tokyo' })(local)).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T03:00:00.000Z', conversionTimezone: 'Asia/Tokyo' },
    });
    expect(validator({}, { timezone: 'Asia/Tokyo' }, { TimeZone: 'America/Chicago' })(local)).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T17:00:00.000Z', conversionTimezone: 'America/Chicago' },
    });
    // Microsoft's fixed offsets apply all year, DST or not.
    expect(validator({}, {}, { TimeZone: '-0500' })(local)).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T17:00:00.000Z', conversionTimezone: 'Etc/GMT+5' },
    });
    expect(
      validator({}, { timezone: 'Asia/Tokyo' }, { TimeZone: 'America/Chicago' })({ ...local, Zone: 'UTC' }),
    ).toMatchObject({
      ok: true,
      record: { conversionTimezone: 'UTC', conversionDatetime: '2024-07-01T12:00:00.000Z' },
    });
  });

  it('never falls back past a file zone it cannot resolve (found in review: +0530 became Berlin)', () => {
    const local = { ...good, Zone: '', Time: '2024-03-05 10:00:00' };
    const result = validator({}, { timezone: 'Europe/Berlin' }, { TimeZone: '+0530' })(local);
    expect(result.ok).toBe(false);
    if (!result.ok && 'issues' in result)
      expect(result.issues[0]).toMatchObject({ column: 'Parameters:TimeZone', reason: 'unknown time zone' });
    // A zone in the row still wins over the file's.
    expect(validator({}, {}, { TimeZone: '+0530' })({ ...local, Zone: 'Asia/Kolkata' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-03-05T04:30:00.000Z' },
    });
    expect(() =>
      validator({ fields: { conversionDatetime: { column: 'Time', timezone: 'Mars/Base' } } }),
    ).toThrow(/is not an IANA time zone name/);
  });

  it('keeps the row zone for a time that carries its own offset, and UTC when there is none', () => {
    expect(validator()({ ...good, Time: '2024-07-01T12:00:00+02:00' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T10:00:00.000Z', conversionTimezone: 'Europe/Berlin' },
    });
    expect(validator()({ ...good, Zone: '', Time: '1719835200' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T12:00:00.000Z', conversionTimezone: 'UTC' },
    });
  });

  it('keeps formula-looking text verbatim in the record', () => {
    expect(validator()({ ...good, Name: '=HYPERLINK("x")' })).toMatchObject({
      ok: true,
      record: { conversionName: '=HYPERLINK("x")' },
    });
  });

  it('fills empty cells from defaults and constants', () => {
    const v = validator({
      fields: { conversionName: { value: 'Purchase' } },
      defaults: { conversionCurrency: 'CHF' },
    });
    expect(v({ ...good, Currency: '', Name: 'ignored' })).toMatchObject({
      ok: true,
      record: { conversionCurrency: 'CHF', conversionName: 'Purchase' },
    });
  });

  it('turns a bad datetime format into a config error', () => {
    expect(() => validator({ fields: { conversionDatetime: { column: 'Time', format: 'qqq' } } })).toThrow(
      /conversionDatetime.format/,
    );
  });
});

describe('ids from JSON numbers', () => {
  it('turns a safe integer into a string and refuses one JSON.parse could not keep exact', () => {
    const source: SourceInfo = { file: 'in.jsonl', format: 'jsonl', encoding: 'utf-8' };
    const written = mappingSchema.parse({
      fields: {
        conversionId: 'id',
        serviceId: 'v',
        conversionDatetime: 't',
        conversionValue: 'x',
        conversionCurrency: 'c',
      },
    });
    const v = createValidator(bindMapping(mergeMapping(undefined, written), source), {
      timezone: undefined,
      currency: undefined,
      allowNegative: false,
    });
    const check = (id: number) => {
      const value = { id, v: 'a', t: 1710405000, c: 'EUR', x: 1 };
      return v.check(v.candidate({ kind: 'json', source, line: 1, value, text: JSON.stringify(value) }));
    };
    expect(check(88121)).toMatchObject({ ok: true, record: { conversionId: '88121' } });
    const big = check(JSON.parse('12345678901234567890'));
    expect(big.ok).toBe(false);
    if (!big.ok && 'issues' in big)
      expect(big.issues[0]).toMatchObject({ column: 'id', reason: 'id not exact' });
  });
});

describe('ids a spreadsheet saved in scientific notation', () => {
  it('refuses `1,23456765432346E+021` and `1.23457E+21` as ids, keeps ids that only look numeric', () => {
    const check = validator();
    for (const mangled of ['1,23456765432346E+021', '1.23457E+21', '9E+15']) {
      const result = check({ ...good, Order: mangled });
      expect(result.ok).toBe(false);
      if (!result.ok && 'issues' in result)
        expect(result.issues).toEqual([expect.objectContaining({ column: 'Order', reason: 'id not exact' })]);
      const visitor = check({ ...good, Visitor: mangled });
      expect(visitor.ok).toBe(false);
    }
    for (const id of ['12345678901234567890', '1E5', '5RT11111AB222222C', '2E10-A', 'INV2-1E+3']) {
      expect(check({ ...good, Order: id })).toMatchObject({ ok: true, record: { conversionId: id } });
    }
  });
});
