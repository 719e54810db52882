// Binds a merged mapping to one input file: CSV columns become indexes into the row's cells (found once
// from the header), JSON paths become property walks, so the per-row work is a lookup, not a search.
import { ColumnMismatchError } from '../errors.js';
import { headerIndex, normalizeColumnName } from '../input/column-name.js';
import type { SourceInfo } from '../input/types.js';
import { type RecordField, recordFields } from '../record/fields.js';
import { type BoundLookup, bindLookup } from './bind-lookup.js';
import type { BoundField, BoundMapping } from './bound-mapping.js';
import { bindDeduction, bindRefundUnknown } from './deductions.js';
import { joinedCells } from './joined-columns.js';
import type { LookupTable } from './lookup.js';
import { columnsOf, type MergedField, type MergedMapping, pathsOf } from './merge-mapping.js';
import { bindRowRules, bindSumKey } from './row-rules.js';
import { checkSharedColumns } from './shared-columns.js';
import { type SourceGetter, sourceGetter } from './source-getter.js';

export type { BoundDeduction, BoundField, BoundMapping, LookupMiss } from './bound-mapping.js';
export { deductionColumns } from './deductions.js';
export type { ValueGetter } from './source-getter.js';

export function bindMapping(merged: MergedMapping, source: SourceInfo, lookup?: LookupTable): BoundMapping {
  const header = source.header ?? [];
  const index = headerIndex(header);
  const found = lookup ? bindLookup(merged, source, index, lookup) : undefined;

  const fields = {} as Record<RecordField, BoundField>;
  for (const field of recordFields) fields[field] = bindField(field, merged, source, index, found);
  checkSharedColumns(merged, source, index);

  // Rules first: a missing keep column is the error to report before a missing refunds column.
  const skipReason = bindRowRules(merged, source, index);
  const refunded = bindDeduction('refunded', merged, source, index);
  return {
    source,
    presetName: merged.preset?.name,
    fields,
    foldIndex: foldIndexOf(merged, source, index),
    fileZone: parameterValue(source.parameters, 'timezone'),
    skipReason,
    refunded,
    refundUnknown: bindRefundUnknown(merged, source, index, refunded),
    unpaid: bindDeduction('unpaid', merged, source, index),
    sumKey: bindSumKey(merged, source, index),
    lookupMiss: found?.miss,
  };
}

/** One field bound to the file: a constant, a column of the lookup file, a column or a path; blanks applied. */
function bindField(
  field: RecordField,
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
  found: BoundLookup | undefined,
): BoundField {
  const spec = merged.fields[field];
  const bound: BoundField = {
    field,
    column: field,
    get: undefined,
    constant: spec?.spec.value,
    fallback: merged.defaults[field],
    spec: spec?.spec ?? {},
  };
  if (spec && spec.spec.value !== undefined) bound.column = '(constant)';
  else if (spec && spec.spec.lookup !== undefined && found) {
    const i = found.table.columns.indexOf(spec.spec.lookup);
    bound.column = `${spec.spec.lookup} (${found.table.file})`;
    bound.get = (row) => found.hit(row)?.[i] ?? undefined;
  } else if (spec && source.format === 'csv') bindColumn(bound, spec, index, source.header ?? [], source);
  else if (spec) bindPath(bound, spec, index, source);
  const blank = spec?.spec.blank;
  const get = bound.get;
  if (blank && get) {
    const empty = new Set(blank.map((v) => v.trim().toLowerCase()));
    bound.get = (row) => {
      const value = get(row);
      return typeof value === 'string' && empty.has(value.trim().toLowerCase()) ? undefined : value;
    };
  }
  return bound;
}

/** Index of the fold column (CSV): the first of mapping.foldBy's alternatives the header has. */
function foldIndexOf(
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
): number | undefined {
  if (merged.foldBy === undefined || source.format !== 'csv') return undefined;
  const columns = Array.isArray(merged.foldBy) ? merged.foldBy : [merged.foldBy];
  return columns.map((column) => index.get(normalizeColumnName(column))).find((i) => i !== undefined);
}

function bindColumn(
  bound: BoundField,
  merged: MergedField,
  index: Map<string, number>,
  header: string[],
  source: SourceInfo,
): void {
  const joined = merged.bare === undefined ? merged.spec.columns : undefined;
  if (joined !== undefined) {
    bindJoined(bound, merged, joined, index, header, source);
    return;
  }
  const columns = columnsOf(merged);
  const getter = sourceGetter(columns, source, index, 'each row');
  if (getter) {
    useGetter(bound, getter);
    return;
  }
  // A preset maps optional columns an export may lack; a column the user named must exist.
  if (merged.origin === 'user' && columns.length > 0) {
    const lacks = `column ${columns.map((c) => `"${c}"`).join(' or ')} (mapped to ${bound.field})`;
    throw new ColumnMismatchError(source.file, lacks, `${lacks} is not in the header of ${source.file}`, {
      hint: `the header has: ${header.map((h) => `"${h}"`).join(', ')}`,
    });
  }
  bound.column = columns[0] ?? bound.field;
}

/** `columns: [Date, Time, TimeZone]`: the non-empty cells joined with one space, in the order given. */
function bindJoined(
  bound: BoundField,
  merged: MergedField,
  columns: string[],
  index: Map<string, number>,
  header: string[],
  source: SourceInfo,
): void {
  const found = columns.map((column) => index.get(normalizeColumnName(column)));
  const missing = columns.filter((_, i) => found[i] === undefined);
  if (missing.length > 0) {
    if (merged.origin === 'user') {
      const lacks = `column ${missing.map((c) => `"${c}"`).join(', ')} (joined into ${bound.field})`;
      throw new ColumnMismatchError(source.file, lacks, `${lacks} is not in the header of ${source.file}`, {
        hint: `the header has: ${header.map((h) => `"${h}"`).join(', ')}`,
      });
    }
    bound.column = columns.join(' + ');
    return;
  }
  const indexes = found as number[];
  bound.column = indexes.map((i) => header[i] ?? '').join(' + ');
  bound.get = (row) => {
    if (row.kind !== 'csv') return undefined;
    const text = joinedCells(row.cells, indexes);
    return text === '' ? undefined : text;
  };
}

function bindPath(
  bound: BoundField,
  merged: MergedField,
  index: Map<string, number>,
  source: SourceInfo,
): void {
  const getter = sourceGetter(pathsOf(merged), source, index, 'each row');
  if (getter) useGetter(bound, getter);
}

function useGetter(bound: BoundField, getter: SourceGetter): void {
  bound.column = getter.name;
  bound.get = getter.get;
}

function parameterValue(parameters: Record<string, string> | undefined, name: string): string | undefined {
  if (!parameters) return undefined;
  for (const [key, value] of Object.entries(parameters)) {
    if (normalizeColumnName(key) === name && value.trim() !== '') return value.trim();
  }
  return undefined;
}
