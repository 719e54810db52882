// The validator on the instant rules of real exports: abbreviation zone columns, contradicting offsets
// (one warning per file), plausibility bounds, the zone precedence, joined columns and minor units.
import { describe, expect, it } from 'vitest';
import type { MappingInput } from '../../src/config/schema.js';
import { mappingSchema } from '../../src/config/schema.js';
import type { CsvRow, SourceInfo } from '../../src/input/types.js';
import { bindMapping } from '../../src/mapping/compile-mapping.js';
import { mergeMapping } from '../../src/mapping/merge-mapping.js';
import { findPreset } from '../../src/mapping/presets/index.js';
import { createValidator, type ValidateOptions } from '../../src/record/validate.js';

const header = ['Date', 'Time', 'TimeZone', 'Stamp', 'Gross', 'Currency', 'Transaction ID', 'Email'];
type Cells = Partial<Record<(typeof header)[number], string>>;

function setup(
  mapping: MappingInput,
  options: Partial<ValidateOptions> = {},
  parameters?: Record<string, string>,
  preset?: string,
) {
  const written = mappingSchema.parse({
    ...mapping,
    fields: {
      conversionId: 'Transaction ID',
      conversionEmail: 'Email',
      conversionValue: 'Gross',
      conversionCurrency: 'Currency',
      ...mapping.fields,
    },
  });
  const source: SourceInfo = { file: 'Download.CSV', format: 'csv', encoding: 'utf-8', header, parameters };
  const merged = mergeMapping(preset ? findPreset(preset) : undefined, written);
  // As the row checker passes them.
  const v = createValidator(bindMapping(merged, source), {
    timezone: undefined,
    currency: undefined,
    allowNegative: false,
    zoneAbbreviations: merged.zoneAbbreviations,
    abbreviationsWriter: merged.abbreviationsWriter,
    ...options,
  });
  const check = (cells: Cells) => {
    const row: CsvRow = {
      kind: 'csv',
      source,
      line: 2,
      cells: header.map((h) => cells[h] ?? ''),
    };
    return v.check(v.candidate(row));
  };
  return { check, warnings: () => v.drainWarnings() };
}

const base = { 'Transaction ID': 'T-1', Email: 'a@example.com', Gross: '10.00', Currency: 'USD' };
const paypal: MappingInput = {
  fields: { conversionDatetime: { columns: ['Date', 'Time', 'TimeZone'], format: 'MM/dd/yyyy HH:mm:ss' } },
};

describe('Date + Time + TimeZone joined (PayPal)', () => {
  it('reads the abbreviation as an offset and its usual zone', () => {
    const { check } = setup(paypal);
    expect(check({ ...base, Date: '07/01/2024', Time: '14:02:11', TimeZone: 'PDT' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T21:02:11.000Z', conversionTimezone: 'America/Los_Angeles' },
    });
  });

  it('the paypal preset reads PST as Pacific time with no zone configured, and says so once (issue 21)', () => {
    const { check, warnings } = setup({ fields: {} }, {}, undefined, 'paypal');
    const row = {
      ...base,
      Status: 'Completed',
      Type: 'Website Payment',
      'From Email Address': 'a@example.com',
    };
    for (const day of ['15', '16']) {
      expect(check({ ...row, Date: `01/${day}/2024`, Time: '09:00:00', TimeZone: 'PST' })).toMatchObject({
        ok: true,
        record: {
          conversionDatetime: `2024-01-${day}T17:00:00.000Z`,
          conversionTimezone: 'America/Los_Angeles',
        },
      });
    }
    expect(warnings()).toEqual([
      'PST read as Pacific Standard Time, UTC-08:00, as PayPal writes it; set `timezone` if your account is elsewhere',
    ]);
    // A user's mapping.zoneAbbreviations overrides the preset's reading.
    const strict = setup({ fields: {}, zoneAbbreviations: 'strict' }, {}, undefined, 'paypal');
    expect(strict.check({ ...row, Date: '01/15/2024', Time: '09:00:00', TimeZone: 'PST' })).toMatchObject({
      ok: false,
      issues: [{ reason: 'ambiguous time zone' }],
    });
  });

  it('names the joined columns in an error', () => {
    const { check } = setup(paypal);
    const result = check({ ...base, Date: '2024-07-01', Time: '14:02:11', TimeZone: 'PDT' });
    expect(result).toMatchObject({
      ok: false,
      issues: [{ column: 'Date + Time + TimeZone', reason: 'invalid datetime' }],
    });
  });

  it('refuses a joined column the header lacks, naming it', () => {
    expect(() => setup({ fields: { conversionDatetime: { columns: ['Date', 'Hour'] } } })).toThrow(
      /column "Hour" \(joined into conversionDatetime\) is not in the header of Download.CSV/,
    );
  });
});

describe('a zone column holding abbreviations', () => {
  const mapping: MappingInput = {
    fields: {
      conversionDatetime: { columns: ['Date', 'Time'], format: 'MM/dd/yyyy HH:mm:ss' },
      conversionTimezone: 'TimeZone',
    },
  };

  it('gives the offset; the configured zone names the record when it has that offset', () => {
    const { check, warnings } = setup(mapping, { timezone: 'America/Vancouver' });
    expect(check({ ...base, Date: '01/15/2024', Time: '09:00:00', TimeZone: 'PST' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-01-15T17:00:00.000Z', conversionTimezone: 'America/Vancouver' },
    });
    expect(warnings()).toEqual([]);
  });

  it('keeps the instant of a contradicting row and warns once per file with the count', () => {
    const { check, warnings } = setup(mapping, { timezone: 'Europe/Berlin' });
    for (const time of ['09:00:00', '10:00:00', '11:00:00']) {
      expect(check({ ...base, Date: '07/01/2024', Time: time, TimeZone: 'EDT' })).toMatchObject({
        ok: true,
        record: { conversionTimezone: 'America/New_York' },
      });
    }
    const [warning, ...more] = warnings();
    expect(more).toEqual([]);
    expect(warning).toMatch(
      /^Download.CSV: 3 rows carry an offset or zone abbreviation that Europe\/Berlin does not have/,
    );
    expect(warnings()).toEqual([]);
  });

  it('makes a row with an ambiguous abbreviation invalid unless the mapping allows the default', () => {
    const strict = setup(mapping);
    expect(strict.check({ ...base, Date: '07/01/2024', Time: '09:00:00', TimeZone: 'BST' })).toMatchObject({
      ok: false,
      issues: [{ column: 'Date + Time', reason: 'ambiguous time zone' }],
    });
    const lenient = setup(mapping, { zoneAbbreviations: 'default' });
    expect(lenient.check({ ...base, Date: '07/01/2024', Time: '09:00:00', TimeZone: 'BST' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T08:00:00.000Z', conversionTimezone: 'Europe/London' },
    });
  });

  it('never takes a legacy id for a zone', () => {
    const { check } = setup(mapping);
    const result = check({ ...base, Date: '07/01/2024', Time: '09:00:00', TimeZone: 'XST' });
    expect(result).toMatchObject({
      ok: false,
      issues: [{ column: 'TimeZone', reason: 'unknown time zone' }],
    });
  });
});

describe('written offsets against the configured zone', () => {
  const mapping: MappingInput = { fields: { conversionDatetime: 'Stamp' } };

  it('names the record after the configured zone, with or without its offset, warning once on a contradiction', () => {
    const { check, warnings } = setup(mapping, { timezone: 'Europe/Berlin' });
    expect(check({ ...base, Stamp: '2024-07-01 14:00:00 +0200' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T12:00:00.000Z', conversionTimezone: 'Europe/Berlin' },
    });
    expect(warnings()).toEqual([]);
    expect(check({ ...base, Stamp: '2024-07-01 14:00:00 -0700' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T21:00:00.000Z', conversionTimezone: 'Europe/Berlin' },
    });
    expect(warnings()).toEqual([expect.stringContaining('1 row carry an offset')]);
  });

  it('names the record after the offset only when no region/city zone is known', () => {
    const { check, warnings } = setup(mapping);
    expect(check({ ...base, Stamp: '2024-07-01 14:00:00 -0700' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T21:00:00.000Z', conversionTimezone: 'UTC' },
    });
    expect(warnings()).toEqual([]);
  });

  it('a Google Ads file zone names a row written with another offset (issue 21: +0100 was sent as Etc/GMT-1)', () => {
    const { check, warnings } = setup(mapping, {}, { timezone: 'America/Chicago' });
    expect(check({ ...base, Stamp: '2024-07-01 14:00:00 +0100' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T13:00:00.000Z', conversionTimezone: 'America/Chicago' },
    });
    expect(check({ ...base, Stamp: '2024-07-01 14:00:00' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T19:00:00.000Z', conversionTimezone: 'America/Chicago' },
    });
    expect(warnings()).toEqual([expect.stringContaining('America/Chicago does not have')]);
  });

  it('a Microsoft -0500 file zone is read as the offset and named after the configured zone (was Etc/GMT+5)', () => {
    const { check, warnings } = setup(mapping, { timezone: 'America/New_York' }, { timezone: '-0500' });
    // Winter: New York is -05:00, no contradiction.
    expect(check({ ...base, Stamp: '2024-01-10 09:00:00' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-01-10T14:00:00.000Z', conversionTimezone: 'America/New_York' },
    });
    expect(warnings()).toEqual([]);
    // Summer: the instant stays the offset's (as Microsoft reads it); counted once per file.
    for (const day of ['01', '02']) {
      expect(check({ ...base, Stamp: `2024-07-${day} 09:00:00` })).toMatchObject({
        ok: true,
        record: {
          conversionDatetime: `2024-07-${day}T14:00:00.000Z`,
          conversionTimezone: 'America/New_York',
        },
      });
    }
    expect(warnings()).toEqual([expect.stringMatching(/2 rows carry .*America\/New_York/)]);
  });

  it('a row zone column holding an offset is named after the configured zone', () => {
    const { check } = setup(
      { fields: { conversionDatetime: 'Stamp', conversionTimezone: 'TimeZone' } },
      { timezone: 'Europe/Berlin' },
    );
    expect(check({ ...base, Stamp: '2024-07-01 14:00:00', TimeZone: '+0200' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T12:00:00.000Z', conversionTimezone: 'Europe/Berlin' },
    });
    expect(check({ ...base, Stamp: '2024-07-01 14:00:00', TimeZone: 'UTC' })).toMatchObject({
      ok: true,
      record: { conversionTimezone: 'UTC' },
    });
  });

  it('does not count Z or an epoch as a contradiction', () => {
    const { check, warnings } = setup(mapping, { timezone: 'America/New_York' });
    expect(check({ ...base, Stamp: '2024-07-01T14:00:00Z' })).toMatchObject({
      ok: true,
      record: { conversionTimezone: 'America/New_York' },
    });
    expect(check({ ...base, Stamp: '1719842400' })).toMatchObject({ ok: true });
    expect(warnings()).toEqual([]);
  });
});

describe('plausible instants', () => {
  const mapping: MappingInput = { fields: { conversionDatetime: { column: 'Stamp', timezone: 'UTC' } } };
  const now = Date.parse('2026-11-23T12:00:00Z');

  it.each([
    // Google Ads uploads use 01/01/1970 as "no date".
    ['1970-01-01 01:00:00', 'before 2000-01-01'],
    ['1999-12-31 23:59:59', 'before 2000-01-01'],
    ['2026-11-24 12:00:01', 'in the future'],
  ])('%s is implausible (%s)', (stamp, words) => {
    const { check } = setup(mapping, { latestMs: now + 24 * 3_600_000 });
    const result = check({ ...base, Stamp: stamp });
    expect(result).toMatchObject({
      ok: false,
      issues: [{ column: 'Stamp', reason: 'implausible datetime' }],
    });
    expect(!result.ok && 'issues' in result && result.issues[0]!.message).toContain(words);
  });

  it.each(['2000-01-01 00:00:00', '2026-11-24 12:00:00'])('%s is inside the default bounds', (stamp) => {
    const { check } = setup(mapping, { latestMs: now + 24 * 3_600_000 });
    expect(check({ ...base, Stamp: stamp })).toMatchObject({ ok: true });
  });

  it('takes configured bounds', () => {
    const { check } = setup(mapping, { earliestMs: Date.parse('1990-01-01T00:00:00Z') });
    expect(check({ ...base, Stamp: '1995-06-01 00:00:00' })).toMatchObject({ ok: true });
  });
});

describe('zone precedence: row > file > field > mapping default > setting', () => {
  const mapping: MappingInput = {
    fields: { conversionDatetime: 'Stamp', conversionTimezone: 'TimeZone' },
    defaults: { conversionTimezone: 'Asia/Tokyo' },
  };

  it('a file zone (Parameters:TimeZone) beats mapping.defaults.conversionTimezone', () => {
    const { check } = setup(mapping, { timezone: 'UTC' }, { TimeZone: 'America/New_York' });
    expect(check({ ...base, Stamp: '2024-07-01 09:00:00' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T13:00:00.000Z', conversionTimezone: 'America/New_York' },
    });
  });

  it('a zone in the row beats the file zone', () => {
    const { check } = setup(mapping, {}, { TimeZone: 'America/New_York' });
    expect(check({ ...base, Stamp: '2024-07-01 09:00:00', TimeZone: 'Europe/Paris' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T07:00:00.000Z', conversionTimezone: 'Europe/Paris' },
    });
  });

  it('the mapping default beats the timezone setting when the file has none', () => {
    const { check } = setup(mapping, { timezone: 'UTC' });
    expect(check({ ...base, Stamp: '2024-07-01 09:00:00' })).toMatchObject({
      ok: true,
      record: { conversionDatetime: '2024-07-01T00:00:00.000Z', conversionTimezone: 'Asia/Tokyo' },
    });
  });

  it('refuses an abbreviation as the default zone, naming the zone to write', () => {
    expect(() => setup({ ...mapping, defaults: { conversionTimezone: 'PST' } })).toThrow(
      /conversionTimezone: "PST" is not an IANA time zone name \(it is an abbreviation, an offset: write the zone, such as America\/Los_Angeles\)/,
    );
  });
});

describe('unit: minor', () => {
  const mapping: MappingInput = {
    fields: {
      conversionDatetime: { column: 'Stamp', timezone: 'UTC' },
      conversionValue: { column: 'Gross', unit: 'minor' },
    },
  };

  it.each([
    ['2344910', 'USD', 23449.1],
    ['1050', 'JPY', 1050],
    ['12345', 'KWD', 12.345],
  ])('%s %s minor units -> %d', (gross, currency, value) => {
    const { check } = setup(mapping);
    expect(check({ ...base, Stamp: '2024-07-01 09:00:00', Gross: gross, Currency: currency })).toMatchObject({
      ok: true,
      record: { conversionValue: value, conversionCurrency: currency },
    });
  });

  it('refuses a fraction of a minor unit', () => {
    const { check } = setup(mapping);
    expect(check({ ...base, Stamp: '2024-07-01 09:00:00', Gross: '12.5' })).toMatchObject({
      ok: false,
      issues: [{ column: 'Gross', reason: 'invalid number' }],
    });
  });
});

describe('a preset field overridden with an object', () => {
  it('keeps the keys not given (format, timezone) and takes the new column', () => {
    const merged = mergeMapping(
      findPreset('stripe'),
      mappingSchema.parse({ fields: { conversionDatetime: { column: 'Created date (America/New_York)' } } }),
    );
    expect(merged.fields.conversionDatetime).toEqual({
      spec: {
        column: 'Created date (America/New_York)',
        format: ['yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd HH:mm'],
        timezone: 'UTC',
      },
      bare: undefined,
      origin: 'user',
    });
  });

  it('keeps the preset column when only a key like timezone is given', () => {
    const merged = mergeMapping(
      findPreset('stripe'),
      mappingSchema.parse({ fields: { conversionDatetime: { timezone: 'America/New_York' } } }),
    );
    expect(merged.fields.conversionDatetime).toMatchObject({
      spec: { column: ['Created date (UTC)', 'Created (UTC)'], timezone: 'America/New_York' },
      origin: 'preset',
    });
  });

  it('a bare column name still replaces the preset field whole', () => {
    const merged = mergeMapping(
      findPreset('stripe'),
      mappingSchema.parse({ fields: { conversionDatetime: 'When' } }),
    );
    expect(merged.fields.conversionDatetime).toEqual({ spec: {}, bare: 'When', origin: 'user' });
  });
});

describe('keys a field does not use', () => {
  it.each([
    ['conversionDatetime', { column: 'Stamp', scale: 100 }, 'scale'],
    ['conversionDatetime', { column: 'Stamp', decimal: ',' }, 'decimal'],
    ['conversionValue', { column: 'Gross', format: 'iso' }, 'format'],
    ['conversionValue', { column: 'Gross', timezone: 'UTC' }, 'timezone'],
    ['conversionEmail', { column: 'Email', transform: 'uppercase' }, 'transform'],
  ])('%s with %j is a config error naming %s', (field, spec, key) => {
    const parsed = mappingSchema.safeParse({ fields: { [field]: spec } });
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues[0]!;
    expect(issue.path).toEqual(['fields', field, key]);
    expect(issue.message).toContain(`${field} does not use ${key}`);
  });

  it('names the fields that do use the key', () => {
    const parsed = mappingSchema.safeParse({
      fields: { conversionDatetime: { column: 'Stamp', scale: 100 } },
    });
    expect(parsed.error!.issues[0]!.message).toBe(
      'conversionDatetime does not use scale (used by conversionValue only)',
    );
  });
});
