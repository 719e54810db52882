// What a mapping bound to one file is: per field a getter (a column index or a JSON path walk), a constant
// or a default, and the file's row rules as tests. Its own module so the binding steps share it.
import type { SourceInfo, SourceRow } from '../input/types.js';
import type { RecordField } from '../record/fields.js';
import type { MergedField } from './merge-mapping.js';
import type { ValueGetter } from './source-getter.js';

export interface BoundField {
  field: RecordField;
  /** What the user knows this field as: the source header as written, the JSON path, or `(constant)`. */
  column: string;
  get: ValueGetter | undefined;
  constant: string | number | undefined;
  fallback: string | number | undefined;
  spec: MergedField['spec'];
}

export interface BoundMapping {
  source: SourceInfo;
  presetName: string | undefined;
  fields: Record<RecordField, BoundField>;
  /** Index of the fold column (CSV), if the mapping folds continuation rows. */
  foldIndex: number | undefined;
  /** The file's own zone, from a `Parameters:TimeZone=` row. */
  fileZone: string | undefined;
  /** Why a skip or keep rule leaves the row out (`Financial Status: pending`), or undefined to keep it. */
  skipReason: ((row: SourceRow) => string | undefined) | undefined;
  /** Amounts taken off the value: refunded (under refunds: net) and not captured. */
  refunded: BoundDeduction | undefined;
  unpaid: BoundDeduction | undefined;
  /** The key rows are summed by (mapping.sumBy), per row the first non-empty alternative; undefined: no summing. */
  sumKey: ((row: SourceRow) => string | undefined) | undefined;
  /** refunded.ifAbsent: why the row's refund is unknown (the file lacks the refunded column), or undefined. */
  refundUnknown:
    | ((row: SourceRow) => { column: string; value: string; message: string } | undefined)
    | undefined;
  /** mapping.lookup: why the row's key found no row of the lookup file, or undefined when it did. */
  lookupMiss: ((row: SourceRow) => LookupMiss | undefined) | undefined;
}

export interface LookupMiss {
  /** The key column (or path) of this file, as written. */
  column: string;
  value: string;
  message: string;
}

export interface BoundDeduction {
  column: string;
  get: ValueGetter;
  decimal: '.' | ',' | undefined;
  unit: 'major' | 'minor' | undefined;
  /** The value's multiplier (micros), unless the deduction gives its own. */
  scale: number | undefined;
  /** The cell is the amount left after refunds (0 or empty: none recorded), not the amount refunded. */
  remaining: boolean;
}
