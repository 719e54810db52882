// A datetime pattern of fixed-width numbers and one-character separators (`yyyy-MM-dd HH:mm:ss`) read by
// position, without its regex, for a value laid out exactly so: the common export, read a million times a run.
import { type ParsedFields, resetTime } from './datetime-formats.js';

// Why it gives what the regex gives: a value the layout accepts has digits exactly at the fields' positions
// and a non-digit at every separator, so the anchored regex (1-2 digits a field, `\s+` a space) can split it
// one way only, into these fields, with no offset or zone after them. Any other value (one-digit fields, a
// tab, an offset, a zone, a letter) is left to the regex.

/** A pattern token as datetime-pattern.ts splits it: a letter run, or literal text. */
export interface PatternToken {
  letters: string;
  literal: string;
}

type FixedKind = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

interface FixedField {
  kind: FixedKind;
  at: number;
  width: number;
}

export interface FixedLayout {
  /** Per position: DIGIT, or the one character code the regex takes there. */
  expect: Int32Array;
  fields: FixedField[];
}

const DIGIT = -1;

/** Letter runs a layout takes, with their kind and width (the regex's 1-2 digits: 2 here). */
const fixedTokens: Record<string, [FixedKind, number]> = {
  yyyy: ['year', 4],
  y: ['year', 4],
  M: ['month', 2],
  MM: ['month', 2],
  d: ['day', 2],
  dd: ['day', 2],
  H: ['hour', 2],
  HH: ['hour', 2],
  h: ['hour', 2],
  hh: ['hour', 2],
  m: ['minute', 2],
  mm: ['minute', 2],
  s: ['second', 2],
  ss: ['second', 2],
};

/**
 * The layout of `tokens` (trailing zone tokens and spaces already dropped), or undefined when a token has no
 * fixed reading: names, fractions, AM/PM, two-digit years, letters or runs of spaces between fields.
 */
export function fixedLayout(tokens: readonly PatternToken[]): FixedLayout | undefined {
  const expect: number[] = [];
  const fields: FixedField[] = [];
  let previous: PatternToken | undefined;
  for (const token of tokens) {
    if (token.letters !== '') {
      const fixed = fixedTokens[token.letters];
      if (fixed === undefined) return undefined;
      fields.push({ kind: fixed[0], at: expect.length, width: fixed[1] });
      for (let i = 0; i < fixed[1]; i++) expect.push(DIGIT);
    } else if (token.literal === ' ') {
      // The regex's `\s+` (`\s*` after a comma; a second space token adds nothing): one space only here.
      if (previous === undefined || previous.letters === '') return undefined;
      expect.push(0x20);
    } else {
      for (let i = 0; i < token.literal.length; i++) {
        const code = token.literal.charCodeAt(i);
        // Printable ASCII that no case-insensitive match or `\d` could read otherwise.
        if (code <= 0x20 || code >= 0x7f || isAsciiLetterOrDigit(code)) return undefined;
        expect.push(code);
      }
    }
    previous = token;
  }
  return fields.length === 0 ? undefined : { expect: Int32Array.from(expect), fields };
}

function isAsciiLetterOrDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122);
}

/** Fills `out` as the regex's fields would when `text` has exactly the layout; false (out untouched) otherwise. */
export function readFixed(text: string, layout: FixedLayout, out: ParsedFields): boolean {
  const expect = layout.expect;
  if (text.length !== expect.length) return false;
  for (let i = 0; i < expect.length; i++) {
    const code = text.charCodeAt(i);
    const wanted = expect[i]!;
    if (wanted === DIGIT ? code < 48 || code > 57 : code !== wanted) return false;
  }
  resetTime(out);
  for (const field of layout.fields) {
    let value = 0;
    for (let i = field.at; i < field.at + field.width; i++) value = value * 10 + text.charCodeAt(i) - 48;
    out[field.kind] = value;
  }
  return true;
}
