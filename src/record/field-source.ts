// What the validator reads of a mapping bound to one file: per field a getter, a constant or a default and
// its parsing rules, the file's zone and deductions. Declared here so that record knows nothing of mapping
// (mapping/bound-mapping.ts builds these shapes and adds its row rules).
import type { SourceInfo, SourceRow } from '../input/types.js';
import type { RecordField } from './fields.js';

export type ValueGetter = (row: SourceRow) => unknown;

/** The parsing rules of a field spec that the validator applies (config/schema.ts documents each). */
export interface FieldRules {
  readonly format?: string | readonly string[];
  readonly timezone?: string;
  readonly decimal?: '.' | ',';
  readonly scale?: number;
  readonly unit?: 'major' | 'minor';
  readonly transform?: 'trim' | 'lowercase' | 'uppercase' | 'email';
}

export interface FieldSource {
  field: RecordField;
  /** What the user knows this field as: the source header as written, the JSON path, or `(constant)`. */
  column: string;
  get: ValueGetter | undefined;
  constant: string | number | undefined;
  fallback: string | number | undefined;
  spec: FieldRules;
}

export interface DeductionSource {
  column: string;
  get: ValueGetter;
  decimal: '.' | ',' | undefined;
  unit: 'major' | 'minor' | undefined;
  /** The value's multiplier (micros), unless the deduction gives its own. */
  scale: number | undefined;
  /** The cell is the amount left after refunds (0 or empty: none recorded), not the amount refunded. */
  remaining: boolean;
}

export interface MappingSource {
  source: SourceInfo;
  presetName: string | undefined;
  fields: Record<RecordField, FieldSource>;
  /** The file's own zone, from a `Parameters:TimeZone=` row. */
  fileZone: string | undefined;
  /** Amounts taken off the value: refunded (under refunds: net) and not captured. */
  refunded: DeductionSource | undefined;
  unpaid: DeductionSource | undefined;
}
