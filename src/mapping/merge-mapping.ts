// Merges a preset's mapping with the user's: the user's fields replace the preset's field by field.
import type {
  Deduction,
  FieldSpec,
  FieldSpecObject,
  KeepRule,
  SkipRule,
  SumByEntry,
  WrittenMapping,
} from '../config/schema.js';
import { sourceKeys } from '../config/schema.js';
import type { RecordField } from '../record/fields.js';
import type { AbbreviationReading } from '../record/zone-abbreviations.js';
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
  foldBy: string | string[] | undefined;
  /** The user's skip rules replace the preset's. */
  skip: SkipRule[];
  sumBy: SumByEntry[] | undefined;
  /** Who wrote each rule: a column the user named must exist in the file; a preset's may be absent. */
  ruleOrigin: Record<'skip' | 'keep' | 'refunded' | 'unpaid' | 'sumBy', FieldOrigin>;
  /** The user's keep rules replace the preset's. */
  keep: KeepRule[];
  refunded: Deduction | undefined;
  unpaid: Deduction | undefined;
  zoneAbbreviations: AbbreviationReading | undefined;
  /** Whose abbreviations a preset's reading is ("PayPal"), for the run's note; unset when the user chose. */
  abbreviationsWriter: string | undefined;
  /** The user's `mapping.lookup` keys (columns or paths of the input), paired with the lookup's match columns. */
  lookupKeys: string[] | undefined;
  /** mapping.sharedColumns: columns the user feeds the value or datetime and another field from on purpose. */
  sharedColumns: string[];
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
    if (spec === undefined) continue;
    const base = fields[field as RecordField];
    fields[field as RecordField] =
      base !== undefined && typeof spec === 'object' ? mergeOver(base, spec) : toMerged(spec, 'user');
  }
  return {
    preset,
    fields,
    defaults: { ...preset?.mapping.defaults, ...user?.defaults },
    foldBy: user?.foldBy ?? preset?.mapping.foldBy,
    skip: user?.skip ?? preset?.mapping.skip ?? [],
    keep: user?.keep ?? preset?.mapping.keep ?? [],
    sumBy: listOf(user?.sumBy ?? preset?.mapping.sumBy),
    ruleOrigin: {
      skip: user?.skip ? 'user' : 'preset',
      keep: user?.keep ? 'user' : 'preset',
      refunded: user?.refunded ? 'user' : 'preset',
      unpaid: user?.unpaid ? 'user' : 'preset',
      sumBy: user?.sumBy ? 'user' : 'preset',
    },
    refunded: user?.refunded ?? preset?.mapping.refunded,
    unpaid: user?.unpaid ?? preset?.mapping.unpaid,
    zoneAbbreviations:
      user?.zoneAbbreviations ?? preset?.mapping.zoneAbbreviations ?? preset?.abbreviations?.reading,
    abbreviationsWriter:
      user?.zoneAbbreviations === undefined && preset?.mapping.zoneAbbreviations === undefined
        ? preset?.abbreviations?.writer
        : undefined,
    lookupKeys: listOf(user?.lookup?.key),
    sharedColumns: user?.sharedColumns ?? [],
  };
}

/**
 * A user's object over a preset's field: the keys given replace the preset's, the others (format,
 * timezone, decimal, transform...) stay. A source given (column, columns, path or value) replaces the
 * preset's source as a whole. The field counts as the user's only when the user named its source.
 */
function mergeOver(base: MergedField, spec: FieldSpecObject): MergedField {
  const userSource = sourceKeys.some((key) => spec[key] !== undefined);
  const merged: FieldSpecObject = { ...base.spec };
  if (userSource) for (const key of sourceKeys) delete merged[key];
  for (const [key, value] of Object.entries(spec)) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  if (userSource) return { spec: merged, bare: undefined, origin: 'user' };
  // The preset's source stays: a bare preset column stays bare.
  return { spec: merged, bare: base.bare, origin: base.origin };
}

function listOf<T>(value: T | T[] | undefined): T[] | undefined {
  return value === undefined ? undefined : Array.isArray(value) ? value : [value];
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
