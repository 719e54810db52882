// Stage: source rows -> checked rows, as a sequence of named steps per row: bind the file (rows/
// file-binding), the platform policy (rows/row-policy), the JS transform, parse the fields (the
// validator), sumBy (rows/sum-groups), then the run's duplicate check on conversionId (without one, the
// record's occurrence in its file: content-counts.ts).
import type { SourceInfo, SourceRow } from '../input/types.js';
import { contentHash } from '../ledger/record-key.js';
import type { BoundMapping } from '../mapping/compile-mapping.js';
import type { ConversionRecord } from '../record/fields.js';
import { ContentCounts } from './content-counts.js';
import { type BindingContext, bindFile } from './rows/file-binding.js';
import { duplicateOf, identicalTo, invalid } from './rows/outcome.js';
import { needsDetection, resolvePreset } from './rows/preset-choice.js';
import { policyOutcome } from './rows/row-policy.js';
import { SumGroups } from './rows/sum-groups.js';
import { transformStep } from './rows/transform.js';
import type { CheckedRow, CheckOptions, FileState, RowOutcome, SkippedRow } from './rows/types.js';
import { SeenIds } from './seen-ids.js';

export { type HeaderMatcher, headerMatcher } from './rows/header-matcher.js';
export { needsDetection, resolvePreset } from './rows/preset-choice.js';
export type { CheckedRow, CheckOptions, RowOutcome, SkippedRow } from './rows/types.js';

/**
 * The row checker. `flush` ends the files read so far: the summed conversions (mapping.sumBy), one
 * outcome each. `drainWarnings` returns (once) what the files read so far deserve a warning for.
 */
export type RowChecker = ((row: SourceRow) => RowOutcome) & {
  drainWarnings(): string[];
  /** Binds a file that had no data rows to its header (detects its preset), throwing what a first row would. */
  bindHeader(source: SourceInfo): void;
  flush(): Array<CheckedRow | SkippedRow>;
  /** Reads `file` with these datetime formats (its day/month order, decided before its rows: date-order.ts). */
  useDateFormats(file: string, formats: string[]): void;
  /** Frees the duplicate check's spilled ids (their temporary file, seen-ids.ts) once the run's rows are checked. */
  close(): void;
  /**
   * What turns `row`'s file's rows into records beside the run's settings (raw-spans.ts): its format, delimiter,
   * header, parameters, preset and date formats, binding the file at its first row. Undefined where a record is
   * not a function of its row alone (a transform, mapping.lookup, sumBy).
   */
  fileKey(row: SourceRow): string | undefined;
  /**
   * Adds the ids of rows counted valid unchecked (a span noted delivered: raw-spans.ts) to the duplicate check: all,
   * or false when one of them was met already. Those added before it are then taken as new once their rows are
   * checked (the span's rows, checked one by one next).
   */
  seeAll(ids: readonly string[]): boolean;
  /** Whether `row` would be folded into the row checked before it (a line item of its order: row-policy.ts). */
  foldsIntoLast(row: SourceRow): boolean;
  /** The file's state as after checking `row` (its fold key), which was counted unchecked (raw-spans.ts). */
  passed(row: SourceRow): void;
};

/**
 * The checking stage as a plain function per row (no async generator per row: on a million rows the
 * promise and microtask of each yield cost more than the checks).
 */
export function createRowChecker(options: CheckOptions): RowChecker {
  const files = new Map<SourceInfo, FileState>();
  const sums = new SumGroups();
  const seen = new RunIds();
  const binding: BindingContext = {
    options,
    configuredPreset: resolvePreset(options.mapping),
    detect: needsDetection(options.mapping),
    dateFormats: new Map(),
  };
  const stateFor = (row: SourceRow): FileState => {
    let state = files.get(row.source);
    if (state === undefined) {
      state = { ...bindFile(row, binding), number: files.size + 1 };
      files.set(row.source, state);
    }
    return state;
  };
  /** Records without a conversionId, by content and file (made at the first such record). */
  let contents: ContentCounts | undefined;
  /**
   * A record ready to send, unless its conversionId was on an earlier valid row of the run. Without one, its
   * occurrence among identical records of its file (its key's, content-counts.ts), unless an earlier file of the
   * run had that occurrence already.
   */
  const accept = (record: ConversionRecord, row: SourceRow, bound: BoundMapping): CheckedRow => {
    const id = record.conversionId;
    const idColumn = bound.fields.conversionId.column;
    if (id !== undefined && id !== '') {
      if (!seen.add(id)) return duplicateOf(row, bound, id, 'on an earlier valid row of this run');
      return { ok: true, record, row, idColumn };
    }
    contents ??= new ContentCounts();
    const digest = contentHash(record);
    const occurrence = contents.add(digest, files.get(row.source)!.number);
    if (occurrence === 0) return identicalTo(row);
    return { ok: true, record, row, idColumn, occurrence, contentHash: digest };
  };

  const check = (row: SourceRow): RowOutcome => {
    if (row.kind === 'malformed') {
      return invalid(row, [
        { column: '(row)', value: row.raw.slice(0, 200), reason: row.reason, message: row.message },
      ]);
    }
    const state = stateFor(row);
    const ruled = policyOutcome(row, state, options.refunds, sums);
    if (ruled !== undefined) return ruled;
    const { bound, validator } = state;
    let candidate = validator.candidate(row);
    if (options.transform) {
      const transformed = transformStep(options.transform, candidate, row);
      if (!('candidate' in transformed)) return transformed;
      candidate = transformed.candidate;
    }
    const checked = validator.check(candidate);
    const summed = bound.sumKey ? sums.take(row, bound, checked, options.allowNegative) : undefined;
    if (summed !== undefined) return summed;
    if (!checked.ok)
      return 'skipped' in checked ? { skipped: checked.skipped, row } : invalid(row, checked.issues);
    return accept(checked.record, row, bound);
  };

  /** Warnings already given: one without a file name (an abbreviation's meaning) is said once per run. */
  const said = new Set<string>();
  const drainWarnings = () =>
    [...files.values()]
      .flatMap((state) => state.validator.drainWarnings())
      .filter((warning) => !said.has(warning) && said.add(warning));
  // A header-only CSV is judged by its header as a file with rows would be: the preset detected (or none
  // matching: exit 2), the mapped columns bound, so "no conversions today" differs from a wrong file.
  const bindHeader = (source: SourceInfo) => {
    if (source.format === 'csv' && source.header) {
      stateFor({ kind: 'csv', source, line: source.headerLine ?? 0, cells: [] });
    }
  };
  const flush = () => sums.flush(accept);
  const useDateFormats = (file: string, formats: string[]) => {
    binding.dateFormats.set(file, formats);
  };
  const close = () => seen.close();
  const spans = spanSteps(files, seen, (row) =>
    options.transform || options.lookup ? undefined : fileKeyOf(row, stateFor(row), binding),
  );
  return Object.assign(check, { drainWarnings, flush, bindHeader, useDateFormats, close, ...spans });
}

/** The checker's steps for spans of rows counted unchecked (raw-spans.ts RawSpanChecker). */
function spanSteps(
  files: Map<SourceInfo, FileState>,
  seen: RunIds,
  fileKey: (row: SourceRow) => string | undefined,
): Pick<RowChecker, 'fileKey' | 'seeAll' | 'foldsIntoLast' | 'passed'> {
  return {
    fileKey,
    seeAll: (ids) => seen.seeAll(ids),
    foldsIntoLast: (row) => {
      const state = files.get(row.source);
      const key = state && foldKeyOf(row, state);
      return key !== undefined && key !== '' && key === state!.lastFoldKey;
    },
    passed: (row) => {
      const state = files.get(row.source);
      if (state?.bound.foldIndex !== undefined && row.kind === 'csv')
        state.lastFoldKey = foldKeyOf(row, state);
    },
  };
}

/** The row's fold key (policyOutcome's), where its file folds line items into their order's row. */
function foldKeyOf(row: SourceRow, state: FileState): string | undefined {
  const index = state.bound.foldIndex;
  return index === undefined || row.kind !== 'csv' ? undefined : row.cells[index]?.trim();
}

/** RowChecker.fileKey of a file bound: undefined where its records are summed over rows (sumBy). */
function fileKeyOf(row: SourceRow, state: FileState, binding: BindingContext): string | undefined {
  if (state.bound.sumKey) return undefined;
  const { format, delimiter, header, parameters, file } = row.source;
  const formats = binding.dateFormats.get(file);
  return JSON.stringify(
    [format, delimiter, header, parameters, state.preset, formats].map((part) => part ?? null),
  );
}

/** The run's duplicate check on conversionId (seen-ids.ts), and the ids of spans counted unchecked (seeAll). */
class RunIds {
  readonly #seen = new SeenIds();
  /** Ids seeAll added for rows not checked yet: each is new once, when its row is (raw-spans.ts). */
  #ahead: Set<string> | undefined;

  /** Adds the id; false when an earlier valid row of the run had it. */
  add(id: string): boolean {
    return this.#seen.add(id) || this.#ahead?.delete(id) === true;
  }

  /** RowChecker.seeAll. */
  seeAll(ids: readonly string[]): boolean {
    this.#ahead = undefined;
    for (let i = 0; i < ids.length; i++) {
      if (this.#seen.add(ids[i]!)) continue;
      this.#ahead = new Set(ids.slice(0, i));
      return false;
    }
    return true;
  }

  close(): void {
    this.#seen.close();
  }
}

/** The checking stage as an async iterable, for callers that want one (init); folded and dropped rows are left out. */
export async function* checkRows(
  rows: AsyncIterable<SourceRow>,
  options: CheckOptions,
): AsyncGenerator<CheckedRow> {
  const check = createRowChecker(options);
  try {
    for await (const row of rows) {
      const outcome = check(row);
      if (outcome !== 'folded' && !('skipped' in outcome)) yield outcome;
    }
    for (const outcome of check.flush()) if (!('skipped' in outcome)) yield outcome;
  } finally {
    check.close();
  }
}
