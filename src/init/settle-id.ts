// The id must not repeat over the rows a push would send: a repeating choice gives way to a unique
// candidate, or stays for the user to review.
import { quote } from '../quote.js';
import type { RecordField } from '../record/fields.js';
import { parseAmount } from '../record/money.js';
import { cellsOf } from './cell-tests.js';
import { repeatsOf } from './guess-cells.js';
import { guessStatus } from './revenue-policy.js';
import type { Candidate, ColumnSample, FieldGuess, Scored } from './types.js';

/**
 * The id must be unique over the rows that carry a value (a line item's continuation row repeats its
 * order's id, but carries no total): a repeating choice gives way to the best unique candidate, and is
 * kept, for review, only when there is none (an eBay `PayPal Transaction ID` shared by two sales).
 */
export function settleId(
  columns: readonly ColumnSample[],
  fields: Record<RecordField, FieldGuess>,
  all: readonly Scored[],
  used: Set<string>,
) {
  const guess = fields.conversionId;
  const id = guess.choice;
  if (!id) return;
  const rows = revenueRows(columns, fields.conversionValue.choice, fields.conversionDatetime.choice, id);
  const repeats = (c: Candidate) => {
    const { cells, values } = repeatsOf(cellsOf(columns, c.columns[0]), rows);
    return values < cells ? `${cells} rows, ${values} value${values === 1 ? '' : 's'}` : undefined;
  };
  const repeated = repeats(id);
  if (!repeated) return;
  id.repeats = repeated;
  const unique = all.find(
    (c) =>
      c.field === 'conversionId' &&
      !used.has(c.columns[0]!) &&
      repeatsOf(cellsOf(columns, c.columns[0]), rows).cells === rows.length &&
      !repeats(c),
  );
  if (unique) {
    used.delete(id.columns[0]!);
    used.add(unique.columns[0]!);
    guess.choice = unique;
    guess.ruledOut.push(`${quote(id.columns[0])} repeats in the sample (${repeated})`);
  } else {
    guess.review = `"${id.columns[0]}" repeats in the sample (${repeated}): rows sharing an id are taken as one sale and the others refused as duplicates; set conversionId to a column unique per sale`;
  }
}

/**
 * The sample rows a push would send: a positive value, a datetime (a line item's continuation row has
 * neither), and no status of money not received (a pending payment and its completion, a refund, share
 * their payment's id without being a second sale).
 */
function revenueRows(
  columns: readonly ColumnSample[],
  value: Candidate | undefined,
  datetime: Candidate | undefined,
  id: Candidate,
): number[] {
  const values = cellsOf(columns, value?.columns[0]);
  const times = cellsOf(columns, datetime?.columns[0]);
  const status = guessStatus(columns);
  const statuses = cellsOf(columns, status?.column);
  const notRevenue = new Set(status?.notRevenue.map(([v]) => v));
  return [...cellsOf(columns, id.columns[0]).keys()].filter((i) => {
    if (notRevenue.has(statuses[i] ?? '') || (datetime && times[i] === '')) return false;
    if (!value) return true;
    const amount = parseAmount(values[i] ?? '', { decimal: value.decimal });
    return amount.ok && amount.value > 0;
  });
}
