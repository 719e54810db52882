// For `revimport init` on an export no preset knows: every column scored for every field (score-columns.ts),
// then the best one per field chosen with the runner-up and the evidence. A guess is only a proposal: a close
// call, a part of an order total offered as the revenue, or a required field left unmapped is for review.
import { type RecordField, recordFields } from '../record/fields.js';
import { cellsOf, currencyInHeader } from './cell-tests.js';
import { guessKinds, guessRefunded, guessStatus } from './revenue-policy.js';
import { scoreColumns } from './score-columns.js';
import { joinDateAndTime, reviewDatetime } from './settle-datetime.js';
import { settleId } from './settle-id.js';
import { settleUnit } from './settle-unit.js';
import type { Candidate, ColumnSample, FieldGuess, FormatCheck, MappingGuess, Scored } from './types.js';

/** A runner-up scoring this close to the choice is a close call, for the user to settle. */
const CLOSE_CALL = 10;

/**
 * The proposal: per field the best candidate whose column no better-scoring field took, the runner-up and
 * what to review. A date column whose cells carry no time, beside a time column (and a zone column of
 * abbreviations or offsets), is proposed as the columns joined (`[Date, Time, TimeZone]`).
 */
export function guessMapping(columns: readonly ColumnSample[], accepts: FormatCheck): MappingGuess {
  const { candidates, ruledOut } = scoreColumns(columns, accepts);
  const all = candidates.sort((a, b) => b.score - a.score);
  const used = new Set<string>();
  const fields = shareOut(all, ruledOut, used);
  const datetime = fields.conversionDatetime.choice;
  if (datetime) joinDateAndTime(columns, datetime, used, accepts);
  settleId(columns, fields, all, used);
  settleUnit(columns, fields, all);
  for (const field of recordFields) reviewChoice(columns, field, fields[field], all, used);
  reviewDatetime(columns, fields.conversionDatetime, accepts);
  const valueColumn = fields.conversionValue.choice?.columns[0];
  const headerCurrency = valueColumn === undefined ? undefined : currencyInHeader(valueColumn);
  const status = guessStatus(columns);
  const kinds = guessKinds(columns, fields);
  const refunded = guessRefunded(columns, fields.conversionValue.choice, all);
  return {
    fields,
    ...(headerCurrency && !fields.conversionCurrency.choice ? { headerCurrency } : {}),
    ...(status ? { status } : {}),
    ...(refunded ? { refunded } : {}),
    ...(kinds ? { kinds } : {}),
  };
}

/** Per field the best candidate (sorted best first) whose column no better-scoring field took; parts never. */
function shareOut(
  all: readonly Scored[],
  ruledOut: ReadonlyMap<RecordField, string[]>,
  used: Set<string>,
): Record<RecordField, FieldGuess> {
  const fields = Object.fromEntries(
    recordFields.map((f) => [f, { ruledOut: ruledOut.get(f) ?? [] }]),
  ) as Record<RecordField, FieldGuess>;
  for (const candidate of all) {
    const guess = fields[candidate.field];
    if (guess.choice || used.has(candidate.columns[0]!)) continue;
    if (candidate.part) continue; // a part (shipping, another row's currency) is never a choice
    guess.choice = candidate;
    used.add(candidate.columns[0]!);
  }
  return fields;
}

/** The runner-up of a field, and what to review: a part found alone, a value that is no total, a close call. */
function reviewChoice(
  columns: readonly ColumnSample[],
  field: RecordField,
  guess: FieldGuess,
  all: readonly Scored[],
  used: ReadonlySet<string>,
): void {
  const others = all.filter((c) => c.field === field && !used.has(c.columns[0]!));
  guess.runnerUp = others[0];
  const { choice, runnerUp } = guess;
  if (!choice) {
    const part = others.find((c) => c.part);
    if (part)
      guess.review =
        field === 'conversionValue'
          ? `only "${part.columns[0]}" (${part.evidence}) looks like money: it is not the revenue; set the column that holds the order or payment total`
          : `only "${part.columns[0]}" (${part.evidence}) was found: it is not ${field}; set the column that holds it, or \`currency\` to the export's one currency`;
    return;
  }
  if (field === 'conversionValue' && choice.score < 60 && !runnerUp) {
    guess.review = `"${choice.columns[0]}" is ${choice.evidence}, not a total: check that it holds the revenue of each conversion`;
  }
  if (
    runnerUp &&
    !runnerUp.part &&
    !runnerUp.repeats &&
    choice.score - runnerUp.score < CLOSE_CALL &&
    !sameCells(columns, choice, runnerUp)
  ) {
    guess.review = `close call between "${choice.columns.join(' + ')}" (${choice.evidence}) and "${runnerUp.columns[0]}" (${runnerUp.evidence}); their sample values differ: keep the one that holds ${field === 'conversionValue' ? 'the revenue' : 'it'}`;
  }
}

/** Whether two columns give the same cells on every sample row (then choosing between them changes nothing). */
function sameCells(columns: readonly ColumnSample[], a: Candidate, b: Candidate): boolean {
  const x = cellsOf(columns, a.columns[0]);
  const y = cellsOf(columns, b.columns[0]);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
