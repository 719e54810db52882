// What a mapping bound to one file is: per field a getter (a column index or a JSON path walk), a constant
// or a default, and the file's row rules as tests. Its own module so the binding steps share it.
// The validator's part of it (record/field-source.ts) is declared in record, which knows nothing of mapping.
import type { SourceRow } from '../input/types.js';
import type { DeductionSource, FieldSource, MappingSource } from '../record/field-source.js';
import type { RecordField } from '../record/fields.js';
import type { MergedField } from './merge-mapping.js';

export interface BoundField extends FieldSource {
  spec: MergedField['spec'];
}

export interface BoundMapping extends MappingSource {
  fields: Record<RecordField, BoundField>;
  /** Index of the fold column (CSV), if the mapping folds continuation rows. */
  foldIndex: number | undefined;
  /** Why a skip or keep rule leaves the row out (`Financial Status: pending`), or undefined to keep it. */
  skipReason: ((row: SourceRow) => string | undefined) | undefined;
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

export type BoundDeduction = DeductionSource;
