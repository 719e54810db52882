// Amounts as exports write them (`1,249.00`, `1.149,00`, `€12.50`, `12,50 EUR`) to numbers, scanning
// char codes once per row. A separator that could be either kind is rejected, never guessed: a silent
// 1000x error is worse than a rejected row.
import { quote } from '../quote.js';
import { type AmountScan, COMMA, DOT, isDigit, isGroupingOnly, scanAmount } from './amount-scan.js';

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

const powersOfTen = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

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
  if (typeof raw === 'number') return numberAmount(raw);
  const scan = scanAmount(raw);
  if (scan === undefined) return invalid(raw);
  const unclear = chooseSeparators(scan, options.decimal);
  if (unclear !== undefined) return unclear;
  let value = readValue(scan);
  if (value === undefined) return invalid(raw);
  // 1 followed by 309 zeros is Infinity as a double: no amount, and never a number to send (issue 24).
  if (!Number.isFinite(value)) return tooLarge(raw);
  if (scan.negative && value !== 0) value = -value;
  return scan.currency === undefined ? { ok: true, value } : { ok: true, value, currency: scan.currency };
}

/** A JSON number is the amount as it is, when finite. */
function numberAmount(raw: number): AmountResult {
  if (Number.isFinite(raw)) return { ok: true, value: raw };
  // A JSON 1e400 parses to Infinity.
  return Number.isNaN(raw) ? invalid(String(raw)) : tooLarge(String(raw));
}

/**
 * Which `.`/`,` is the decimal separator (at most one position, `scan.decimalAt`) and which groups
 * (`scan.grouping`); a failure when that cannot be told or the text has two decimal separators.
 */
function chooseSeparators(scan: AmountScan, decimal: '.' | ',' | undefined): AmountResult | undefined {
  const { dots, commas, lastDot, lastComma } = scan;
  if (decimal !== undefined) {
    const isDot = decimal === '.';
    if ((isDot ? dots : commas) > 1) return invalid(scan.raw);
    scan.decimalAt = isDot ? lastDot : lastComma;
    scan.grouping = isDot ? COMMA : DOT;
  } else if (dots > 0 && commas > 0) {
    const dotLast = lastDot > lastComma;
    if ((dotLast ? dots : commas) > 1) return invalid(scan.raw);
    scan.decimalAt = dotLast ? lastDot : lastComma;
    scan.grouping = dotLast ? COMMA : DOT;
  } else if (dots + commas === 1) {
    const at = dots === 1 ? lastDot : lastComma;
    if (couldBeGrouping(scan, at)) return ambiguous(scan, at);
    scan.decimalAt = at;
  } else {
    scan.grouping = dots > 0 ? DOT : COMMA;
  }
  return undefined;
}

/** A lone separator before exactly three digits, after 1-3 digits not starting with 0, in no spaced number. */
function couldBeGrouping(scan: AmountScan, at: number): boolean {
  const leadDigits = at - scan.bodyStart;
  const threeAfter = scan.bodyEnd - at - 1 === 3;
  const couldGroup = leadDigits >= 1 && leadDigits <= 3 && scan.raw.charCodeAt(scan.bodyStart) !== 48;
  return threeAfter && couldGroup && !scan.spacedOrApostrophe;
}

function ambiguous(scan: AmountScan, at: number): AmountResult {
  const { raw, bodyStart, bodyEnd } = scan;
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

/**
 * The body's digits as a double (unsigned), checking group sizes loosely on the way (3s, or Indian 2s
 * before the last 3); undefined when a separator is out of place.
 */
function readValue(scan: AmountScan): number | undefined {
  const { raw, bodyStart, bodyEnd, decimalAt, grouping } = scan;
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
      if (groups > 0 && groupLength !== 3) return undefined;
      if (k + 1 === bodyEnd) return undefined;
      groups = -1;
      continue;
    }
    const isGroupSep = code === grouping || isGroupingOnly(code);
    if (!isGroupSep || groups < 0 || groupLength === 0) return undefined;
    if (groups === 0 ? groupLength > 3 : groupLength < 2 || groupLength > 3) return undefined;
    groups++;
    groupLength = 0;
  }
  if (groups > 0 && groupLength !== 3) return undefined;
  if (digits === 0) return undefined;
  if (digits <= 15 && fractionDigits < powersOfTen.length) {
    // Both operands exact, so the IEEE division is the correctly rounded decimal, as Number() would give.
    return mantissa / powersOfTen[fractionDigits]!;
  }
  return Number(plainDecimal(scan));
}

/** The body as plain decimal text (grouping dropped, the decimal separator a `.`), for Number() to round. */
function plainDecimal(scan: AmountScan): string {
  let text = '';
  for (let k = scan.bodyStart; k < scan.bodyEnd; k++) {
    const code = scan.raw.charCodeAt(k);
    if (isDigit(code)) text += scan.raw[k];
    else if (k === scan.decimalAt) text += '.';
  }
  return text;
}
