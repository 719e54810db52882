// Which preset reads a file: the one the mapping names, or (when the mapping cannot stand alone) the one
// its header or first JSON line matches; and the error naming the candidates when none or several do.
import type { WrittenMapping } from '../../config/schema.js';
import { ConfigError, NoPresetError } from '../../errors.js';
import type { SourceRow } from '../../input/types.js';
import {
  detectJsonPreset,
  detectPreset,
  findPreset,
  nearMisses,
  unknownPreset,
} from '../../mapping/presets/index.js';
import type { Preset } from '../../mapping/presets/types.js';

export const NO_MAPPING_HINT =
  'set mapping.preset (revimport presets lists them) or mapping.fields (revimport init <file> writes one)';

export function resolvePreset(mapping: WrittenMapping | undefined): Preset | undefined {
  if (!mapping?.preset) return undefined;
  const preset = findPreset(mapping.preset);
  if (!preset) {
    const { message, hint } = unknownPreset(mapping.preset);
    throw new ConfigError(message, { hint });
  }
  return preset;
}

/**
 * True when the user's mapping cannot stand alone: no preset named and no value or datetime mapped. Then
 * each file's header picks a preset and the user's fields (e.g. only serviceId) override it.
 */
export function needsDetection(mapping: WrittenMapping | undefined): boolean {
  if (mapping?.preset) return false;
  const fields = mapping?.fields ?? {};
  return fields.conversionValue === undefined || fields.conversionDatetime === undefined;
}

/** The preset of the file `row` opens: the configured one, or the one detected from it (else an error). */
export function presetFor(
  row: SourceRow,
  configured: Preset | undefined,
  detect: boolean,
): Preset | undefined {
  if (!detect) return configured;
  const found = row.kind === 'json' ? detectJsonPreset(row.value) : detectPreset(row.source.header ?? []);
  if (!found.match) throw undetected(row, found.candidates);
  return found.match;
}

/** No preset, or several equally: an error listing the candidates, and the near misses with what they lack. */
function undetected(row: SourceRow, tied: Preset[]): NoPresetError {
  const file = row.source.file;
  if (tied.length > 1) {
    return new NoPresetError(
      file,
      `${file} matches several presets equally: ${tied.map((p) => p.name).join(', ')}`,
      { hint: `name the right one: ${NO_MAPPING_HINT}` },
    );
  }
  const near = nearMisses(row.kind === 'json' ? row.value : (row.source.header ?? []));
  if (near.length === 0) {
    return new NoPresetError(file, `${file} matches no preset and no mapping is configured`, {
      hint: NO_MAPPING_HINT,
    });
  }
  const list = near
    .map((m) => `${m.preset.name} (no ${m.missing.map((c) => `"${c}"`).join(', ')})`)
    .join('; ');
  return new NoPresetError(file, `${file} matches no preset exactly; nearly: ${list}`, {
    hint: `a re-saved or edited export may have lost or renamed a column: ${NO_MAPPING_HINT}`,
  });
}
