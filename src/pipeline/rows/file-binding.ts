// The "bind fields" step, once per file: its preset chosen, the mapping merged and bound to its header
// (or JSON paths), the file refused whole when it cannot be read, and the validator built for it.
import type { SourceRow } from '../../input/types.js';
import { type BoundMapping, bindMapping, deductionColumns } from '../../mapping/compile-mapping.js';
import { type MergedMapping, mergeMapping } from '../../mapping/merge-mapping.js';
import type { Preset } from '../../mapping/presets/types.js';
import { createValidator } from '../../record/validate.js';
import { refuseAbsentColumns, refuseLookalike, refuseUnlinkable } from './file-refusals.js';
import { presetFor } from './preset-choice.js';
import type { CheckOptions, FileState } from './types.js';

/** What binding a file needs from the run: the options, the preset named (or to detect), date orders decided. */
export interface BindingContext {
  options: CheckOptions;
  configuredPreset: Preset | undefined;
  detect: boolean;
  /** Files read in the other day/month order than their preset's formats (date-order.ts decided). */
  dateFormats: Map<string, string[]>;
}

/** The state of the file `row` opens (its first data row, or its header alone: `cells` empty). */
export function bindFile(row: SourceRow, context: BindingContext): Omit<FileState, 'number'> {
  const { options } = context;
  const preset = presetFor(row, context.configuredPreset, context.detect);
  // A lookalike is told by a row's cells: a header alone (bindHeader) cannot tell.
  if (preset?.refuse && row.kind === 'csv' && row.cells.length > 0) refuseLookalike(preset, row);
  if (preset) options.onPreset?.(row.source.file, preset.name);
  const merged = withDatetimeFormats(
    mergeMapping(preset, options.mapping),
    context.dateFormats.get(row.source.file),
  );
  const bound = bindMapping(merged, row.source, options.lookup);
  // A JS transform may set the link from the source columns ($row): it has the last say.
  if (!options.transform) {
    refuseAbsentColumns(bound, preset);
    refuseUnlinkable(bound, preset);
  }
  // Summed rows include refunds (negative): the sum, not the row, must be positive.
  const validator = createValidator(bound, {
    ...options,
    zoneAbbreviations: merged.zoneAbbreviations,
    abbreviationsWriter: merged.abbreviationsWriter,
    ...(bound.sumKey ? { allowNegative: true, summing: true } : {}),
  });
  if (row.kind === 'csv') warnAbsentDeductions(merged, bound, options);
  return { bound, validator, lastFoldKey: undefined, preset: preset?.name };
}

/** A preset's refunds (or outstanding) column the file lacks: values go out as written; said once. */
function warnAbsentDeductions(merged: MergedMapping, bound: BoundMapping, options: CheckOptions): void {
  for (const which of ['refunded', 'unpaid'] as const) {
    const deduction = merged[which];
    if (deduction === undefined || bound[which] !== undefined) continue;
    const column = deductionColumns(deduction).join('" or "');
    const unknown = which === 'refunded' && bound.refundUnknown !== undefined;
    options.onWarning?.(
      `${bound.source.file}: no column "${column}" for ${which === 'refunded' ? 'refunded' : 'uncaptured'} amounts: ` +
        (unknown
          ? 'rows whose status says refunded are invalid (refund amount unknown), the others are sent as written'
          : 'values are sent without taking them off'),
    );
  }
}

/** The merged mapping reading its datetime with `formats` (a file's decided day/month order), if given. */
function withDatetimeFormats(merged: MergedMapping, formats: string[] | undefined): MergedMapping {
  const field = merged.fields.conversionDatetime;
  if (formats === undefined || field === undefined) return merged;
  return {
    ...merged,
    fields: { ...merged.fields, conversionDatetime: { ...field, spec: { ...field.spec, format: formats } } },
  };
}
