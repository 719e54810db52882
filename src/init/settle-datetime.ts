// The datetime choice settled: a date column whose cells carry no time, beside a column of times of day (and
// one of zones), becomes the columns joined as push reads `columns: [...]` (mapping/joined-columns.ts); then
// whether the sample holds dates only, and whether it leaves day and month order open.
import { joinedCells } from '../mapping/joined-columns.js';
import { cellsOf, filled, isZone, timeOfDay } from './cell-tests.js';
import { guessDatetimeFormat, undecidedDayMonth } from './datetime-formats.js';
import { nameWords, ruleScore, zoneRules } from './name-rules.js';
import type { Candidate, ColumnSample, FieldGuess, FormatCheck } from './types.js';

/** Per sample row, the cells of `names` joined as push joins `columns: [...]` (joined-columns.ts); empty rows left out. */
export function joinedSample(columns: readonly ColumnSample[], names: readonly string[]): string[] {
  const cells = names.map((n) => cellsOf(columns, n));
  const indexes = cells.map((_, k) => k);
  const rows = Math.max(0, ...cells.map((c) => c.length));
  const out: string[] = [];
  for (let i = 0; i < rows; i++) {
    const value = joinedCells(
      cells.map((c) => c[i]),
      indexes,
    );
    if (value !== '') out.push(value);
  }
  return out;
}

function isDateOnly(columns: readonly ColumnSample[], datetime: Candidate): boolean {
  if (datetime.format === 'epoch') return false;
  return !joinedSample(columns, datetime.columns).some((v) => /\d:\d\d|T\d\d/.test(v));
}

export function joinDateAndTime(
  columns: readonly ColumnSample[],
  datetime: Candidate,
  used: Set<string>,
  accepts: FormatCheck,
) {
  const dateCells = cellsOf(columns, datetime.columns[0]);
  if (datetime.format === 'epoch' || filled(dateCells).some((v) => /\d:\d\d/.test(v))) return;
  // Any unused column of times of day (`Time`, `Order Time`, `Transaction Time`, `Hora`); one named
  // like a time first.
  const times = columns.filter(
    (c) => !used.has(c.name) && filled(c.cells).length > 0 && filled(c.cells).every((v) => timeOfDay.test(v)),
  );
  const time =
    times.find((c) => /\b(time|hour|uhrzeit|zeit|hora|heure)\b/.test(nameWords(c.name))) ?? times[0];
  if (!time) return;
  const zone = columns.find(
    (c) =>
      !used.has(c.name) &&
      ruleScore(nameWords(c.name), zoneRules) !== undefined &&
      filled(c.cells).length > 0 &&
      filled(c.cells).every(isZone),
  );
  const joined = [datetime.columns[0]!, time.name, ...(zone ? [zone.name] : [])];
  const values = joinedSample(columns, joined);
  const format = guessDatetimeFormat(values, accepts);
  if (format === undefined) return;
  datetime.columns = joined;
  datetime.format = format;
  datetime.sample = values[0];
  datetime.evidence = `${datetime.evidence}, with its time${zone ? ' and zone' : ''} columns`;
  for (const name of joined) used.add(name);
}

/** A chosen datetime with no review yet: dates without times, or a day-month order the sample leaves open. */
export function reviewDatetime(
  columns: readonly ColumnSample[],
  guess: FieldGuess,
  accepts: FormatCheck,
): void {
  const datetime = guess.choice;
  if (datetime && !guess.review && isDateOnly(columns, datetime)) guess.dateOnly = true;
  if (datetime?.format && !guess.review) {
    const swapped = undecidedDayMonth(datetime.format, joinedSample(columns, datetime.columns), accepts);
    if (swapped)
      guess.review = `the sample does not tell "${datetime.format}" from "${swapped}" (no day above 12): check day and month order`;
  }
}
