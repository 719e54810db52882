// The shapes init's guess passes between its steps: the sample as columns, a candidate column for a field,
// and the proposal (per field a choice, a runner-up and what to review; the rows' revenue policy).
import type { RecordField } from '../record/fields.js';

/** One column of the sample: its name as written and its trimmed cells, one per sample row ('' when empty). */
export interface ColumnSample {
  name: string;
  cells: readonly string[];
}

/** A column proposed for a field. */
export interface Candidate {
  /** The column, or the columns joined into one datetime (`Date`, `Time`, `TimeZone`). */
  columns: string[];
  score: number;
  /** Why it ranks where it does, for the user: `an order total`, `a part of the total: shipping`. */
  evidence: string;
  /** Set when the column is a part of an order total (shipping, tax, discount, subtotal, fee, ad spend...). */
  part?: string;
  /** First non-empty sample value. */
  sample?: string;
  /** conversionDatetime: the token format that reads every sample value (`iso` and `epoch` need none). */
  format?: string;
  /** conversionValue: the decimal separator the sample shows. */
  decimal?: ',' | '.';
  /** conversionDatetime: the zone the header names (`Created (UTC)`). */
  timezone?: string;
  /** conversionValue: integer minor units (`cents` in the name, or a sibling or the parts say so). */
  unit?: 'minor';
  /** conversionId: the column repeats over the sample's rows (`4 rows, 2 values`): not a choice while another is unique. */
  repeats?: string;
  /** conversionValue: `micros` in the name: a multiplier. */
  scale?: number;
  /** conversionValue: what in the cells says minor units (a sibling column, the parts), when they say it. */
  unitEvidence?: string;
}

export interface FieldGuess {
  choice?: Candidate;
  runnerUp?: Candidate;
  /** Set when the user must look at this field before pushing: a close call, a part offered alone... */
  review?: string;
  /** conversionDatetime: the cells carry a date and no time (each conversion at local midnight). */
  dateOnly?: boolean;
  /** Columns ruled out by their cells, with the reason (shown when nothing was chosen). */
  ruledOut: string[];
  /** conversionValue: whole numbers the sample cannot tell units from minor units (init shows both totals). */
  unitUndecided?: boolean;
}

export interface MappingGuess {
  fields: Record<RecordField, FieldGuess>;
  /** The value's currency read from its header (`Amount (USD)`), when no currency column was found. */
  headerCurrency?: string;
  /** A status column holding both money received and not (`Paid`, `Failed`): only the first are revenue. */
  status?: StatusGuess;
  /** A column of amounts refunded beside the value (`Amount Refunded`): taken off it (mapping.refunded). */
  refunded?: string;
  /** A column naming the kind of each row (`Type`: Website Payment, Invoice Sent, Payment Refund...). */
  kinds?: { column: string; values: string[] };
}

export interface StatusGuess {
  column: string;
  /** The sample's values that mean money received (kept). */
  keep: string[];
  /** The sample's values that do not (pending, failed, refunded in full, lost...), with their row counts. */
  notRevenue: Array<[string, number]>;
}

/** Whether a value has the shape of a format (a DST-gap time still has the shape). */
export type FormatCheck = (format: string, value: string) => boolean;

/** A candidate with the field it is a candidate for (before columns are shared out). */
export interface Scored extends Candidate {
  field: RecordField;
}
