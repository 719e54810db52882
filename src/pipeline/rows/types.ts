// The row path's shared vocabulary: what the checking stage is given (CheckOptions), what a file is bound
// to (FileState), and what each row becomes (RowOutcome). Its own module so the steps import no stage.
import type { WrittenMapping } from '../../config/schema.js';
import type { SourceRow } from '../../input/types.js';
import type { BoundMapping } from '../../mapping/compile-mapping.js';
import type { LookupTable } from '../../mapping/lookup.js';
import type { ConversionRecord } from '../../record/fields.js';
import type { ValidateOptions, Validator } from '../../record/validate.js';
import type { Rejection } from '../../report/rejection.js';

export type CheckedRow =
  | {
      ok: true;
      record: ConversionRecord;
      row: SourceRow;
      /** The source column of conversionId, for messages about this record later on. */
      idColumn: string;
      /**
       * Without a conversionId, the record's occurrence among identical records of its file (1 for the first;
       * content-counts.ts): part of its ledger key. 1 (or absent) for a record with one.
       */
      occurrence?: number;
      /** The record's content hash, when the checker made it (a record without a conversionId): not made twice. */
      contentHash?: string;
    }
  | InvalidRow;

/** A row rejected before sending; `duplicate` when its conversionId was seen on an earlier valid row. */
export type InvalidRow = { ok: false; rejection: Rejection; duplicate: boolean };

/** A row that is not revenue, on purpose: a skip or keep rule, refunded in full, the transform's null. */
export interface SkippedRow {
  skipped: string;
  row: SourceRow;
}

/** What one row became: a record, a rejection, `folded` into the row above, or skipped with a reason. */
export type RowOutcome = CheckedRow | 'folded' | SkippedRow;

export interface CheckOptions extends ValidateOptions {
  mapping: WrittenMapping | undefined;
  transform: ((row: Record<string, unknown>) => unknown) | undefined;
  /** Told once per file which preset was used (named in the output). */
  onPreset?: (file: string, preset: string) => void;
  onWarning?: (message: string) => void;
  /** mapping.lookup's table, opened by the caller (src/pipeline/lookup-table.ts). */
  lookup?: LookupTable;
}

/** One input file as the checker holds it: its bound mapping, its validator, the last fold key seen. */
export interface FileState {
  bound: BoundMapping;
  validator: Validator;
  lastFoldKey: string | undefined;
  /** The preset the file is read with (detected or named), if any. */
  preset?: string | undefined;
  /** The file's number in the run (1 for the first file bound): records without a conversionId are counted per file. */
  number: number;
}
