// Day first or month first is a property of a file, not of a cell (issue 21): `05/03/2024` is 5 March in a
// UK PayPal download and May 3 in a US one, and only a row such as `25/03/2024` tells them apart. A preset's
// `MM/dd/yyyy` formats are read the other way round for a whole file when its rows say so.
import { quote } from '../quote.js';
import { createDatetimeParser, type DatetimeParser, type DatetimeResult } from './datetime.js';

/** A slash-separated numeric month and day before the year, either way round (`MM/dd/yyyy`, `d/M/yy`). */
const SLASH_DATE = /(^|[^A-Za-z'])(M{1,2}|d{1,2})\/(M{1,2}|d{1,2})\/(?=y)/;

/**
 * The pattern with its slash-separated numeric day and month swapped (`MM/dd/yyyy HH:mm:ss` ->
 * `dd/MM/yyyy HH:mm:ss`), or undefined when it has none: ISO (`yyyy-MM-dd` is never written day-last),
 * epochs, month names, and dotted or dashed dates, which their locales write one way only.
 */
export function swapDayMonth(format: string): string | undefined {
  const match = SLASH_DATE.exec(format);
  if (match === null) return undefined;
  const [, before, first, second] = match as unknown as [string, string, string, string];
  if (first[0] === second[0]) return undefined;
  const swapped = `${before}${second[0]!.repeat(first.length)}/${first[0]!.repeat(second.length)}/`;
  return format.slice(0, match.index) + swapped + format.slice(match.index + match[0].length);
}

/** The formats read the other way round, or undefined when none of them has a day/month order to decide. */
export function swappedFormats(formats: readonly string[]): string[] | undefined {
  const swapped = formats.map((format) => swapDayMonth(format) ?? format);
  return swapped.some((format, i) => format !== formats[i]) ? swapped : undefined;
}

/** The first pattern with a day/month order (`MM/dd/yyyy HH:mm:ss`), to name in messages. */
function firstOrdered(formats: readonly string[]): string {
  return formats.find((f) => SLASH_DATE.test(f)) ?? formats[0]!;
}

/** Whether the formats are month first (`MM/dd`) or day first, from their first order-bearing pattern. */
function orderOf(formats: readonly string[]): 'month first' | 'day first' {
  return SLASH_DATE.exec(firstOrdered(formats))?.[2]?.startsWith('d') ? 'day first' : 'month first';
}

interface Example {
  line: number;
  value: string;
}

/** What a file's date cells say about their order. */
export interface DateOrderTally {
  /** Rows only the formats as given can read (`03/25/2024` for `MM/dd`). */
  given: number;
  /** Rows only the swapped formats can read (`25/03/2024` for `MM/dd`). */
  swapped: number;
  /** Rows both read, as different dates (`05/03/2024`). */
  either: number;
  firstGiven?: Example;
  firstSwapped?: Example;
  firstEither?: Example;
}

/** `ok` here: the cell is a real date in that order (a time-zone failure does not make it less of a date). */
function readable(result: DatetimeResult): boolean {
  return result.ok || (result.reason !== 'impossible date' && result.reason !== 'invalid datetime');
}

/**
 * Counts, cell by cell, which order can read a file's dates. `given` and `swapped` are the format lists
 * (see swappedFormats). Zones do not matter here: both orders are read in UTC, abbreviations by their
 * default meaning.
 */
export function createDateOrderCounter(
  given: readonly string[],
  swapped: readonly string[],
): { add(raw: unknown, line: number): void; tally: DateOrderTally } {
  const options = { abbreviations: 'default' } as const;
  const asGiven: DatetimeParser = createDatetimeParser(given, options);
  const asSwapped: DatetimeParser = createDatetimeParser(swapped, options);
  const tally: DateOrderTally = { given: 0, swapped: 0, either: 0 };
  const add = (raw: unknown, line: number) => {
    if (typeof raw !== 'string' || raw.trim() === '') return;
    const a = asGiven(raw, 'UTC');
    const b = asSwapped(raw, 'UTC');
    const aOk = readable(a);
    const bOk = readable(b);
    const example = { line, value: raw.trim() };
    if (aOk && !bOk) {
      tally.given++;
      tally.firstGiven ??= example;
    } else if (bOk && !aOk) {
      tally.swapped++;
      tally.firstSwapped ??= example;
    } else if (a.ok && b.ok && a.utcMs !== b.utcMs) {
      tally.either++;
      tally.firstEither ??= example;
    }
  };
  return { add, tally };
}

export type DateOrderDecision =
  | { use: 'given' }
  /** `note`: what the run tells the user once for this file. */
  | { use: 'swapped'; note: string }
  /** No row tells, and some read as two dates: the run stops and asks. */
  | { use: 'ask'; message: string; hint: string };

/**
 * The order of the whole file: the one more rows can only be read in (the formats as given on a tie, so a
 * stray row of the other order stays an `impossible date`); when no row tells but some read as two
 * different dates, ask. `columns`: the datetime column(s) as the user knows them.
 */
export function decideDateOrder(
  tally: DateOrderTally,
  given: readonly string[],
  swapped: readonly string[],
  file: string,
  columns: string,
): DateOrderDecision {
  if (tally.swapped > tally.given) {
    const example = tally.firstSwapped!;
    return {
      use: 'swapped',
      note:
        `${file}: dates in ${columns} read ${orderOf(swapped)} (${quote(firstOrdered(swapped))}): ${tally.swapped} row` +
        `${tally.swapped === 1 ? '' : 's'} can only be read so (e.g. line ${example.line}, ${quote(example.value)})` +
        (tally.given > 0
          ? `; ${tally.given} only the other way (e.g. line ${tally.firstGiven!.line}), rejected`
          : '') +
        '; set mapping.fields.conversionDatetime.format to choose',
    };
  }
  if (tally.given > 0 || tally.either === 0) return { use: 'given' };
  const example = tally.firstEither!;
  const [monthFirst, dayFirst] = orderOf(given) === 'month first' ? [given, swapped] : [swapped, given];
  return {
    use: 'ask',
    message:
      `${file}: the dates in ${columns} can be read day first or month first (line ${example.line}, ` +
      `${quote(example.value)}, reads as two dates) and no row tells which (none has a day above 12): nothing ` +
      'from this file was sent',
    hint:
      `set mapping.fields.conversionDatetime.format to ${quote(firstOrdered(monthFirst))} (month first) or ` +
      `${quote(firstOrdered(dayFirst))} (day first), keeping its columns (${columns})`,
  };
}
