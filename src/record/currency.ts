// ISO 4217 currency codes, their minor units, and currency symbols.
// Minor units come from ISO 4217 (the `currency-codes` package, built from ISO's list one), not from Intl:
// Intl reports CLDR's display digits, which are not ISO's minor units (HUF, COP, IDR, PKR: 0 in CLDR, 2 in
// ISO; IQD 0 against 3), and amounts are rounded and summed in minor units.
// Everything is cached: after the first sight of a code, lookups are Map hits with no Intl call.
import { data as isoCurrencies } from 'currency-codes';
import { detached } from '../detached.js';

/**
 * Codes ISO 4217 lists with no minor unit ("N.A."): precious metals (XAU, XAG, XPD, XPT), bond market
 * units (XBA-XBD), SDR (XDR), Sucre (XSU), ADB unit (XUA), testing (XTS) and no currency (XXX). The
 * package records them as 0 digits, which they are not. They are refused: normalizeCurrency does not
 * accept them and minorUnits throws, since any digit count would be made up (0 would round 1.5 XAU to
 * 2, Intl's 2 would cut SDR amounts), and none is a currency revenue is booked in. Kept in step with
 * the ISO list the package ships by test/record/currency.test.ts.
 */
const noMinorUnits = new Set([
  'XAG',
  'XAU',
  'XBA',
  'XBB',
  'XBC',
  'XBD',
  'XDR',
  'XPD',
  'XPT',
  'XSU',
  'XTS',
  'XUA',
  'XXX',
]);

let isoMinorUnits: Map<string, number> | undefined;
let knownCodes: Set<string> | undefined;
const normalizedCache = new Map<string, string>();
const minorUnitCache = new Map<string, number>();

/** ISO 4217 code -> minor units, for the codes that have them. */
function isoTable(): Map<string, number> {
  isoMinorUnits ??= new Map(
    isoCurrencies.filter((c) => !noMinorUnits.has(c.code)).map((c) => [c.code, c.digits] as const),
  );
  return isoMinorUnits;
}

/**
 * The codes accepted: those the runtime's Intl knows, as before ISO's table was used, less the ones with
 * no minor units. That keeps codes ISO 4217 no longer lists (HRK, SLL, ZWL, withdrawn) or that are newer
 * than the package's data (XCG), with Intl's digits (see minorUnits). ISO codes Intl does not know (the
 * fund codes CLF, UYW, CHE..., and VED) stay refused here as before, though minorUnits knows their digits.
 */
function knownCodeSet(): Set<string> {
  knownCodes ??= new Set(Intl.supportedValuesOf('currency').filter((c) => !noMinorUnits.has(c)));
  return knownCodes;
}

/** Symbols and prefixed dollars that name one currency. */
const symbolCodes = new Map<string, string>([
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['₹', 'INR'],
  ['R$', 'BRL'],
  ['zł', 'PLN'],
  ['₩', 'KRW'],
  ['₺', 'TRY'],
  ['₽', 'RUB'],
  ['₴', 'UAH'],
  ['₪', 'ILS'],
  ['₫', 'VND'],
  ['฿', 'THB'],
  ['₱', 'PHP'],
  ['₦', 'NGN'],
  ['Kč', 'CZK'],
  ['Ft', 'HUF'],
  ['US$', 'USD'],
  ['C$', 'CAD'],
  ['CA$', 'CAD'],
  ['A$', 'AUD'],
  ['AU$', 'AUD'],
  ['NZ$', 'NZD'],
  ['HK$', 'HKD'],
  ['S$', 'SGD'],
  ['MX$', 'MXN'],
]);

/** Symbols shared by several currencies ($: USD, CAD, AUD, MXN...; ¥: JPY, CNY; kr: SEK, NOK, DKK, ISK). */
const ambiguousSymbols = new Set(['$', '¥', '￥', 'kr', 'kr.', 'Fr.', 'Fr']);

/**
 * The code for a 3-letter ISO 4217 code in any case (`eur` -> `EUR`), or undefined when the runtime does
 * not know it or ISO gives it no minor units (XDR, XSU; see noMinorUnits).
 */
export function normalizeCurrency(raw: string): string | undefined {
  let code = normalizedCache.get(raw);
  if (code === undefined) {
    const candidate = raw.trim().toUpperCase();
    code = candidate.length === 3 && knownCodeSet().has(candidate) ? candidate : '';
    // Currency cells come from data: bound the cache against a column of junk.
    if (normalizedCache.size >= 10_000) normalizedCache.clear();
    normalizedCache.set(detached(raw), code);
  }
  return code === '' ? undefined : code;
}

/**
 * Digits after the decimal point for a currency (JPY 0, EUR 2, HUF 2, KWD 3, CLF 4), ISO 4217's minor
 * units. A code ISO's list lacks (HRK, SLL withdrawn; XCG newer than the package's data) takes the
 * runtime's Intl digits, as every code did before. `code` should come from normalizeCurrency, which
 * refuses the codes with no minor units; for one of those (XAU, XDR) this throws RangeError, as it does
 * for a malformed code.
 */
export function minorUnits(code: string): number {
  let digits = minorUnitCache.get(code);
  if (digits === undefined) {
    const upper = code.toUpperCase();
    if (noMinorUnits.has(upper)) throw new RangeError(`${upper} has no minor units in ISO 4217`);
    digits =
      isoTable().get(upper) ??
      (new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
        .maximumFractionDigits as number);
    minorUnitCache.set(code, digits);
  }
  return digits;
}

/**
 * Resolves a currency token found next to an amount: the code, `''` for a symbol that several
 * currencies share (`$`, `¥`), or undefined when the token is no currency at all.
 */
export function resolveCurrencyToken(token: string): string | undefined {
  const symbol = symbolCodes.get(token);
  if (symbol !== undefined) return symbol;
  if (ambiguousSymbols.has(token)) return '';
  return normalizeCurrency(token);
}

/** The currency an unambiguous symbol (`€`, `R$`, `zł`) or code (`chf`, `EUR`) names; undefined for `$`, `¥` or unknown text. */
export function currencyFromSymbolOrCode(token: string): string | undefined {
  const code = resolveCurrencyToken(token.trim());
  return code === '' ? undefined : code;
}
