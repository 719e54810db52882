import { describe, expect, it } from 'vitest';
import { currencyFromSymbolOrCode, minorUnits, normalizeCurrency } from '../../src/record/currency.js';

describe('normalizeCurrency', () => {
  it.each([
    ['EUR', 'EUR'],
    ['eur', 'EUR'],
    [' usd ', 'USD'],
    ['Jpy', 'JPY'],
    ['KWD', 'KWD'],
  ])('%j -> %s', (raw, code) => {
    expect(normalizeCurrency(raw)).toBe(code);
  });

  it.each(['EURO', 'US$', '€', '', 'EU', 'XYZ', 'E U', '12'])('%j is not a code', (raw) => {
    expect(normalizeCurrency(raw)).toBeUndefined();
  });
});

describe('minorUnits', () => {
  it.each([
    ['JPY', 0],
    ['KRW', 0],
    ['EUR', 2],
    ['USD', 2],
    ['KWD', 3],
    ['BHD', 3],
    ['TND', 3],
  ])('%s has %d', (code, digits) => {
    expect(minorUnits(code)).toBe(digits);
  });

  it('takes CLF from the runtime (4 where ICU knows it)', () => {
    expect(minorUnits('CLF')).toBe(
      new Intl.NumberFormat('en', { style: 'currency', currency: 'CLF' }).resolvedOptions()
        .maximumFractionDigits,
    );
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
