// ISO 4217 currency codes as the runtime knows them (Intl), their minor units, and currency symbols.
// Everything is cached: after the first sight of a code, lookups are Map hits with no Intl call.

let knownCodes: Set<string> | undefined;
const normalizedCache = new Map<string, string>();
const minorUnitCache = new Map<string, number>();

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

/** The code for a 3-letter ISO 4217 code in any case (`eur` -> `EUR`), or undefined when the runtime does not know it. */
export function normalizeCurrency(raw: string): string | undefined {
  let code = normalizedCache.get(raw);
  if (code === undefined) {
    const candidate = raw.trim().toUpperCase();
    knownCodes ??= new Set(Intl.supportedValuesOf('currency'));
    code = candidate.length === 3 && knownCodes.has(candidate) ? candidate : '';
    // Currency cells come from data: bound the cache against a column of junk.
    if (normalizedCache.size >= 10_000) normalizedCache.clear();
    normalizedCache.set(raw, code);
  }
  return code === '' ? undefined : code;
}

/**
 * Digits after the decimal point for a currency (JPY 0, EUR 2, KWD 3), as the runtime's Intl reports
 * them. `code` should come from normalizeCurrency. Throws RangeError for a malformed code.
 */
export function minorUnits(code: string): number {
  let digits = minorUnitCache.get(code);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
      .maximumFractionDigits as number;
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
