// The per-file warnings collector on its own: one Tally for the zero values and the contradictions, the
// thresholds and examples their warnings use, and the reset at each drain.
import { describe, expect, it } from 'vitest';
import { FileWarnings, Tally, type WarningsAbout } from '../../../src/record/checks/warnings.js';
import type { AbbreviationMeaning } from '../../../src/record/zone-abbreviations.js';

const about: WarningsAbout = {
  file: 'orders.csv',
  valueColumn: 'Total',
  namedZone: undefined,
  configuredZone: 'Europe/Berlin',
  abbreviationsWriter: undefined,
};

describe('Tally', () => {
  it('says which row is the first since the last reset', () => {
    const tally = new Tally();
    expect([tally.add(), tally.add(), tally.add()]).toEqual([true, false, false]);
    expect(tally.count).toBe(3);
    tally.reset();
    expect([tally.count, tally.example, tally.add()]).toEqual([0, '', true]);
  });
});

describe('FileWarnings', () => {
  it.each([
    [[0, 0, 5], true],
    [[0, 5], false],
    [[0, 0, 5, 5], false],
    [[0], true],
    [[], false],
  ])('values %j: a zero-value warning %s (more than half of the valid rows are 0)', (values, warned) => {
    const warnings = new FileWarnings(about);
    for (const value of values) warnings.recordKept(value);
    const zeros = values.filter((v) => v === 0).length;
    expect(warnings.drain()).toEqual(
      warned
        ? [
            `orders.csv: ${zeros} of ${values.length} valid rows have the value 0 (column Total): is it the revenue column?`,
          ]
        : [],
    );
  });

  it('quotes the first contradicting row, counts them all, and starts over after a drain', () => {
    const warnings = new FileWarnings(about);
    warnings.contradicted('10:00 +0100', undefined);
    warnings.contradicted('11:00 +0300', 'Asia/Tokyo');
    expect(warnings.drain()).toEqual([
      'orders.csv: 2 rows carry an offset or zone abbreviation that Europe/Berlin does not have at that time ' +
        '(e.g. "10:00 +0100" is not the configured zone): their instants are kept as written, with the zone ' +
        'their offset names; check `timezone`',
    ]);
    expect(warnings.drain()).toEqual([]);
    warnings.contradicted('12:00 +0300', 'Asia/Tokyo');
    expect(warnings.drain()).toEqual([expect.stringContaining('1 row carry an offset')]);
  });

  it('names the region zone records keep when there is one', () => {
    const warnings = new FileWarnings({ ...about, namedZone: 'America/New_York' });
    warnings.contradicted('x', 'America/New_York');
    expect(warnings.drain()).toEqual([
      expect.stringMatching(/that America\/New_York does not have .* with the zone America\/New_York; /),
    ]);
  });

  it('notes an abbreviation read with a preset meaning once, and only for a preset that has one', () => {
    const meaning: AbbreviationMeaning = {
      zone: 'America/Los_Angeles',
      offsetMinutes: -480,
      name: 'Pacific',
    };
    const silent = new FileWarnings(about);
    silent.abbreviationAssumed('PST', meaning);
    expect(silent.drain()).toEqual([]);
    const paypal = new FileWarnings({ ...about, abbreviationsWriter: 'PayPal' });
    paypal.abbreviationAssumed('PST', meaning);
    paypal.abbreviationAssumed('PST', meaning);
    expect(paypal.drain()).toEqual([
      'PST read as Pacific, UTC-08:00, as PayPal writes it; set `timezone` if your account is elsewhere',
    ]);
  });

  it('gives the zero-value warning, then the abbreviation notes, then the contradictions', () => {
    const meaning: AbbreviationMeaning = {
      zone: 'America/Los_Angeles',
      offsetMinutes: -480,
      name: 'Pacific',
    };
    const warnings = new FileWarnings({ ...about, abbreviationsWriter: 'PayPal' });
    warnings.contradicted('x', undefined);
    warnings.abbreviationAssumed('PST', meaning);
    warnings.recordKept(0);
    expect(warnings.drain().map((w) => w.slice(0, 14))).toEqual([
      'orders.csv: 1 ',
      'PST read as Pa',
      'orders.csv: 1 ',
    ]);
  });
});
