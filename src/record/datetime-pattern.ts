// Unicode/Luxon token patterns (`MM/dd/yyyy h:mm:ss a`) compiled once to an anchored regex plus the
// meaning of each capture group. Lenient on purpose: numeric tokens take 1 or 2 digits, names ignore case.
import { fixedLayout, readFixed } from './datetime-fixed.js';
import type { FormatMatcher, ParsedFields } from './datetime-formats.js';
import { scanOffset } from './zone-name.js';

const monthNames = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const monthByName = new Map<string, number>();
monthNames.forEach((name, index) => {
  monthByName.set(name, index + 1);
  monthByName.set(name.slice(0, 3), index + 1);
});
monthByName.set('sept', 9);

type GroupKind =
  | 'year'
  | 'year2'
  | 'month'
  | 'monthName'
  | 'day'
  | 'hour'
  | 'minute'
  | 'second'
  | 'fraction'
  | 'ampm';

interface Token {
  /** Letter run (`yyyy`) or '' for literal text. */
  letters: string;
  literal: string;
}

// Offset and zone tokens at the end of a pattern are what the optional tail already reads.
const trailingZoneToken = /^(Z{1,5}|X{1,5}|x{1,5}|z{1,4})$/;

// An offset (`Z`, `+05`, `+0530`, `+05:30`, maybe after UTC/GMT) with at most one space before it, or a
// space and a zone name; validated again by scanOffset / canonicalZone.
const tailSource = '(?: ?((?:UTC|GMT)?[+\\-\u2212]\\d{1,2}(?::?\\d{2})?|Z)| +([A-Za-z][A-Za-z0-9_+\\-/]*))?';

function tokenize(format: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < format.length) {
    const ch = format[i]!;
    if (ch === "'") {
      let text = '';
      i++;
      while (i < format.length) {
        if (format[i] === "'") {
          if (format[i + 1] === "'") {
            text += "'";
            i += 2;
            continue;
          }
          break;
        }
        text += format[i];
        i++;
      }
      if (i >= format.length) throw new Error(`unclosed quote in datetime format "${format}"`);
      i++;
      tokens.push({ letters: '', literal: text === '' ? "'" : text });
    } else if (/[A-Za-z]/.test(ch)) {
      let j = i;
      while (format[j] === ch) j++;
      tokens.push({ letters: format.slice(i, j), literal: '' });
      i = j;
    } else {
      tokens.push({ letters: '', literal: ch });
      i++;
    }
  }
  return tokens;
}

function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const numericLetters = new Set(['y', 'M', 'd', 'H', 'h', 'm', 's', 'S']);

function isNumericToken(token: Token | undefined): boolean {
  return (
    token !== undefined &&
    token.letters !== '' &&
    numericLetters.has(token.letters[0]!) &&
    token.letters !== 'MMM' &&
    token.letters !== 'MMMM'
  );
}

/** Regex source for one token; `packed` when a neighbour is also numeric (`yyyyMMdd`): widths must be exact. */
function tokenSource(letters: string, packed: boolean, kinds: GroupKind[], format: string): string {
  const width = (exact: number) => (packed ? `(\\d{${exact}})` : '(\\d{1,2})');
  switch (letters) {
    case 'yyyy':
    case 'y':
      kinds.push('year');
      return '(\\d{4})';
    case 'yy':
      kinds.push('year2');
      return '(\\d{2})';
    case 'M':
    case 'MM':
      kinds.push('month');
      return width(2);
    case 'MMM':
    case 'MMMM':
      kinds.push('monthName');
      return '([A-Za-z]{3,9})\\.?';
    case 'd':
    case 'dd':
      kinds.push('day');
      return width(2);
    case 'H':
    case 'HH':
    case 'h':
    case 'hh':
      kinds.push('hour');
      return width(2);
    case 'm':
    case 'mm':
      kinds.push('minute');
      return width(2);
    case 's':
    case 'ss':
      kinds.push('second');
      return width(2);
    case 'a':
      kinds.push('ampm');
      return '([AaPp]\\.?[Mm]\\.?)';
    case 'E':
    case 'EEE':
    case 'EEEE':
      return '[A-Za-z]{2,9}\\.?';
    default:
      if (/^S{1,9}$/.test(letters)) {
        kinds.push('fraction');
        return packed ? `(\\d{${letters.length}})` : '(\\d{1,9})';
      }
      throw new Error(`unknown token "${letters}" in datetime format "${format}" (quote literal text: 'T')`);
  }
}

/** The pattern's tokens without its trailing zone tokens and spaces (the regex's tail reads those). */
function patternTokens(format: string): Token[] {
  const tokens = tokenize(format);
  while (tokens.length > 0) {
    const last = tokens[tokens.length - 1]!;
    if (last.letters !== '' && trailingZoneToken.test(last.letters)) tokens.pop();
    else if (last.letters === '' && last.literal.trim() === '') tokens.pop();
    else break;
  }
  return tokens;
}

/**
 * Compiles a token pattern; throws an Error naming the problem when the pattern is unusable. `fixed: false`
 * reads every value by the regex (tests pin datetime-fixed.ts's reading against it).
 */
export function compilePattern(
  format: string,
  options: { fixed?: boolean } = {},
): FormatMatcher & { readonly byPosition: boolean } {
  const tokens = patternTokens(format);
  const kinds: GroupKind[] = [];
  let source = '^';
  tokens.forEach((token, index) => {
    if (token.letters !== '') {
      const packed =
        isNumericToken(token) && (isNumericToken(tokens[index - 1]) || isNumericToken(tokens[index + 1]));
      source += tokenSource(token.letters, packed, kinds, format);
    } else if (token.literal.trim() === '') {
      if (tokens[index - 1]?.literal.trim() === '' && tokens[index - 1]?.letters === '') return;
      // "Aug 14,2012" for `MMM d, yyyy`: space after a comma is optional, any other space is 1+.
      const afterComma = tokens[index - 1]?.literal.endsWith(',') === true;
      source += afterComma ? '\\s*' : '\\s+';
    } else {
      source += escapeLiteral(token.literal);
    }
  });
  for (const needed of ['year', 'month', 'day'] as const) {
    const has =
      kinds.includes(needed) ||
      (needed === 'year' && kinds.includes('year2')) ||
      (needed === 'month' && kinds.includes('monthName'));
    if (!has) throw new Error(`datetime format "${format}" has no ${needed} (use yyyy, MM or MMM, dd)`);
  }
  const regex = new RegExp(`${source}${tailSource}$`, 'i');
  const hasAmPm = kinds.includes('ampm');
  const layout = options.fixed === false ? undefined : fixedLayout(tokens);
  const matcher: FormatMatcher = (text, out) => {
    if (layout !== undefined && readFixed(text, layout, out)) return true;
    const match = regex.exec(text);
    if (match === null) return false;
    return fillFields(match, kinds, hasAmPm, out);
  };
  // Said for the tests: both readings give the same fields, so only this shows the faster one is in use.
  return Object.assign(matcher, { byPosition: layout !== undefined });
}

function fillFields(
  match: RegExpExecArray,
  kinds: readonly GroupKind[],
  hasAmPm: boolean,
  out: ParsedFields,
): boolean {
  out.hour = 0;
  out.minute = 0;
  out.second = 0;
  out.millisecond = 0;
  out.epochMs = Number.NaN;
  let pm = false;
  for (let g = 0; g < kinds.length; g++) {
    const text = match[g + 1]!;
    switch (kinds[g]) {
      case 'year':
        out.year = Number(text);
        break;
      case 'year2':
        // POSIX strptime %y: 69-99 -> 1969-1999, 00-68 -> 2000-2068.
        out.year = Number(text) + (Number(text) >= 69 ? 1900 : 2000);
        break;
      case 'month':
        out.month = Number(text);
        break;
      case 'monthName': {
        const month = monthByName.get(text.toLowerCase());
        if (month === undefined) return false;
        out.month = month;
        break;
      }
      case 'day':
        out.day = Number(text);
        break;
      case 'hour':
        out.hour = Number(text);
        break;
      case 'minute':
        out.minute = Number(text);
        break;
      case 'second':
        out.second = Number(text);
        break;
      case 'fraction':
        out.millisecond = Number(text.padEnd(3, '0').slice(0, 3));
        break;
      case 'ampm':
        pm = (text.charCodeAt(0) | 32) === 112;
        break;
    }
  }
  if (hasAmPm) {
    // 12 AM is 00, 12 PM is 12; an hour outside 1-12 is left for the range check to reject.
    if (out.hour >= 1 && out.hour <= 12) out.hour = (out.hour % 12) + (pm ? 12 : 0);
    else out.hour = 99;
  }
  const offset = match[kinds.length + 1];
  const zone = match[kinds.length + 2];
  out.offsetMinutes = offset === undefined ? Number.NaN : scanOffset(offset, 0, offset.length);
  if (offset !== undefined && Number.isNaN(out.offsetMinutes)) return false;
  out.zoneName = zone ?? '';
  return true;
}
