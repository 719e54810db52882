// Which CSV row is the header: the first holding the columns the mapping reads (and, when the preset is
// to be detected, a preset's). Also what the error says when no row is: the nearest row and what it lacks.
import type { WrittenMapping } from '../../config/schema.js';
import { NoPresetError } from '../../errors.js';
import { normalizeColumnName } from '../../input/column-name.js';
import { previewCells } from '../../input/csv.js';
import type { HeaderNearMiss, HeaderTest } from '../../input/types.js';
import { columnsOf, type MergedMapping, mergeMapping } from '../../mapping/merge-mapping.js';
import { detectPreset, nearMisses } from '../../mapping/presets/index.js';
import type { Preset } from '../../mapping/presets/types.js';
import { didYouMean, nearColumns } from '../../similar.js';
import { NO_MAPPING_HINT, needsDetection, resolvePreset } from './preset-choice.js';

/** Which CSV row is the header: the first holding the mapped column names (and, when detecting, a preset's). */
export interface HeaderMatcher extends HeaderTest {
  /** The columns it looks for, in words, for the error when no row matches. */
  expected: string;
  nearMiss: NonNullable<HeaderTest['nearMiss']>;
  noHeader: NonNullable<HeaderTest['noHeader']>;
}

/** One column the header must hold: its alternatives as written and normalized, and who wants it. */
interface WantedColumn {
  written: string[];
  normalized: string[];
  /** `conversionValue`, `joined into conversionDatetime`, `the shopify preset`. */
  role: string;
}

export function headerMatcher(mapping: WrittenMapping | undefined): HeaderMatcher {
  const detect = needsDetection(mapping);
  const preset = resolvePreset(mapping);
  const wanted = wantedColumns(mergeMapping(preset, mapping), preset);
  const missingFrom = (cells: string[]) => {
    const names = new Set(cells.map(normalizeColumnName));
    return wanted.filter((w) => !w.normalized.some((c) => names.has(c)));
  };
  const detected = (cells: string[]) =>
    // A near miss is the header too: the checker then names the preset and the columns it lacks.
    detectPreset(cells).candidates.length > 0 || nearMisses(cells).length > 0;
  const matches = (cells: string[]) => {
    if (wanted.length === 0 && !detect) return cells.some((c) => c.trim() !== '');
    if (missingFrom(cells).length > 0) return false;
    return !detect || detected(cells);
  };
  const nearMiss = (cells: string[]): HeaderNearMiss | undefined =>
    wanted.length === 0 ? undefined : nearMissOf(wanted, missingFrom(cells), cells, mapping);
  const noHeader = (file: string, firstRow: string[] | undefined) => {
    if (!detect || wanted.length > 0) return undefined;
    const seen =
      firstRow === undefined ? 'every row is blank' : `its first row is: ${previewCells(firstRow)}`;
    return new NoPresetError(file, `${file} matches no preset and no mapping is configured; ${seen}`, {
      hint: NO_MAPPING_HINT,
    });
  };
  const expected = expectedColumns(wanted, detect);
  return Object.assign(matches, { expected: expected || 'a non-blank row', nearMiss, noHeader });
}

/** The columns the user's fields read (each alternative list once, each joined column alone) and the preset's. */
function wantedColumns(merged: MergedMapping, preset: Preset | undefined): WantedColumn[] {
  const wanted: WantedColumn[] = [];
  const want = (written: string[], role: string) =>
    wanted.push({ written, normalized: written.map(normalizeColumnName), role });
  for (const [field, spec] of Object.entries(merged.fields)) {
    if (spec?.origin === 'user' && spec.spec.value === undefined) {
      const columns = columnsOf(spec);
      if (columns.length > 0) want(columns, `mapped to ${field}`);
      for (const column of spec.bare === undefined ? (spec.spec.columns ?? []) : [])
        want([column], `joined into ${field}`);
    }
  }
  for (const column of preset?.detect.all ?? []) want([column], `read by the ${preset!.name} preset`);
  return wanted;
}

function expectedColumns(wanted: WantedColumn[], detect: boolean): string {
  const columns = wanted.map((w) => w.written.map((c) => `"${c}"`).join(' or '));
  return [
    ...(columns.length ? [`the columns ${columns.join(', ')}`] : []),
    ...(detect ? ['the columns of a preset (see revimport presets)'] : []),
  ].join(' and ');
}

/** How near `cells` come to the header: how many wanted columns they hold, and what they lack in words. */
function nearMissOf(
  wanted: WantedColumn[],
  missing: WantedColumn[],
  cells: string[],
  mapping: WrittenMapping | undefined,
): HeaderNearMiss {
  const held = wanted.length - missing.length;
  if (missing.length === 0) {
    // Every mapped column is there, but the mapping needs a preset for the rest and none matches.
    return {
      held,
      wanted: wanted.length,
      problem: `matches no preset, and the mapping does not give ${unmappedRequired(mapping).join(' or ')}`,
    };
  }
  const problem = missing
    .map((w) => {
      const near = [...new Set(w.written.flatMap((c) => nearColumns(c, cells)))].slice(0, 3);
      const suggestion = near.length > 0 ? `; ${didYouMean(near)}` : '';
      return `no column ${w.written.map((c) => `"${c}"`).join(' or ')} (${w.role}${suggestion})`;
    })
    .join(' and ');
  return { held, wanted: wanted.length, problem: `has ${problem}`, lacks: problem };
}

/** The fields a detected preset would have given: the user's mapping lacks them. */
function unmappedRequired(mapping: WrittenMapping | undefined): string[] {
  const fields = mapping?.fields ?? {};
  return (['conversionValue', 'conversionDatetime'] as const).filter((f) => fields[f] === undefined);
}
