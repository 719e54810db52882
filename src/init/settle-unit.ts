// A value column of whole numbers: read in minor units (cents) when a sibling column or the order's parts
// say so (guess-cells.ts readUnit), else a question for the user when the sample cannot tell.
import { minorUnits, normalizeCurrency } from '../record/currency.js';
import { type RecordField, recordFields } from '../record/fields.js';
import { cellsOf, currencyInHeader, filled } from './cell-tests.js';
import { readUnit } from './guess-cells.js';
import type { ColumnSample, FieldGuess, Scored } from './types.js';

/** A value of whole numbers: minor units when the cells say so, a question when they cannot tell. */
export function settleUnit(
  columns: readonly ColumnSample[],
  fields: Record<RecordField, FieldGuess>,
  all: readonly Scored[],
) {
  const guess = fields.conversionValue;
  const value = guess.choice;
  if (!value || value.scale || value.columns.length > 1) return;
  const name = value.columns[0]!;
  const code =
    normalizeCurrency(filled(cellsOf(columns, fields.conversionCurrency.choice?.columns[0]))[0] ?? '') ??
    currencyInHeader(name);
  const digits = code && code !== '$' ? minorUnits(code) : 2;
  const reading = readUnit(
    {
      value: cellsOf(columns, name),
      siblings: columns.filter(
        (c) => c.name !== name && !recordFields.some((f) => fields[f].choice?.columns.includes(c.name)),
      ),
      parts: all
        .filter((c) => c.field === 'conversionValue' && c.part)
        .map((c) => ({ part: c.part!, cells: cellsOf(columns, c.columns[0]) })),
    },
    name,
    digits,
  );
  if (reading.unit === 'minor') {
    value.unit = 'minor';
    value.unitEvidence = reading.evidence;
    value.evidence = `${value.evidence}, in minor units: ${reading.evidence}`;
  } else if (reading.unit === 'undecided' && !value.unit) {
    guess.unitUndecided = true;
    guess.review = `"${name}" holds whole numbers the sample cannot tell as units or minor units (cents)`;
  }
}
