// Stage: source rows -> checked rows. Binds the mapping to each file (detecting a preset when none is
// configured), folds continuation rows, runs the JS transform, validates, and flags duplicate ids.
import type { WrittenMapping } from '../config/schema.js';
import { ConfigError, NoPresetError, UnlinkableError, WrongReportError } from '../errors.js';
import { previewCells } from '../input/csv.js';
import type { HeaderNearMiss, HeaderTest, SourceInfo, SourceRow } from '../input/types.js';
import { contentHash } from '../ledger/record-key.js';
import { headerIndex, normalizeColumnName } from '../mapping/column-name.js';
import { type BoundMapping, bindMapping, deductionColumns } from '../mapping/compile-mapping.js';
import type { LookupTable } from '../mapping/lookup.js';
import { columnsOf, type MergedMapping, mergeMapping } from '../mapping/merge-mapping.js';
import {
  detectJsonPreset,
  detectPreset,
  findPreset,
  nearMisses,
  unknownPreset,
} from '../mapping/presets/index.js';
import type { Preset } from '../mapping/presets/types.js';
import { quote } from '../quote.js';
import type { ConversionRecord } from '../record/fields.js';
import { exactAmountLimit, fromMinorUnits, toMinorUnits } from '../record/money.js';
import {
  type Candidate,
  carryDeductions,
  createValidator,
  type ValidateOptions,
  type Validator,
} from '../record/validate.js';
import type { Issue, Rejection } from '../report/rejection.js';
import { didYouMean, nearColumns } from '../similar.js';
import { SeenIds } from './seen-ids.js';

export type CheckedRow =
  | {
      ok: true;
      record: ConversionRecord;
      row: SourceRow;
      /** The source column of conversionId, for messages about this record later on. */
      idColumn: string;
    }
  | { ok: false; rejection: Rejection; duplicate: boolean };

export interface CheckOptions extends ValidateOptions {
  mapping: WrittenMapping | undefined;
  transform: ((row: Record<string, unknown>) => unknown) | undefined;
  /** Told once per file which preset was used (named in the output). */
  onPreset?: (file: string, preset: string) => void;
  onWarning?: (message: string) => void;
  /** mapping.lookup's table, opened by the caller (src/pipeline/lookup-table.ts). */
  lookup?: LookupTable;
}

interface FileState {
  bound: BoundMapping;
  validator: Validator;
  lastFoldKey: string | undefined;
}

interface SumGroup {
  bound: BoundMapping;
  members: Array<{ record: ConversionRecord; row: SourceRow }>;
  /** The first row of the key that was invalid: then none of the key's rows is sent. */
  invalidLine: number | undefined;
  firstRow: SourceRow;
  /** conversionIds (when not the key itself) and contents of the members: a repeated row is a duplicate. */
  ids: Set<string>;
  hashes: Set<string>;
}

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
  const merged = mergeMapping(preset, mapping);
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
  const columns = wanted.map((w) => w.written.map((c) => `"${c}"`).join(' or '));
  const expected = [
    ...(columns.length ? [`the columns ${columns.join(', ')}`] : []),
    ...(detect ? ['the columns of a preset (see revimport presets)'] : []),
  ].join(' and ');
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
  const nearMiss = (cells: string[]): HeaderNearMiss | undefined => {
    if (wanted.length === 0) return undefined;
    const missing = missingFrom(cells);
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
  };
  const noHeader = (file: string, firstRow: string[] | undefined) => {
    if (!detect || wanted.length > 0) return undefined;
    const seen =
      firstRow === undefined ? 'every row is blank' : `its first row is: ${previewCells(firstRow)}`;
    return new NoPresetError(file, `${file} matches no preset and no mapping is configured; ${seen}`, {
      hint: NO_MAPPING_HINT,
    });
  };
  return Object.assign(matches, { expected: expected || 'a non-blank row', nearMiss, noHeader });
}

const NO_MAPPING_HINT =
  'set mapping.preset (revimport presets lists them) or mapping.fields (revimport init <file> writes one)';

/** The fields a detected preset would have given: the user's mapping lacks them. */
function unmappedRequired(mapping: WrittenMapping | undefined): string[] {
  const fields = mapping?.fields ?? {};
  return (['conversionValue', 'conversionDatetime'] as const).filter((f) => fields[f] === undefined);
}

/**
 * A `Total` row is a footer; a row after the data shaped like one (eBay's `4,record(s) downloaded`) is
 * when nothing in it fits a conversion: no amount in the value column, no datetime, no e-mail, no visitor
 * id (its count may sit in the id column, a time in the e-mail column). Otherwise it is data.
 */
function isFooter(footer: 'label' | 'trailer', candidate: Candidate): boolean {
  if (footer === 'label') return true;
  const { conversionValue: value, conversionEmail: email } = candidate;
  const fitsValue = typeof value === 'number' || (typeof value === 'string' && /\d/.test(value));
  const fitsEmail = typeof email === 'string' && email.includes('@');
  return (
    !fitsValue &&
    !fitsEmail &&
    candidate.conversionDatetime === undefined &&
    candidate.serviceId === undefined
  );
}

/** A row that is not revenue, on purpose: a skip or keep rule, refunded in full, the transform's null. */
export interface SkippedRow {
  skipped: string;
  row: SourceRow;
}

/** What one row became: a record, a rejection, `folded` into the row above, or skipped with a reason. */
export type RowOutcome = CheckedRow | 'folded' | SkippedRow;

/**
 * The checking stage as a plain function per row (no async generator per row: on a million rows the
 * promise and microtask of each yield cost more than the checks).
 */
export function createRowChecker(options: CheckOptions): RowChecker {
  const files = new Map<SourceInfo, FileState>();
  /** mapping.sumBy: each key's rows in the whole run, in order of first appearance (across files). */
  const groups = new Map<string, SumGroup>();
  const seen = new SeenIds();
  const configuredPreset = resolvePreset(options.mapping);
  const detect = needsDetection(options.mapping);
  /** Files read in the other day/month order than their preset's formats (date-order.ts decided). */
  const dateFormats = new Map<string, string[]>();

  const stateFor = (row: SourceRow): FileState => {
    let state = files.get(row.source);
    if (state) return state;
    let preset = configuredPreset;
    if (detect) {
      const found = row.kind === 'json' ? detectJsonPreset(row.value) : detectPreset(row.source.header ?? []);
      if (!found.match) throw undetected(row, found.candidates);
      preset = found.match;
    }
    // A lookalike is told by a row's cells: a header alone (bindHeader) cannot tell.
    if (preset?.refuse && row.kind === 'csv' && row.cells.length > 0) refuseLookalike(preset, row);
    if (preset) options.onPreset?.(row.source.file, preset.name);
    const merged = withDatetimeFormats(
      mergeMapping(preset, options.mapping),
      dateFormats.get(row.source.file),
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
    for (const which of ['refunded', 'unpaid'] as const) {
      const deduction = merged[which];
      if (deduction === undefined || bound[which] !== undefined || row.kind !== 'csv') continue;
      // A preset's refunds (or outstanding) column the file lacks: values go out as written; say so once.
      const column = deductionColumns(deduction).join('" or "');
      const unknown = which === 'refunded' && bound.refundUnknown !== undefined;
      options.onWarning?.(
        `${row.source.file}: no column "${column}" for ${which === 'refunded' ? 'refunded' : 'uncaptured'} amounts: ` +
          (unknown
            ? 'rows whose status says refunded are invalid (refund amount unknown), the others are sent as written'
            : 'values are sent without taking them off'),
      );
    }
    state = { bound, validator, lastFoldKey: undefined };
    files.set(row.source, state);
    return state;
  };

  const check = (row: SourceRow): RowOutcome => {
    if (row.kind === 'malformed') {
      return invalid(row, [
        { column: '(row)', value: row.raw.slice(0, 200), reason: row.reason, message: row.message },
      ]);
    }
    const state = stateFor(row);
    const { bound, validator } = state;
    if (bound.foldIndex !== undefined && row.kind === 'csv') {
      // Shopify writes one row per line item; the order's own fields are on its first row only.
      const key = row.cells[bound.foldIndex]?.trim();
      if (key && key === state.lastFoldKey) return 'folded';
      state.lastFoldKey = key;
    }
    if (row.kind === 'csv' && row.footer !== undefined && isFooter(row.footer, validator.candidate(row))) {
      return { skipped: 'footer', row };
    }
    const ruled = bound.skipReason?.(row);
    if (ruled !== undefined) return { skipped: ruled, row };
    const unknown = options.refunds === 'gross' ? undefined : bound.refundUnknown?.(row);
    if (unknown !== undefined) return invalid(row, [{ ...unknown, reason: 'refund amount unknown' }]);
    const miss = bound.lookupMiss?.(row);
    if (miss !== undefined) {
      if (bound.sumKey) {
        // One member without its lookup row: the sum is not sent short of its fields.
        const key = bound.sumKey(row);
        if (key !== undefined) groupFor(key, row, bound).invalidLine ??= row.line;
      }
      return invalid(row, [{ ...miss, reason: 'not in lookup file' }]);
    }
    let candidate = validator.candidate(row);
    if (options.transform) {
      const result = applyTransform(options.transform, candidate, row);
      if (result === null) return { skipped: 'transform returned null', row };
      if ('error' in result) {
        return invalid(row, [
          { column: '(transform)', value: '', reason: 'transform failed', message: result.error },
        ]);
      }
      candidate = carryDeductions(candidate, result.candidate);
    }
    const checked = validator.check(candidate);
    if (bound.sumKey) {
      const sumKey = bound.sumKey(row);
      if (sumKey !== undefined && (checked.ok || 'issues' in checked)) {
        const group = groupFor(sumKey, row, bound);
        if (!checked.ok) {
          group.invalidLine ??= row.line;
          return invalid(row, checked.issues);
        }
        const repeated = repeatedMember(group, sumKey, checked.record);
        if (repeated !== undefined)
          return duplicateOf(row, bound, repeated, 'on an earlier row summed with it');
        group.members.push({ record: checked.record, row });
        return 'folded';
      }
      // A row without a key is a conversion of its own: the run's allowNegative applies to it again.
      if (checked.ok && checked.record.conversionValue < 0 && !options.allowNegative) {
        return invalid(row, [
          {
            column: bound.fields.conversionValue.column,
            value: String(checked.record.conversionValue),
            reason: 'negative value',
            message: `negative value ${checked.record.conversionValue} with no sumBy key to sum it with: refunds are not imported unless allowNegative is set`,
          },
        ]);
      }
    }
    if (!checked.ok)
      return 'skipped' in checked ? { skipped: checked.skipped, row } : invalid(row, checked.issues);
    return accept(checked.record, row, bound);
  };

  const groupFor = (key: string, row: SourceRow, bound: BoundMapping): SumGroup => {
    let group = groups.get(key);
    if (!group) {
      group = {
        bound,
        members: [],
        invalidLine: undefined,
        firstRow: row,
        ids: new Set(),
        hashes: new Set(),
      };
      groups.set(key, group);
    }
    return group;
  };

  /** A member repeating an earlier one of its key: the same conversionId (when that is not the key), or the same content. */
  const repeatedMember = (group: SumGroup, key: string, record: ConversionRecord): string | undefined => {
    const id = record.conversionId;
    if (id !== undefined && id !== key) {
      if (group.ids.has(id)) return id;
      group.ids.add(id);
      return undefined;
    }
    const hash = contentHash(record);
    if (group.hashes.has(hash)) return id ?? key;
    group.hashes.add(hash);
    return undefined;
  };

  const duplicateOf = (row: SourceRow, bound: BoundMapping, id: string, where: string) => ({
    ...invalid(row, [
      {
        column: bound.fields.conversionId.column,
        value: id,
        reason: 'duplicate',
        message: `conversionId ${quote(id)} is already ${where}`,
      },
    ]),
    duplicate: true,
  });

  /** A record ready to send, unless its conversionId was on an earlier valid row of the run. */
  const accept = (record: ConversionRecord, row: SourceRow, bound: BoundMapping): CheckedRow => {
    const id = record.conversionId;
    if (id !== undefined && !seen.add(id))
      return duplicateOf(row, bound, id, 'on an earlier valid row of this run');
    return { ok: true, record, row, idColumn: bound.fields.conversionId.column };
  };

  /** The summed conversions of the run so far (mapping.sumBy), one outcome per key; then forgotten. */
  const flush = (): Array<CheckedRow | SkippedRow> => {
    const out: Array<CheckedRow | SkippedRow> = [];
    for (const [key, group] of groups) {
      // A key whose rows all failed: they were reported one by one already.
      if (group.members.length > 0) out.push(sumGroup(key, group, group.bound));
    }
    groups.clear();
    return out;
  };

  const sumGroup = (key: string, group: SumGroup, bound: BoundMapping): CheckedRow | SkippedRow => {
    const where = quote(key);
    if (group.invalidLine !== undefined) {
      // The invalid row is reported (and counted) itself; the others are held back, not sent short.
      return { skipped: 'summed with an invalid row', row: group.firstRow };
    }
    const currencies = new Set(group.members.map((m) => m.record.conversionCurrency));
    if (currencies.size > 1) {
      return invalid(group.firstRow, [
        {
          column: '(sumBy)',
          value: key,
          reason: 'currency mismatch',
          message: `the rows of ${where} are one conversion but in several currencies (${[...currencies].join(', ')})`,
        },
      ]);
    }
    const currency = group.members[0]!.record.conversionCurrency;
    let sum = 0;
    let first: (typeof group.members)[number] | undefined;
    for (const member of group.members) {
      const value = member.record.conversionValue;
      sum += toMinorUnits(value, currency);
      // Dated at the first capture: the earliest row that took money in.
      if (
        value > 0 &&
        (first === undefined || member.record.conversionDatetime < first.record.conversionDatetime)
      ) {
        first = member;
      }
    }
    // Each row's amount is exact; their sum past 2^53 minor units would be sent inexact (issue 24).
    if (!Number.isSafeInteger(sum)) {
      return invalid(group.firstRow, [
        {
          column: '(sumBy)',
          value: key,
          reason: 'amount too large',
          message: `the rows of ${where} sum to more than ${currency} ${exactAmountLimit(currency)}, past what is exact in minor units`,
        },
      ]);
    }
    if (first === undefined) {
      if (sum < 0) return { skipped: 'refund without its original in the file', row: group.firstRow };
      first = group.members[0]!;
    }
    if (sum < 0 || (sum === 0 && group.members.some((m) => m.record.conversionValue < 0))) {
      return { skipped: 'refunded in full', row: first.row };
    }
    return accept({ ...first.record, conversionValue: fromMinorUnits(sum, currency) }, first.row, bound);
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
  const useDateFormats = (file: string, formats: string[]) => {
    dateFormats.set(file, formats);
  };
  return Object.assign(check, { drainWarnings, flush, bindHeader, useDateFormats });
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
};

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

/**
 * A value or datetime whose column the file does not have (a preset's `Day` in a week-segmented report):
 * every row would be rejected as "the cell is empty", so the run stops once, naming the column and the
 * header's near matches. A default (mapping.defaults) fills the field instead and is no error.
 */
function refuseAbsentColumns(bound: BoundMapping, preset: Preset | undefined): void {
  if (bound.source.format !== 'csv') return;
  const header = bound.source.header ?? [];
  for (const field of ['conversionValue', 'conversionDatetime'] as const) {
    const f = bound.fields[field];
    if (f.get !== undefined || f.constant !== undefined || f.fallback !== undefined) continue;
    if (f.column === field) {
      throw new ConfigError(`${bound.source.file}: the mapping gives no column for ${field}`, {
        hint: `map it: mapping.fields.${field}: "<column>"`,
      });
    }
    const spec = f.spec;
    const written = spec.columns ?? (spec.column === undefined ? [f.column] : [spec.column].flat());
    const near = [...new Set(written.flatMap((c) => nearColumns(c, header)))].slice(0, 3);
    const who = preset
      ? ` (the ${preset.name} preset reads ${field} from ${written.map((c) => `"${c}"`).join(' or ')})`
      : '';
    throw new ConfigError(
      `${bound.source.file}: no column ${written[0]} in this file for ${field}${who}` +
        (near.length > 0 ? `; ${didYouMean(near)}` : ''),
      {
        hint:
          `map it to a column of this file: mapping.fields.${field}: "<column>" ` +
          `(the header, line ${bound.source.headerLine ?? 1}, has: ${previewCells(header)})`,
      },
    );
  }
}

/**
 * A file in which nothing can link a conversion to a visitor (no visitor id, no e-mail: Etsy Sold Orders,
 * Shopify Payments, AWIN) would have every row rejected: the run stops at once, before anything is sent,
 * saying what is missing and how to supply it.
 */
function refuseUnlinkable(bound: BoundMapping, preset: Preset | undefined): void {
  const links = [bound.fields.serviceId, bound.fields.conversionEmail];
  if (links.some((f) => f.get !== undefined || f.constant !== undefined || f.fallback !== undefined)) return;
  const file = bound.source.file;
  const what = preset ? `a ${preset.title}` : 'this file';
  throw new UnlinkableError(
    `${file}: no conversion in it can be attributed: ${what} has no customer e-mail or visitor id column ` +
      `(looked for ${bound.fields.conversionEmail.column} and ${bound.fields.serviceId.column})`,
    {
      hint:
        'map mapping.fields.serviceId or mapping.fields.conversionEmail to a column holding it, or take it from ' +
        'another export by a shared key: mapping.lookup: { file: orders.csv, key: <column here>, match: <column ' +
        'there> } and mapping.fields.conversionEmail: { lookup: Email } (README: "Fields from a second file")',
    },
  );
}

/** A file that looks like the preset's export but is another one (abandoned checkouts for orders): refused. */
function refuseLookalike(preset: Preset, row: SourceRow & { kind: 'csv' }): void {
  const header = row.source.header ?? [];
  const index = headerIndex(header);
  const cell = (name: string) => {
    const i = index.get(normalizeColumnName(name));
    return i === undefined ? undefined : row.cells[i]?.trim();
  };
  const reason = preset.refuse?.(cell);
  if (reason !== undefined) {
    throw new WrongReportError(`${row.source.file} is not a ${preset.title}: ${reason}`, {
      hint: 'nothing was sent; export the right report and run again',
    });
  }
}

/** The checking stage as an async iterable, for callers that want one (init); folded and dropped rows are left out. */
export async function* checkRows(
  rows: AsyncIterable<SourceRow>,
  options: CheckOptions,
): AsyncGenerator<CheckedRow> {
  const check = createRowChecker(options);
  for await (const row of rows) {
    const outcome = check(row);
    if (outcome !== 'folded' && !('skipped' in outcome)) yield outcome;
  }
  for (const outcome of check.flush()) if (!('skipped' in outcome)) yield outcome;
}

function invalid(row: SourceRow, issues: Issue[]): { ok: false; rejection: Rejection; duplicate: boolean } {
  return {
    ok: false,
    duplicate: false,
    rejection: { file: row.source.file, line: row.line, stage: 'invalid', issues, row },
  };
}

/** The user's transform gets the mapped fields plus `$row` (source columns); null/false drops the row. */
function applyTransform(
  transform: (row: Record<string, unknown>) => unknown,
  candidate: Candidate,
  row: SourceRow,
): { candidate: Candidate } | { error: string } | null {
  const input: Record<string, unknown> = { ...candidate, $row: sourceObject(row) };
  let output: unknown;
  try {
    output = transform(input);
  } catch (error) {
    return { error: `transform threw: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (output === null || output === false) return null;
  if (output === undefined) output = input;
  if (typeof output !== 'object') return { error: 'transform must return an object, null or nothing' };
  const { $row: _ignored, ...fields } = output as Record<string, unknown>;
  return { candidate: fields as Candidate };
}

function sourceObject(row: SourceRow): Record<string, unknown> {
  if (row.kind === 'json') return row.value;
  if (row.kind !== 'csv') return {};
  const out: Record<string, unknown> = {};
  (row.source.header ?? []).forEach((name, i) => {
    out[name] = row.cells[i];
  });
  return out;
}
