// The candidate: a row's raw value per field after mapping (constants and defaults applied), before any
// check; the JS `transform` hook sees and edits it. The refunded and unpaid cells ride along, hidden.
import type { SourceRow } from '../../input/types.js';
import type { FieldSource, MappingSource } from '../field-source.js';
import type { ConversionRecord } from '../fields.js';

/** Raw deduction cells (refunded, unpaid) read with the candidate; not part of the JS transform's fields. */
export const deductionCells = Symbol('deductions');

/** Raw values per field after mapping (before normalization); the JS `transform` hook sees and edits these. */
export type Candidate = Partial<Record<keyof ConversionRecord, unknown>> & {
  [deductionCells]?: { refunded: unknown; unpaid: unknown };
};

/** Reads the row's mapped values; `currency` is the run's default currency. */
export function readCandidate(bound: MappingSource, currency: string | undefined, row: SourceRow): Candidate {
  const f = bound.fields;
  const candidate: Candidate = {
    conversionCurrency: readField(f.conversionCurrency, row) ?? currency,
    conversionValue: readField(f.conversionValue, row),
    conversionDatetime: readField(f.conversionDatetime, row),
    conversionTimezone: readField(f.conversionTimezone, row, false),
    serviceId: readField(f.serviceId, row),
    conversionId: readField(f.conversionId, row),
    conversionName: readField(f.conversionName, row),
    conversionEmail: readField(f.conversionEmail, row),
  };
  if (bound.refunded || bound.unpaid) {
    candidate[deductionCells] = { refunded: bound.refunded?.get(row), unpaid: bound.unpaid?.get(row) };
  }
  return candidate;
}

/** One field's value: the constant or the cell (a JSON array's first element), trimmed, empty as absent. */
function readField(field: FieldSource, row: SourceRow, withFallback = true): unknown {
  let value: unknown = field.constant ?? field.get?.(row);
  if (Array.isArray(value)) value = value.length > 0 ? value[0] : undefined;
  if (typeof value === 'string') {
    value = value.trim();
    if (value === '') value = undefined;
  }
  return withFallback ? (value ?? field.fallback) : value;
}

/**
 * After the JS transform: the refunded and unpaid amounts still come off a value the transform left as
 * it was (a new object too); a value the transform changed is the transform's own, taken as final.
 */
export function carryDeductions(before: Candidate, after: Candidate): Candidate {
  const cells = before[deductionCells];
  if (cells !== undefined && after.conversionValue === before.conversionValue) after[deductionCells] = cells;
  else delete after[deductionCells];
  return after;
}
