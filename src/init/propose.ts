// The mapping init proposes: from a preset (plus a visitor-id or e-mail column it leaves open), or from the
// guess (a column or an object with format, decimal, scale, unit or joined columns per field, and the
// revenue policy: keep a received status, take refunds off), with the value's currency from its header.
import type { FieldSpec, WrittenMapping } from '../config/schema.js';
import { normalizeColumnName } from '../input/column-name.js';
import type { SourceRow } from '../input/types.js';
import type { Preset } from '../mapping/presets/types.js';
import { createDatetimeParser } from '../record/datetime.js';
import { type RecordField, recordFields } from '../record/fields.js';
import { columnSamples } from './column-samples.js';
import { guessDatetimeFormat, undecidedDayMonth } from './datetime-formats.js';
import { guessMapping } from './guess-mapping.js';
import type { Candidate, MappingGuess } from './types.js';

export type FieldSpecs = Partial<Record<RecordField, FieldSpec>>;

/** What init writes and tries on the sample. */
export interface Proposal {
  preset: Preset | undefined;
  guess: MappingGuess | undefined;
  /** The fields as written; the same object as `mapping.fields`, so a later fix (a re-saved date form) is tried too. */
  specs: FieldSpecs;
  mapping: WrittenMapping;
  /** The one currency the value column's header names (never the ambiguous `$`). */
  currency: string | undefined;
  isJson: boolean;
  /** The required fields the guess found no column for (the currency not, when the header names it). */
  unguessed: RecordField[];
}

/** A value has a format's shape even when its zone is still to be settled (an ambiguous `EST`, no zone yet, a DST gap). */
const shapeOnly = new Set(['ambiguous time zone', 'missing time zone', 'nonexistent local time']);
export const accepts = (format: string, value: string) => {
  const result = createDatetimeParser([format])(value, 'UTC');
  return result.ok || shapeOnly.has(result.reason);
};

/** The guess of a file no preset describes: every column scored for every field. */
export function guessOf(rows: readonly SourceRow[]): MappingGuess {
  return guessMapping(columnSamples(rows), accepts);
}

export function propose(
  rows: readonly SourceRow[],
  preset: Preset | undefined,
  guess: MappingGuess | undefined,
): Proposal {
  const isJson = rows.some((r) => r.kind === 'json');
  const specs = preset ? linkColumns(preset, rows) : specsFrom(guess!, isJson);
  const currency =
    guess?.headerCurrency !== undefined && guess.headerCurrency !== '$' ? guess.headerCurrency : undefined;
  const mapping: WrittenMapping = preset
    ? { preset: preset.name, fields: specs, defaults: {} }
    : { fields: specs, defaults: {}, ...policyOf(guess!, isJson) };
  const unguessed = guess
    ? (['conversionValue', 'conversionDatetime', 'conversionCurrency'] as const).filter(
        (field) => !guess.fields[field].choice && !(field === 'conversionCurrency' && currency),
      )
    : [];
  return { preset, guess, specs, mapping, currency, isJson, unguessed };
}

/** The revenue policy a guess proposes: keep rows of a received status, take refunds off. */
export function policyOf(guess: MappingGuess, isJson: boolean): Pick<WrittenMapping, 'keep' | 'refunded'> {
  const source = (column: string) => (isJson ? { path: column } : { column });
  return {
    ...(guess.status?.keep.length
      ? { keep: [{ ...source(guess.status.column), in: guess.status.keep }] }
      : {}),
    ...(guess.refunded ? { refunded: isJson ? { path: guess.refunded } : guess.refunded } : {}),
  };
}

/** The mapping a guess proposes: a column name, or an object with format, decimal, scale or joined columns. */
function specsFrom(guess: MappingGuess, isJson: boolean): FieldSpecs {
  const specs: FieldSpecs = {};
  for (const field of recordFields) {
    const choice = guess.fields[field].choice;
    if (choice) specs[field] = specOf(choice, isJson);
  }
  return specs;
}

export function specOf(candidate: Candidate, isJson: boolean): FieldSpec {
  const [column] = candidate.columns as [string, ...string[]];
  const extra = {
    ...(candidate.format && candidate.format !== 'iso' && candidate.format !== 'epoch'
      ? { format: candidate.format }
      : {}),
    ...(candidate.timezone ? { timezone: candidate.timezone } : {}),
    ...(candidate.decimal ? { decimal: candidate.decimal } : {}),
    ...(candidate.scale ? { scale: candidate.scale } : {}),
    ...(candidate.unit ? { unit: candidate.unit } : {}),
  };
  if (candidate.columns.length > 1) return { columns: candidate.columns, ...extra };
  if (Object.keys(extra).length === 0) return column;
  return isJson ? { path: column, ...extra } : { column, ...extra };
}

/**
 * A preset never invents a visitor id; but where the user added a visitor-id or e-mail column to the
 * export (a common practice with ad-platform templates), init proposes it for the field the preset leaves open.
 */
function linkColumns(preset: Preset, rows: readonly SourceRow[]): FieldSpecs {
  if (!rows.some((r) => r.kind === 'csv')) return {};
  const guess = guessOf(rows);
  const links: FieldSpecs = {};
  for (const field of ['serviceId', 'conversionEmail'] as const) {
    const column = guess.fields[field].choice?.columns[0];
    if (preset.mapping.fields?.[field] === undefined && column !== undefined) links[field] = column;
  }
  return links;
}

/** A date form init proposes over a preset's: the sample's own, and its day-month swap when the sample cannot tell. */
export interface Resaved {
  format: string;
  swapped: string | undefined;
}

/**
 * The datetime format the sample's cells have in the columns the preset reads the datetime from, and the
 * day-month swap of it when the sample cannot tell them apart.
 */
export function presetDatetimeFormat(preset: Preset, rows: readonly SourceRow[]): Resaved | undefined {
  const spec = preset.mapping.fields?.conversionDatetime;
  if (spec === undefined) return undefined;
  const names =
    typeof spec === 'string'
      ? [spec]
      : (spec.columns ?? (spec.column === undefined ? [] : [spec.column].flat()));
  // Matched as the mapping matches header names (case and spaces aside).
  const wanted = new Set(names.map(normalizeColumnName));
  const columns = columnSamples(rows).filter((c) => wanted.has(normalizeColumnName(c.name)));
  const cells = columns.flatMap((c) => c.cells);
  const format = guessDatetimeFormat(cells, accepts);
  if (format === undefined || format === 'iso' || format === 'epoch') return undefined;
  return { format, swapped: undecidedDayMonth(format, cells, accepts) };
}
