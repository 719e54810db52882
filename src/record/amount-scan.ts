// The lexing half of parseAmount: one pass over an amount's char codes finding its sign, the currency
// written before or after it, and the number body with where its `.` and `,` are. No decision on which
// separator is the decimal one is taken here (money.ts takes it).
import { resolveCurrencyToken } from './currency.js';

export const DOT = 46;
export const COMMA = 44;

/** What one scan of an amount found; one object per amount, filled step by step (no closures per row). */
export interface AmountScan {
  raw: string;
  /** The cursor, and the end of the text without its surrounding spaces. */
  i: number;
  end: number;
  negative: boolean;
  signed: boolean;
  /** The ISO code a symbol or code next to the amount names (undefined: none, or `$` which names none). */
  currency: string | undefined;
  bodyStart: number;
  bodyEnd: number;
  dots: number;
  commas: number;
  lastDot: number;
  lastComma: number;
  /** A space or apostrophe already groups the digits (`1 234,567`): the `.`/`,` cannot be grouping. */
  spacedOrApostrophe: boolean;
  /** Set by money.ts: the decimal separator's position (-1: none) and the `.`/`,` that groups (-1: none). */
  decimalAt: number;
  grouping: number;
}

export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 0xa0 || code === 0x202f || code === 0x2009;
}

/** Grouping-only characters: spaces (NBSP, narrow NBSP, thin space) and Swiss apostrophes. */
export function isGroupingOnly(code: number): boolean {
  return code === 32 || code === 0xa0 || code === 0x202f || code === 0x2009 || code === 39 || code === 0x2019;
}

function isMinus(code: number): boolean {
  return code === 45 || code === 0x2212;
}

/**
 * Scans `[sign] [currency [sign]] body [sign] [currency] [sign]` (each part optional but the body), or
 * undefined when the text is not that shape. The scan is one object reused by every call (152 bytes a row
 * less to collect): valid until the next call, so the caller reads it before scanning again.
 */
export function scanAmount(raw: string): AmountScan | undefined {
  const scan = startScan(raw);
  readSign(scan);
  const first = raw.charCodeAt(scan.i);
  if (scan.i < scan.end && !isDigit(first) && first !== DOT && first !== COMMA) {
    if (!readCurrency(scan)) return undefined;
    readSign(scan);
  }
  if (!scanBody(scan)) return undefined;
  skipSpaces(scan);
  readSign(scan);
  if (scan.i < scan.end && !readCurrency(scan)) return undefined;
  readSign(scan);
  return scan.i === scan.end ? scan : undefined;
}

/** The scan of `raw` with its surrounding spaces left out: the one scan every call fills (scanAmount). */
function startScan(raw: string): AmountScan {
  let start = 0;
  let end = raw.length;
  while (start < end && isSpace(raw.charCodeAt(start))) start++;
  while (end > start && isSpace(raw.charCodeAt(end - 1))) end--;
  return resetScan(scratch, raw, start, end);
}

/** `scan` made the scan of `raw[start, end)` before its first character is read. */
function resetScan(scan: AmountScan, raw: string, start: number, end: number): AmountScan {
  scan.raw = raw;
  scan.i = start;
  scan.end = end;
  scan.negative = false;
  scan.signed = false;
  scan.currency = undefined;
  scan.bodyStart = start;
  scan.bodyEnd = start;
  scan.dots = 0;
  scan.commas = 0;
  scan.lastDot = -1;
  scan.lastComma = -1;
  scan.spacedOrApostrophe = false;
  scan.decimalAt = -1;
  scan.grouping = -1;
  return scan;
}

const scratch = resetScan({} as AmountScan, '', 0, 0);

function skipSpaces(scan: AmountScan): void {
  while (scan.i < scan.end && isSpace(scan.raw.charCodeAt(scan.i))) scan.i++;
}

/** A leading or trailing `-`/`+` (only one per amount), and the spaces after it. */
function readSign(scan: AmountScan): void {
  const code = scan.raw.charCodeAt(scan.i);
  if (!scan.signed && (isMinus(code) || code === 43)) {
    scan.negative = isMinus(code);
    scan.signed = true;
    scan.i++;
    skipSpaces(scan);
  }
}

/** A currency symbol or code and the spaces after it; false for text that is no currency, or a second one. */
function readCurrency(scan: AmountScan): boolean {
  const j = tokenEnd(scan.raw, scan.i, scan.end);
  const code = resolveCurrencyToken(scan.raw.slice(scan.i, j));
  if (code === undefined || (code !== '' && scan.currency !== undefined && scan.currency !== code))
    return false;
  if (code !== '') scan.currency = code;
  scan.i = j;
  skipSpaces(scan);
  return true;
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

/** The number body: digits and separators; a space belongs to it only between two digits. False when empty. */
function scanBody(scan: AmountScan): boolean {
  const raw = scan.raw;
  scan.bodyStart = scan.i;
  let i = scan.i;
  while (i < scan.end) {
    const code = raw.charCodeAt(i);
    if (isDigit(code)) {
      i++;
      continue;
    }
    if (code === DOT) {
      scan.dots++;
      scan.lastDot = i;
    } else if (code === COMMA) {
      scan.commas++;
      scan.lastComma = i;
    } else if (isGroupingOnly(code) && isDigit(raw.charCodeAt(i - 1)) && isDigit(raw.charCodeAt(i + 1))) {
      scan.spacedOrApostrophe = true;
    } else {
      break;
    }
    i++;
  }
  scan.i = i;
  scan.bodyEnd = i;
  return scan.bodyEnd !== scan.bodyStart;
}
