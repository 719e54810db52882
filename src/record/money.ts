// Amounts as exports write them (`1,249.00`, `1.149,00`, `€12.50`, `12,50 EUR`) to numbers, scanning
// char codes once per row. A separator that could be either kind is rejected, never guessed: a silent
// 1000x error is worse than a rejected row.
import { quote } from '../quote.js';
import { resolveCurrencyToken } from './currency.js';

export {
  exactAmountLimit,
  fromMinorUnits,
  isExactAmount,
  roundToMinor,
  toMinorUnits,
} from './money-round.js';

export const amountFailureReasons = ['invalid number', 'ambiguous number', 'amount too large'] as const;
export type AmountFailureReason = (typeof amountFailureReasons)[number];

export type AmountResult =
  | {
      ok: true;
      value: number;
      /** The ISO code of a currency symbol or code written next to the amount, when it names one currency. */
      currency?: string;
    }
  | { ok: false; reason: AmountFailureReason; message: string };

export interface ParseAmountOptions {
  /** The decimal separator; the other of `.`/`,` is then grouping. Default: inferred per value, ambiguous values rejected. */
  decimal?: '.' | ',' | undefined;
}

const DOT = 46;
const COMMA = 44;
const powersOfTen = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 0xa0 || code === 0x202f || code === 0x2009;
}

/** Grouping-only characters: spaces (NBSP, narrow NBSP, thin space) and Swiss apostrophes. */
function isGroupingOnly(code: number): boolean {
  return code === 32 || code === 0xa0 || code === 0x202f || code === 0x2009 || code === 39 || code === 0x2019;
}

function isMinus(code: number): boolean {
  return code === 45 || code === 0x2212;
}

function invalid(raw: string): AmountResult {
  return {
    ok: false,
    reason: 'invalid number',
    message: `${quote(raw)} is not an amount (expected digits with an optional currency, like 1249.00, 1.149,00 or €12.50).`,
  };
}

function tooLarge(raw: string): AmountResult {
  return { ok: false, reason: 'amount too large', message: `${quote(raw)} is too large to be an amount.` };
}

/** End of a currency token starting at i: up to a digit, space or sign; `.`/`,` end it only before a digit. */
function tokenEnd(raw: string, i: number, end: number): number {
  let j = i;
  while (j < end) {
    const code = raw.charCodeAt(j);
    if (isDigit(code) || isSpace(code) || isMinus(code) || code === 43) break;
    if ((code === DOT || code === COMMA) && isDigit(raw.charCodeAt(j + 1))) break;
    j++;
  }
  return j;
}

/**
 * Parses an amount. JSON numbers must be finite. Strings: trimmed; a leading or trailing minus
 * (`-12.50`, `12.50-`; parentheses are not negatives); a currency symbol or code before or after
 * (`€12.50`, `EUR 12,50`, `12,50 €`: returned as `currency` when it names one currency; `$` names none
 * but the value still parses); grouping by `,` `.` spaces, NBSP, U+202F or `'`. Without `decimal`, the
 * last `.`/`,` is the decimal separator when both occur or when it is not followed by exactly three
 * digits; a lone separator before three digits (`1,234`) is `ambiguous number` unless grouping is
 * impossible there (`0,125`, `1234,567`) or spaces/apostrophes already group (`1 234,567`).
 */
export function parseAmount(raw: string | number, options: ParseAmountOptions = {}): AmountResult {
  if (typeof raw === 'number') {
    if (Number.isFinite(raw)) return { ok: true, value: raw };
    // A JSON 1e400 parses to Infinity.
    return Number.isNaN(raw) ? invalid(String(raw)) : tooLarge(String(raw));
  }
  let start = 0;
  let end = raw.length;
  while (start < end && isSpace(raw.charCodeAt(start))) start++;
  while (end > start && isSpace(raw.charCodeAt(end - 1))) end--;

  let negative = false;
  let signed = false;
  let currency: string | undefined;
  let i = start;
  const readSign = () => {
    const code = raw.charCodeAt(i);
    if (!signed && (isMinus(code) || code === 43)) {
      negative = isMinus(code);
      signed = true;
      i++;
      while (i < end && isSpace(raw.charCodeAt(i))) i++;
    }
  };
  // Returns false for text that is no currency.
  const readCurrency = (): boolean => {
    const j = tokenEnd(raw, i, end);
    const code = resolveCurrencyToken(raw.slice(i, j));
    if (code === undefined || (code !== '' && currency !== undefined && currency !== code)) return false;
    if (code !== '') currency = code;
    i = j;
    while (i < end && isSpace(raw.charCodeAt(i))) i++;
    return true;
  };

  readSign();
  const first = raw.charCodeAt(i);
  if (i < end && !isDigit(first) && first !== DOT && first !== COMMA) {
    if (!readCurrency()) return invalid(raw);
    readSign();
  }

  // The number body: digits and separators; a space belongs to it only between two digits.
  const bodyStart = i;
  let dots = 0;
  let commas = 0;
  let lastDot = -1;
  let lastComma = -1;
  let spacedOrApostrophe = false;
  while (i < end) {
    const code = raw.charCodeAt(i);
    if (isDigit(code)) {
      i++;
      continue;
    }
    if (code === DOT) {
      dots++;
      lastDot = i;
    } else if (code === COMMA) {
      commas++;
      lastComma = i;
    } else if (isGroupingOnly(code) && isDigit(raw.charCodeAt(i - 1)) && isDigit(raw.charCodeAt(i + 1))) {
      spacedOrApostrophe = true;
    } else {
      break;
    }
    i++;
  }
  const bodyEnd = i;
  if (bodyEnd === bodyStart) return invalid(raw);

  while (i < end && isSpace(raw.charCodeAt(i))) i++;
  readSign();
  if (i < end && !readCurrency()) return invalid(raw);
  readSign();
  if (i !== end) return invalid(raw);

  // Which `.`/`,` is the decimal separator (at most one position), and which is grouping.
  let decimalAt = -1;
  let grouping = -1;
  const decimal = options.decimal;
  if (decimal !== undefined) {
    const isDot = decimal === '.';
    if ((isDot ? dots : commas) > 1) return invalid(raw);
    decimalAt = isDot ? lastDot : lastComma;
    grouping = isDot ? COMMA : DOT;
  } else if (dots > 0 && commas > 0) {
    const dotLast = lastDot > lastComma;
    if ((dotLast ? dots : commas) > 1) return invalid(raw);
    decimalAt = dotLast ? lastDot : lastComma;
    grouping = dotLast ? COMMA : DOT;
  } else if (dots + commas === 1) {
    const at = dots === 1 ? lastDot : lastComma;
    const leadDigits = at - bodyStart;
    const threeAfter = bodyEnd - at - 1 === 3;
    const couldGroup = leadDigits >= 1 && leadDigits <= 3 && raw.charCodeAt(bodyStart) !== 48;
    if (threeAfter && couldGroup && !spacedOrApostrophe) {
      const sep = raw[at]!;
      const digitsOnly = raw.slice(bodyStart, at) + raw.slice(at + 1, bodyEnd);
      return {
        ok: false,
        reason: 'ambiguous number',
        message:
          `${quote(raw)} is ambiguous: it is ${Number(digitsOnly)} if "${sep}" groups thousands but ` +
          `${Number(digitsOnly) / 1000} if "${sep}" is the decimal separator; set decimal: "." or decimal: "," ` +
          'for this field in the mapping.',
      };
    }
    decimalAt = at;
  } else {
    grouping = dots > 0 ? DOT : COMMA;
  }

  // Validate group sizes loosely (3s, or Indian 2s before the last 3) and accumulate the digits.
  let mantissa = 0;
  let digits = 0;
  let fractionDigits = 0;
  let groupLength = 0;
  let groups = 0;
  for (let k = bodyStart; k < bodyEnd; k++) {
    const code = raw.charCodeAt(k);
    if (isDigit(code)) {
      mantissa = mantissa * 10 + (code - 48);
      digits++;
      groupLength++;
      if (decimalAt >= 0 && k > decimalAt) fractionDigits++;
      continue;
    }
    if (k === decimalAt) {
      if (groups > 0 && groupLength !== 3) return invalid(raw);
      if (k + 1 === bodyEnd) return invalid(raw);
      groups = -1;
      continue;
    }
    const isGroupSep = code === grouping || isGroupingOnly(code);
    if (!isGroupSep || groups < 0 || groupLength === 0) return invalid(raw);
    if (groups === 0 ? groupLength > 3 : groupLength < 2 || groupLength > 3) return invalid(raw);
    groups++;
    groupLength = 0;
  }
  if (groups > 0 && groupLength !== 3) return invalid(raw);
  if (digits === 0) return invalid(raw);

  let value: number;
  if (digits <= 15 && fractionDigits < powersOfTen.length) {
    // Both operands exact, so the IEEE division is the correctly rounded decimal, as Number() would give.
    value = mantissa / powersOfTen[fractionDigits]!;
  } else {
    let text = '';
    for (let k = bodyStart; k < bodyEnd; k++) {
      const code = raw.charCodeAt(k);
      if (isDigit(code)) text += raw[k];
      else if (k === decimalAt) text += '.';
    }
    value = Number(text);
  }
  // 1 followed by 309 zeros is Infinity as a double: no amount, and never a number to send (issue 24).
  if (!Number.isFinite(value)) return tooLarge(raw);
  if (negative && value !== 0) value = -value;
  return currency === undefined ? { ok: true, value } : { ok: true, value, currency };
}
