// The checking of a run: mapping.lookup's table opened before the inputs, and one row checker for the
// whole run (a conversionId repeated in a later file is a duplicate too), its warnings into the tally.
import type { Settings } from '../config/settings.js';
import { createRowChecker, type RowChecker } from './checked-rows.js';
import { type OpenedLookup, openLookup } from './lookup-table.js';
import type { RunTally } from './run-tally.js';

/** mapping.lookup's table, undefined when the mapping has none; keys met again with other cells are warned of. */
export async function openRunLookup(
  settings: Pick<Settings, 'mapping' | 'lookupPath' | 'limits'>,
  signal: AbortSignal | undefined,
  warn: (message: string) => void,
): Promise<OpenedLookup | undefined> {
  const lookup = await openLookup(settings.mapping, {
    // The lookup file's encoding is detected on its own: the inputs' --encoding is not its.
    path: settings.lookupPath,
    signal,
    maxFieldBytes: settings.limits.maxRowBytes,
    maxGzipRatio: settings.limits.maxGzipRatio,
  });
  if (lookup && lookup.conflicts > 0) {
    const message =
      `${lookup.file}: ${lookup.conflicts} key(s) of mapping.lookup appear again with other values; ` +
      'the first row of each is used';
    warn(message);
  }
  return lookup;
}

type CheckSettings = Pick<
  Settings,
  'mapping' | 'transform' | 'timezone' | 'currency' | 'allowNegative' | 'refunds' | 'earliestMs' | 'futureMs'
>;

/** The run's row checker; instants later than `futureMs` after the wall clock now are implausible. */
export function createRunChecker(
  settings: CheckSettings,
  lookup: OpenedLookup | undefined,
  wallClock: (() => number) | undefined,
  tally: Pick<RunTally, 'warn' | 'notePreset'>,
): RowChecker {
  return createRowChecker({
    mapping: settings.mapping,
    lookup,
    transform: settings.transform,
    timezone: settings.timezone,
    currency: settings.currency,
    allowNegative: settings.allowNegative,
    refunds: settings.refunds,
    onWarning: tally.warn,
    earliestMs: settings.earliestMs,
    latestMs: (wallClock ?? Date.now)() + settings.futureMs,
    onPreset: tally.notePreset,
  });
}
