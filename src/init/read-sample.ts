// Reads the first rows of a sample export for init: with the presets' header search first (a preset names its
// columns), else with the plain header guess (input/header-guess.ts), past a short preamble row.
import { ConfigError } from '../errors.js';
import { looksLikeHeader } from '../input/header-guess.js';
import { readRows } from '../input/read-rows.js';
import type { SourceRow } from '../input/types.js';
import { detectJsonPreset, detectPreset } from '../mapping/presets/index.js';
import type { Preset } from '../mapping/presets/types.js';
import { headerMatcher } from '../pipeline/checked-rows.js';

/** How many rows init reads: enough to see each column's cells, few enough to be quick on any file. */
const SAMPLE_ROWS = 200;

/** The sample rows of `file` (shown as `display`), and the preset they match when presets are asked for. */
export async function readSample(
  file: string,
  display: string,
  usePresets: boolean,
): Promise<{ rows: SourceRow[]; preset: Preset | undefined }> {
  const preset = usePresets ? await presetRows(file, display) : undefined;
  if (preset) return preset;
  return { rows: await guessedHeaderRows(file, display), preset: undefined };
}

/** The rows read with the presets' header search, when their first row matches a preset. */
async function presetRows(file: string, display: string) {
  const rows = await sampleRows(file, display, headerMatcher(undefined)).catch((error: unknown) => {
    if (error instanceof ConfigError) return undefined;
    throw error;
  });
  const first = rows?.find((r) => r.kind !== 'malformed') ?? rows?.[0];
  if (!rows || !first) return undefined;
  const found =
    first.kind === 'json' ? detectJsonPreset(first.value) : detectPreset(first.source.header ?? []);
  return found.match ? { rows, preset: found.match } : undefined;
}

/** The same header search as push's, for a file no preset describes: the first row of column names. */
async function guessedHeaderRows(file: string, display: string): Promise<SourceRow[]> {
  const rows = await sampleRows(file, display, looksLikeHeader);
  // A short preamble row (`Orders report,Shop: Example`) also reads as names: when the rows below are
  // wider than it, the header is the first row about as wide as they are.
  const width = typicalWidth(rows);
  const named = (cells: readonly string[]) => cells.filter((c) => c.trim() !== '').length;
  if (named(rows[0]?.source.header ?? []) >= width * 0.8) return rows;
  return sampleRows(file, display, (cells) => looksLikeHeader(cells) && named(cells) >= width * 0.8);
}

/** The most common number of cells of the sample's CSV rows (0 for JSON lines). */
function typicalWidth(rows: readonly SourceRow[]): number {
  const counts = new Map<number, number>();
  for (const row of rows.slice(0, 50)) {
    if (row.kind === 'csv') counts.set(row.cells.length, (counts.get(row.cells.length) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [width, count] of counts) {
    if (count > bestCount) {
      best = width;
      bestCount = count;
    }
  }
  return best;
}

async function sampleRows(
  file: string,
  display: string,
  isHeader: ((cells: string[]) => boolean) | undefined,
): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for await (const row of readRows(file, { isHeader })) {
    row.source.file = display;
    rows.push(row);
    if (rows.length >= SAMPLE_ROWS) break;
  }
  return rows;
}
