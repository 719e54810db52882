// Binds a merged mapping to one input file: CSV columns become indexes into the row's cells (found once
// from the header), JSON paths become property walks, so the per-row work is a lookup, not a search.
import { ConfigError } from '../errors.js';
import type { SourceInfo, SourceRow } from '../input/types.js';
import { type RecordField, recordFields } from '../record/fields.js';
import { normalizeColumnName } from './column-name.js';
import { columnsOf, type MergedField, type MergedMapping, pathsOf } from './merge-mapping.js';

export type ValueGetter = (row: SourceRow) => unknown;

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
  /** True for a row a skip rule leaves out. */
  skips: ((row: SourceRow) => boolean) | undefined;
}

export function bindMapping(merged: MergedMapping, source: SourceInfo): BoundMapping {
  const header = source.header ?? [];
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    const key = normalizeColumnName(name);
    if (!index.has(key)) index.set(key, i);
  });

  const fields = {} as Record<RecordField, BoundField>;
  for (const field of recordFields) {
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
    else if (spec && source.format === 'csv') bindColumn(bound, spec, index, header, source);
    else if (spec) bindPath(bound, spec);
    fields[field] = bound;
  }

  let foldIndex: number | undefined;
  if (merged.foldBy !== undefined && source.format === 'csv') {
    foldIndex = index.get(normalizeColumnName(merged.foldBy));
  }
  return {
    source,
    presetName: merged.preset?.name,
    fields,
    foldIndex,
    fileZone: parameterValue(source.parameters, 'timezone'),
    skips: bindSkipRules(merged, source, index),
  };
}

function bindSkipRules(
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
): BoundMapping['skips'] {
  const tests: Array<(row: SourceRow) => boolean> = [];
  for (const rule of merged.skip) {
    const values = new Set(rule.in.map((v) => v.trim().toLowerCase()));
    const matches = (value: unknown) =>
      (typeof value === 'string' || typeof value === 'number') &&
      values.has(String(value).trim().toLowerCase());
    if (source.format === 'csv' && rule.column !== undefined) {
      const i = index.get(normalizeColumnName(rule.column));
      if (i !== undefined) tests.push((row) => row.kind === 'csv' && matches(row.cells[i]));
    } else if (source.format === 'jsonl' && rule.path !== undefined) {
      const parts = rule.path.split('.');
      tests.push((row) => row.kind === 'json' && matches(walk(row.value, parts)));
    }
  }
  if (tests.length === 0) return undefined;
  return (row) => tests.some((test) => test(row));
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
  for (const column of columns) {
    const i = index.get(normalizeColumnName(column));
    if (i !== undefined) {
      bound.column = header[i] ?? column;
      bound.get = (row) => (row.kind === 'csv' ? row.cells[i] : undefined);
      return;
    }
  }
  // A preset maps optional columns an export may lack; a column the user named must exist.
  if (merged.origin === 'user' && columns.length > 0) {
    throw new ConfigError(
      `column ${columns.map((c) => `"${c}"`).join(' or ')} (mapped to ${bound.field}) is not in the header of ${source.file}`,
      { hint: `the header has: ${header.map((h) => `"${h}"`).join(', ')}` },
    );
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
      throw new ConfigError(
        `column ${missing.map((c) => `"${c}"`).join(', ')} (joined into ${bound.field}) is not in the header of ${source.file}`,
        { hint: `the header has: ${header.map((h) => `"${h}"`).join(', ')}` },
      );
    }
    bound.column = columns.join(' + ');
    return;
  }
  const indexes = found as number[];
  bound.column = indexes.map((i) => header[i] ?? '').join(' + ');
  bound.get = (row) => {
    if (row.kind !== 'csv') return undefined;
    let text = '';
    for (const i of indexes) {
      const cell = row.cells[i]?.trim();
      if (cell) text = text === '' ? cell : `${text} ${cell}`;
    }
    return text === '' ? undefined : text;
  };
}

function bindPath(bound: BoundField, merged: MergedField): void {
  const paths = pathsOf(merged).map((p) => ({ text: p, parts: p.split('.') }));
  if (paths.length === 0) return;
  bound.column = paths[0]!.text;
  bound.get = (row) => {
    if (row.kind !== 'json') return undefined;
    for (const p of paths) {
      const value = walk(row.value, p.parts);
      if (value !== undefined && value !== null && value !== '') return value;
    }
    return undefined;
  };
}

function walk(value: unknown, parts: string[]): unknown {
  let current: unknown = value;
  for (const part of parts) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function parameterValue(parameters: Record<string, string> | undefined, name: string): string | undefined {
  if (!parameters) return undefined;
  for (const [key, value] of Object.entries(parameters)) {
    if (normalizeColumnName(key) === name && value.trim() !== '') return value.trim();
  }
  return undefined;
}
