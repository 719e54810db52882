// Day first or month first, decided per file from all its rows before any of them is checked (issue 21):
// a first pass over the file's datetime cells (stdin: its first rows, held), then the formats to read it by.
import type { WrittenMapping } from '../config/schema.js';
import { ConfigError } from '../errors.js';
import type { SourceRow } from '../input/types.js';
import { bindMapping } from '../mapping/compile-mapping.js';
import type { LookupTable } from '../mapping/lookup.js';
import { mergeMapping } from '../mapping/merge-mapping.js';
import { detectJsonPreset, detectPreset } from '../mapping/presets/index.js';
import {
  createDateOrderCounter,
  type DateOrderDecision,
  decideDateOrder,
  swappedFormats,
} from '../record/date-order.js';
import { needsDetection, resolvePreset } from './rows/preset-choice.js';

// A preset's `MM/dd/yyyy` formats meet UK and Australian PayPal downloads written `dd/MM/yyyy`: read cell by
// cell, 05/03 became May 3 and 25/03 an impossible date. A first pass reads the file's datetime cells only
// when its mapping has such a format from a preset (a format the user wrote is taken as written), and stops
// at the first row otherwise. stdin cannot be read twice: its first STDIN_ORDER_ROWS rows are held and
// decide; later rows of the other order are rejected (`impossible date`).

/** Rows of stdin held in memory to decide its date order. */
const STDIN_ORDER_ROWS = 100_000;

interface DateOrderPlan {
  add(row: SourceRow): void;
  decide(): DateOrderDecision;
  swapped: string[];
}

/**
 * What the first data row's file needs: undefined when its datetime formats have no day/month order to
 * decide, or the user wrote them. Free of side effects: the checking pass binds the file again and reports
 * what is wrong with it (no preset, absent columns).
 */
function planFor(
  row: SourceRow,
  mapping: WrittenMapping | undefined,
  lookup: LookupTable | undefined,
): DateOrderPlan | undefined {
  if (row.kind === 'malformed') return undefined;
  const user = mapping?.fields?.conversionDatetime;
  if (typeof user === 'object' && user.format !== undefined) return undefined;
  let preset = resolvePreset(mapping);
  if (needsDetection(mapping)) {
    preset = (row.kind === 'json' ? detectJsonPreset(row.value) : detectPreset(row.source.header ?? []))
      .match;
  }
  if (preset?.dateOrder !== 'per-file') return undefined;
  const merged = mergeMapping(preset, mapping);
  const format = merged.fields.conversionDatetime?.spec.format;
  const given = format === undefined ? [] : Array.isArray(format) ? format : [format];
  const swapped = swappedFormats(given);
  if (swapped === undefined) return undefined;
  let field: ReturnType<typeof bindMapping>['fields']['conversionDatetime'];
  try {
    field = bindMapping(merged, row.source, lookup).fields.conversionDatetime;
  } catch {
    return undefined;
  }
  const get = field.get;
  if (get === undefined) return undefined;
  const counter = createDateOrderCounter(given, swapped);
  return {
    add: (r) => {
      if (r.kind === 'malformed') return;
      const value = get(r);
      counter.add(Array.isArray(value) ? value[0] : value, r.line);
    },
    decide: () => decideDateOrder(counter.tally, given, swapped, row.source.file, field.column),
    swapped,
  };
}

export interface DateOrderOutcome {
  /** The formats to read the file with, when not the mapping's own. */
  formats?: string[];
  /** Said once: the file is read the other way round. */
  note?: string;
  /** Rows read to decide (stdin only): they are checked first. */
  held: SourceRow[];
}

/**
 * Reads rows from `iterator` until the order is decided: to the end of a file, or STDIN_ORDER_ROWS rows
 * held (`hold`). Throws ConfigError when no row tells and some read as two dates: nothing of the run is
 * sent yet. A file that cannot be read (not held) decides nothing here: its checking pass reports it where
 * it did before, after the files ahead of it. Does not close the iterator.
 */
export async function settleDateOrder(
  iterator: AsyncIterator<SourceRow>,
  options: { mapping: WrittenMapping | undefined; lookup: LookupTable | undefined; hold: boolean },
): Promise<DateOrderOutcome> {
  const held: SourceRow[] = [];
  let plan: DateOrderPlan | undefined;
  let planned = false;
  while (!options.hold || held.length < STDIN_ORDER_ROWS) {
    let next: IteratorResult<SourceRow>;
    try {
      next = await iterator.next();
    } catch (error) {
      if (options.hold) throw error;
      return { held };
    }
    if (next.done) break;
    const row = next.value;
    if (options.hold) held.push(row);
    if (!planned && row.kind !== 'malformed') {
      planned = true;
      plan = planFor(row, options.mapping, options.lookup);
      if (plan === undefined) break;
    }
    plan?.add(row);
  }
  const decision = plan?.decide();
  if (decision?.use === 'ask') throw new ConfigError(decision.message, { hint: decision.hint });
  if (decision?.use === 'swapped') return { formats: plan!.swapped, note: decision.note, held };
  return { held };
}

/** What settleDateOrders needs from the run: how to read a file, and where its decisions go. */
export interface DateOrderSteps {
  /** The run's reading of a file (counted: bytes, source info); used for stdin, which is read once. */
  open(file: string): AsyncGenerator<SourceRow>;
  /** A reading of a file for this pass alone. */
  readOnce(file: string): AsyncGenerator<SourceRow>;
  mapping: WrittenMapping | undefined;
  lookup: LookupTable | undefined;
  useFormats(file: string, formats: string[]): void;
  warn(message: string): void;
}

/**
 * Each file's day/month order, decided before any row of the run is checked or sent: a file is read once
 * more for it; stdin's first rows are held. Returns stdin's rows (the held ones, then the rest) by file name.
 */
export async function settleDateOrders(
  files: readonly string[],
  steps: DateOrderSteps,
): Promise<Map<string, AsyncIterable<SourceRow>>> {
  const inputs = new Map<string, AsyncIterable<SourceRow>>();
  for (const file of files) {
    const stdin = file === '-';
    const iterator = stdin ? steps.open(file) : steps.readOnce(file);
    const order = await settleDateOrder(iterator, {
      mapping: steps.mapping,
      lookup: steps.lookup,
      hold: stdin,
    });
    if (!stdin) await iterator.return(undefined);
    if (order.formats) steps.useFormats(file, order.formats);
    if (order.note) steps.warn(order.note);
    if (stdin) inputs.set(file, heldThenRest(order.held, iterator));
  }
  return inputs;
}

/** stdin's rows held to decide its date order, then the rest of it. */
async function* heldThenRest(held: SourceRow[], rest: AsyncIterator<SourceRow>): AsyncGenerator<SourceRow> {
  yield* held;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}
