import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { data as isoCurrencies } from 'currency-codes';
import { describe, expect, it } from 'vitest';
import { currencyFromSymbolOrCode, minorUnits, normalizeCurrency } from '../../src/record/currency.js';

/** Code -> minor units as ISO's list one writes them (`2`, `N.A.`), from the copy currency-codes ships. */
const isoListOne = new Map(
  [
    ...readFileSync(
      createRequire(import.meta.url).resolve('currency-codes/iso-4217-list-one.xml'),
      'utf8',
    ).matchAll(/<CcyNtry>[\s\S]*?<\/CcyNtry>/g),
  ].flatMap(([entry]) => {
    const code = /<Ccy>(\w{3})<\/Ccy>/.exec(entry)?.[1];
    const units = /<CcyMnrUnts>([^<]*)<\/CcyMnrUnts>/.exec(entry)?.[1];
    return code && units ? [[code, units] as const] : [];
  }),
);

describe('normalizeCurrency', () => {
  it.each([
    ['EUR', 'EUR'],
    ['eur', 'EUR'],
    [' usd ', 'USD'],
    ['Jpy', 'JPY'],
    ['KWD', 'KWD'],
    ['huf', 'HUF'],
  ])('%j -> %s', (raw, code) => {
    expect(normalizeCurrency(raw)).toBe(code);
  });

  it.each(['EURO', 'US$', '€', '', 'EU', 'XYZ', 'E U', '12'])('%j is not a code', (raw) => {
    expect(normalizeCurrency(raw)).toBeUndefined();
  });

  it.each(['XDR', 'xdr', 'XSU', 'XAU', 'XAG', 'XXX', 'XTS'])(
    '%j has no minor units in ISO 4217: refused',
    (raw) => {
      expect(normalizeCurrency(raw)).toBeUndefined();
      expect(currencyFromSymbolOrCode(raw)).toBeUndefined();
    },
  );

  it.each(['HRK', 'SLL', 'ZWL', 'XCG'])(
    "%s, which Intl knows and the package's ISO list lacks, is still accepted",
    (code) => {
      expect(normalizeCurrency(code)).toBe(code);
    },
  );
});

describe('minorUnits', () => {
  // HUF, COP, IDR, PKR, IQD, LBP: Intl's (CLDR's) display digits are 0, ISO 4217's minor units are not.
  it.each([
    ['HUF', 2],
    ['COP', 2],
    ['IDR', 2],
    ['PKR', 2],
    ['IQD', 3],
    ['LBP', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['TND', 3],
    ['CLF', 4],
    ['UYW', 4],
    ['EUR', 2],
    ['USD', 2],
  ])('%s has %d', (code, digits) => {
    expect(minorUnits(code)).toBe(digits);
  });

  it.each(isoCurrencies.map((c) => [c.code, isoListOne.get(c.code)] as const))(
    '%s has ISO 4217 minor units %s',
    (code, units) => {
      if (units === 'N.A.') {
        expect(() => minorUnits(code)).toThrow(RangeError);
        expect(normalizeCurrency(code)).toBeUndefined();
      } else {
        expect(minorUnits(code)).toBe(Number(units));
      }
    },
  );

  it('reads the same codes from the package and from the ISO list it ships', () => {
    expect(isoCurrencies.length).toBeGreaterThan(150);
    expect(isoCurrencies.map((c) => c.code).sort()).toEqual([...isoListOne.keys()].sort());
  });

  it.each(['HRK', 'SLL', 'ZWL', 'XCG'])("%s, not in the package's ISO list, takes Intl's digits", (code) => {
    expect(minorUnits(code)).toBe(
      new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
        .maximumFractionDigits,
    );
  });

  it('throws RangeError for a malformed code', () => {
    expect(() => minorUnits('EU')).toThrow(RangeError);
  });
});

describe('currencyFromSymbolOrCode', () => {
  it.each([
    ['€', 'EUR'],
    ['£', 'GBP'],
    ['R$', 'BRL'],
    ['zł', 'PLN'],
    ['₹', 'INR'],
    ['CHF', 'CHF'],
    ['chf', 'CHF'],
    ['US$', 'USD'],
    [' eur ', 'EUR'],
    ['$', undefined],
    ['¥', undefined],
    ['kr', undefined],
    ['EURO', undefined],
    ['abc', undefined],
    ['', undefined],
  ])('%j -> %s', (token, code) => {
    expect(currencyFromSymbolOrCode(token)).toBe(code);
  });
});
