// Merges a preset's mapping with the user's: the user's fields replace the preset's field by field.
import type { FieldSpec, FieldSpecObject, SkipRule, WrittenMapping } from '../config/schema.js';
import type { RecordField } from '../record/fields.js';
import type { Preset } from './presets/types.js';

export type FieldOrigin = 'preset' | 'user';

export interface MergedField {
  spec: FieldSpecObject;
  /** A bare string spec: a column (CSV) or a path (JSON lines), decided once the format is known. */
  bare: string | undefined;
  origin: FieldOrigin;
}

export interface MergedMapping {
  preset: Preset | undefined;
  fields: Partial<Record<RecordField, MergedField>>;
  defaults: Partial<Record<RecordField, string | number>>;
  foldBy: string | undefined;
  /** The user's skip rules replace the preset's. */
  skip: SkipRule[];
}

function toMerged(spec: FieldSpec, origin: FieldOrigin): MergedField {
  return typeof spec === 'string' ? { spec: {}, bare: spec, origin } : { spec, bare: undefined, origin };
}

export function mergeMapping(preset: Preset | undefined, user: WrittenMapping | undefined): MergedMapping {
  const fields: MergedMapping['fields'] = {};
  for (const [field, spec] of Object.entries(preset?.mapping.fields ?? {})) {
    if (spec !== undefined) fields[field as RecordField] = toMerged(spec, 'preset');
  }
  for (const [field, spec] of Object.entries(user?.fields ?? {})) {
    if (spec !== undefined) fields[field as RecordField] = toMerged(spec, 'user');
  }
  return {
    preset,
    fields,
    defaults: { ...preset?.mapping.defaults, ...user?.defaults },
    foldBy: user?.foldBy ?? preset?.mapping.foldBy,
    skip: user?.skip ?? preset?.mapping.skip ?? [],
  };
}

/** The column alternatives of a field for CSV input (a bare string, `column`, or nothing). */
export function columnsOf(field: MergedField): string[] {
  const raw = field.bare ?? field.spec.column;
  if (raw === undefined) return [];
  return Array.isArray(raw) ? raw : [raw];
}

/** The path alternatives of a field for JSON lines (a bare string, `path`, else `column`). */
export function pathsOf(field: MergedField): string[] {
  const raw = field.bare ?? field.spec.path ?? field.spec.column;
  if (raw === undefined) return [];
  return Array.isArray(raw) ? raw : [raw];
}
