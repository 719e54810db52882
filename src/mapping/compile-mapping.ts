// Binds a merged mapping to one input file: CSV columns become indexes into the row's cells (found once
// from the header), JSON paths become property walks, so the per-row work is a lookup, not a search.
import type { Deduction, KeepRule } from '../config/schema.js';
import { ColumnMismatchError, ConfigError } from '../errors.js';
import type { SourceInfo, SourceRow } from '../input/types.js';
import { quote } from '../quote.js';
import { type RecordField, recordFields } from '../record/fields.js';
import { maskEmail } from '../report/rejection.js';
import { headerIndex, normalizeColumnName } from './column-name.js';
import type { LookupTable } from './lookup.js';
import { columnsOf, type MergedField, type MergedMapping, pathsOf } from './merge-mapping.js';
import { ruleSource, type SourceGetter, sourceGetter, type ValueGetter } from './source-getter.js';

export type { ValueGetter } from './source-getter.js';

export interface BoundField {
  field: RecordField;
  /** What the user knows this field as: the source header as written, the JSON path, or `(constant)`. */
  column: string;
  get: ValueGetter | undefined;
  constant: string | number | undefined;
  fallback: string | number | undefined;
  spec: MergedField['spec'];
}

export interface BoundMapping {
  source: SourceInfo;
  presetName: string | undefined;
  fields: Record<RecordField, BoundField>;
  /** Index of the fold column (CSV), if the mapping folds continuation rows. */
  foldIndex: number | undefined;
  /** The file's own zone, from a `Parameters:TimeZone=` row. */
  fileZone: string | undefined;
  /** Why a skip or keep rule leaves the row out (`Financial Status: pending`), or undefined to keep it. */
  skipReason: ((row: SourceRow) => string | undefined) | undefined;
  /** Amounts taken off the value: refunded (under refunds: net) and not captured. */
  refunded: BoundDeduction | undefined;
  unpaid: BoundDeduction | undefined;
  /** The key rows are summed by (mapping.sumBy), per row the first non-empty alternative; undefined: no summing. */
  sumKey: ((row: SourceRow) => string | undefined) | undefined;
  /** refunded.ifAbsent: why the row's refund is unknown (the file lacks the refunded column), or undefined. */
  refundUnknown:
    | ((row: SourceRow) => { column: string; value: string; message: string } | undefined)
    | undefined;
  /** mapping.lookup: why the row's key found no row of the lookup file, or undefined when it did. */
  lookupMiss: ((row: SourceRow) => LookupMiss | undefined) | undefined;
}

export interface LookupMiss {
  /** The key column (or path) of this file, as written. */
  column: string;
  value: string;
  message: string;
}

export interface BoundDeduction {
  column: string;
  get: ValueGetter;
  decimal: '.' | ',' | undefined;
  unit: 'major' | 'minor' | undefined;
  /** The value's multiplier (micros), unless the deduction gives its own. */
  scale: number | undefined;
  /** The cell is the amount left after refunds (0 or empty: none recorded), not the amount refunded. */
  remaining: boolean;
}

export function bindMapping(merged: MergedMapping, source: SourceInfo, lookup?: LookupTable): BoundMapping {
  const header = source.header ?? [];
  const index = headerIndex(header);
  const found = lookup ? bindLookup(merged, source, index, lookup) : undefined;

  const fields = {} as Record<RecordField, BoundField>;
  for (const field of recordFields) {
    const spec = merged.fields[field];
    const bound: BoundField = {
      field,
      column: field,
      get: undefined,
      constant: spec?.spec.value,
      fallback: merged.defaults[field],
      spec: spec?.spec ?? {},
    };
    if (spec && spec.spec.value !== undefined) bound.column = '(constant)';
    else if (spec && spec.spec.lookup !== undefined && found) {
      const i = found.table.columns.indexOf(spec.spec.lookup);
      bound.column = `${spec.spec.lookup} (${found.table.file})`;
      bound.get = (row) => found.hit(row)?.[i] ?? undefined;
    } else if (spec && source.format === 'csv') bindColumn(bound, spec, index, header, source);
    else if (spec) bindPath(bound, spec, index, source);
    const blank = spec?.spec.blank;
    const get = bound.get;
    if (blank && get) {
      const empty = new Set(blank.map((v) => v.trim().toLowerCase()));
      bound.get = (row) => {
        const value = get(row);
        return typeof value === 'string' && empty.has(value.trim().toLowerCase()) ? undefined : value;
      };
    }
    fields[field] = bound;
  }
  checkSharedColumns(merged, source, index);

  // Rules first: a missing keep column is the error to report before a missing refunds column.
  const skipReason = bindRowRules(merged, source, index);
  const refunded = bindDeduction('refunded', merged, source, index);
  let foldIndex: number | undefined;
  if (merged.foldBy !== undefined && source.format === 'csv') {
    const columns = Array.isArray(merged.foldBy) ? merged.foldBy : [merged.foldBy];
    foldIndex = columns.map((column) => index.get(normalizeColumnName(column))).find((i) => i !== undefined);
  }
  return {
    source,
    presetName: merged.preset?.name,
    fields,
    foldIndex,
    fileZone: parameterValue(source.parameters, 'timezone'),
    skipReason,
    refunded,
    refundUnknown: bindRefundUnknown(merged, source, index, refunded),
    unpaid: bindDeduction('unpaid', merged, source, index),
    sumKey: bindSumKey(merged, source, index),
    lookupMiss: found?.miss,
  };
}

/**
 * The row of the lookup file each input row's key leads to (memoized for the row: several fields ask),
 * and the miss: keys empty, or not found in any match column.
 */
function bindLookup(
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
  table: LookupTable,
): {
  table: LookupTable;
  hit: (row: SourceRow) => (string | undefined)[] | undefined;
  miss: BoundMapping['lookupMiss'];
} {
  const keys = merged.lookupKeys ?? [];
  const getters = keys.map((key) => {
    const getter = sourceGetter([key], source, index, 'first');
    if (!getter) missingRuleColumn('mapping.lookup.key', { column: key }, source);
    return getter;
  });
  let lastRow: SourceRow | undefined;
  let lastHit: (string | undefined)[] | undefined;
  const hit = (row: SourceRow) => {
    if (row === lastRow) return lastHit;
    lastRow = row;
    lastHit = undefined;
    for (let m = 0; m < getters.length && lastHit === undefined; m++) {
      const text = getters[m] ? cellText(getters[m]!.get(row)) : '';
      if (text !== '') lastHit = table.get(m, text);
    }
    return lastHit;
  };
  const miss = (row: SourceRow): LookupMiss | undefined => {
    if (hit(row) !== undefined) return undefined;
    const used = getters
      .map((getter, m) => ({ getter, m, text: getter ? cellText(getter.get(row)) : '' }))
      .filter((k) => k.text !== '');
    const where = keys.map((key, m) => `${key} -> ${table.match[m]}`).join(', ');
    if (used.length === 0) {
      return {
        column: getters[0]?.name ?? keys[0] ?? '(lookup)',
        value: '',
        message: `no key to look up in ${table.file} (${where}): the key is empty`,
      };
    }
    const first = used[0]!;
    // A key may be an e-mail address: never printed whole.
    const shown = (text: string) => (text.includes('@') ? maskEmail(text) : text);
    return {
      column: first.getter!.name,
      value: shown(first.text),
      message: used
        .map((k) => `${quote(shown(k.text))} is not in column ${table.match[k.m]} of ${table.file}`)
        .join('; '),
    };
  };
  return { table, hit, miss };
}

function bindSumKey(
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
): BoundMapping['sumKey'] {
  if (merged.sumBy === undefined) return undefined;
  const names = merged.sumBy.map((entry) =>
    typeof entry === 'string' ? entry : (entry.column ?? entry.path!),
  );
  const found = merged.sumBy.map((entry) => {
    const alternatives = typeof entry === 'string' ? [entry] : ruleSource(entry, source);
    const getter = sourceGetter(alternatives, source, index, 'first');
    if (!getter || typeof entry === 'string') return getter && { ...getter, when: undefined };
    // A key used only on the rows `when` accepts; a file without the `when` column never uses it.
    const when = ruleMatcher(entry.when, source, index);
    return when ? { ...getter, when } : undefined;
  });
  const getters = found.filter((g) => g !== undefined);
  // Every key column the user named must be there: a missing Reference Txn ID would leave each refund
  // apart from its payment.
  const missing = names.filter((_, i) => found[i] === undefined);
  if (merged.ruleOrigin.sumBy === 'user' && missing.length > 0 && source.format === 'csv') {
    missingRuleColumn('mapping.sumBy', { column: missing[0] }, source);
  }
  if (getters.length === 0) {
    throw new ConfigError(
      `mapping.sumBy: ${names.map((c) => `"${c}"`).join(' or ')} is not in ${source.file}`,
      { hint: `the header has: ${(source.header ?? []).map((h) => `"${h}"`).join(', ')}` },
    );
  }
  return (row) => {
    for (const getter of getters) {
      if (getter.when && !getter.when.accepts(getter.when.text(row))) continue;
      const text = cellText(getter.get(row));
      if (text !== '') return text;
    }
    return undefined;
  };
}

/**
 * A keep-style rule (`{column | path, in | matches}`): the column's getter and whether a row's text is
 * accepted (`in`: trimmed, any case; `matches`: the regular expression); undefined when the file lacks it.
 * Used by keep rules, sumBy's `when` and refunded's `ifAbsent`.
 */
function ruleMatcher(
  rule: KeepRule,
  source: SourceInfo,
  index: Map<string, number>,
): { name: string; text: (row: SourceRow) => string; accepts: (text: string) => boolean } | undefined {
  const getter = sourceGetter(ruleSource(rule, source), source, index, 'first');
  if (!getter) return undefined;
  const values = rule.in ? new Set(rule.in.map((v) => v.trim().toLowerCase())) : undefined;
  const pattern = rule.matches === undefined ? undefined : new RegExp(rule.matches, 'iu');
  return {
    name: getter.name,
    text: (row) => cellText(getter.get(row)),
    accepts: (text) => (values ? values.has(text.toLowerCase()) : pattern!.test(text)),
  };
}

function cellText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value).trim()
    : '';
}

/**
 * Skip rules (value in the list: skipped) and keep rules (value not in the list, or not matching: skipped)
 * as one test giving the reason, `<column>: <value>`. A rule on a column the file lacks does not apply.
 */
function bindRowRules(
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
): BoundMapping['skipReason'] {
  const tests: Array<(row: SourceRow) => string | undefined> = [];
  const reason = (name: string, text: string) => `${name}: ${text === '' ? '(empty)' : text}`;
  // Reasons are summary keys: a keep rule on an open-ended column (ids, e-mails) must not make one per
  // row, nor print an address. Past this many values a rule's reasons share one key.
  const maxReasons = 20;
  for (const rule of merged.skip) {
    const getter = sourceGetter(ruleSource(rule, source), source, index, 'first');
    if (!getter) {
      if (merged.ruleOrigin.skip === 'user') missingRuleColumn('mapping.skip', rule, source);
      continue;
    }
    const values = new Set(rule.in.map((v) => v.trim().toLowerCase()));
    tests.push((row) => {
      const text = cellText(getter.get(row));
      return values.has(text.toLowerCase()) ? reason(getter.name, text) : undefined;
    });
  }
  for (const rule of merged.keep) {
    const matcher = ruleMatcher(rule, source, index);
    if (!matcher) {
      if (merged.ruleOrigin.keep === 'user') missingRuleColumn('mapping.keep', rule, source);
      continue;
    }
    const seen = new Set<string>();
    tests.push((row) => {
      const text = matcher.text(row);
      if (matcher.accepts(text)) return undefined;
      if (text === '') return reason(matcher.name, text);
      if (rule.matches !== undefined) return `${matcher.name}: not matching ${rule.matches}`;
      if (!seen.has(text)) {
        if (seen.size >= maxReasons) return `${matcher.name}: other values`;
        seen.add(text);
      }
      return reason(matcher.name, text.includes('@') ? maskEmail(text) : text);
    });
  }
  if (tests.length === 0) return undefined;
  return (row) => {
    for (const test of tests) {
      const why = test(row);
      if (why !== undefined) return why;
    }
    return undefined;
  };
}

/**
 * A rule's column (CSV) that the user named but the file lacks: a config error, since the rule would
 * silently not apply (every row kept, no refund taken off). JSON lines have no header to check against.
 */
function missingRuleColumn(
  key: string,
  rule: { column?: string | undefined; path?: string | undefined },
  source: SourceInfo,
): void {
  if (source.format !== 'csv') return;
  throw new ConfigError(
    `${key}: column "${rule.column ?? rule.path}" is not in the header of ${source.file}`,
    {
      hint: `the header has: ${(source.header ?? []).map((h) => `"${h}"`).join(', ')}`,
    },
  );
}

function bindDeduction(
  which: 'refunded' | 'unpaid',
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
): BoundDeduction | undefined {
  const deduction = merged[which];
  if (deduction === undefined) return undefined;
  const names = deductionColumns(deduction);
  const getter = sourceGetter(names, source, index, 'first');
  if (!getter) {
    if (merged.ruleOrigin[which] === 'user')
      missingRuleColumn(`mapping.${which}`, { column: names[0] }, source);
    return undefined;
  }
  const value = merged.fields.conversionValue?.spec;
  return {
    column: getter.name,
    get: getter.get,
    decimal: (typeof deduction === 'string' ? undefined : deduction.decimal) ?? value?.decimal,
    unit: (typeof deduction === 'string' ? undefined : deduction.unit) ?? value?.unit,
    scale: (typeof deduction === 'string' ? undefined : deduction.scale) ?? value?.scale,
    remaining: typeof deduction !== 'string' && deduction.remaining === true,
  };
}

/** The column (or path) alternatives of a deduction, as written. */
export function deductionColumns(deduction: Deduction): string[] {
  if (typeof deduction === 'string') return [deduction];
  const raw = deduction.column ?? deduction.path;
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
}

/**
 * `refunded.ifAbsent`: in a file without the refunded column, the rows the rule accepts (a `Refunded`
 * status) have an unknown refund; the reason, or undefined for the others and when the column is there.
 */
function bindRefundUnknown(
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
  refunded: BoundDeduction | undefined,
): BoundMapping['refundUnknown'] {
  const deduction = merged.refunded;
  if (refunded || deduction === undefined || typeof deduction === 'string' || !deduction.ifAbsent)
    return undefined;
  const test = ruleMatcher(deduction.ifAbsent, source, index);
  if (!test) return undefined;
  const column = deductionColumns(deduction).join(' / ');
  return (row) => {
    const text = test.text(row);
    if (!test.accepts(text)) return undefined;
    return {
      column: test.name,
      value: text,
      message: `${source.file} has no "${column}" column: a row with ${test.name} ${text} is not sent at its full value, since what was refunded is unknown`,
    };
  };
}

function bindColumn(
  bound: BoundField,
  merged: MergedField,
  index: Map<string, number>,
  header: string[],
  source: SourceInfo,
): void {
  const joined = merged.bare === undefined ? merged.spec.columns : undefined;
  if (joined !== undefined) {
    bindJoined(bound, merged, joined, index, header, source);
    return;
  }
  const columns = columnsOf(merged);
  const getter = sourceGetter(columns, source, index, 'each row');
  if (getter) {
    useGetter(bound, getter);
    return;
  }
  // A preset maps optional columns an export may lack; a column the user named must exist.
  if (merged.origin === 'user' && columns.length > 0) {
    const lacks = `column ${columns.map((c) => `"${c}"`).join(' or ')} (mapped to ${bound.field})`;
    throw new ColumnMismatchError(source.file, lacks, `${lacks} is not in the header of ${source.file}`, {
      hint: `the header has: ${header.map((h) => `"${h}"`).join(', ')}`,
    });
  }
  bound.column = columns[0] ?? bound.field;
}

/** `columns: [Date, Time, TimeZone]`: the non-empty cells joined with one space, in the order given. */
function bindJoined(
  bound: BoundField,
  merged: MergedField,
  columns: string[],
  index: Map<string, number>,
  header: string[],
  source: SourceInfo,
): void {
  const found = columns.map((column) => index.get(normalizeColumnName(column)));
  const missing = columns.filter((_, i) => found[i] === undefined);
  if (missing.length > 0) {
    if (merged.origin === 'user') {
      const lacks = `column ${missing.map((c) => `"${c}"`).join(', ')} (joined into ${bound.field})`;
      throw new ColumnMismatchError(source.file, lacks, `${lacks} is not in the header of ${source.file}`, {
        hint: `the header has: ${header.map((h) => `"${h}"`).join(', ')}`,
      });
    }
    bound.column = columns.join(' + ');
    return;
  }
  const indexes = found as number[];
  bound.column = indexes.map((i) => header[i] ?? '').join(' + ');
  bound.get = (row) => {
    if (row.kind !== 'csv') return undefined;
    let text = '';
    for (const i of indexes) {
      const cell = row.cells[i]?.trim();
      if (cell) text = text === '' ? cell : `${text} ${cell}`;
    }
    return text === '' ? undefined : text;
  };
}

function bindPath(
  bound: BoundField,
  merged: MergedField,
  index: Map<string, number>,
  source: SourceInfo,
): void {
  const getter = sourceGetter(pathsOf(merged), source, index, 'each row');
  if (getter) useGetter(bound, getter);
}

function useGetter(bound: BoundField, getter: SourceGetter): void {
  bound.column = getter.name;
  bound.get = getter.get;
}

/** Fields whose column feeds no other field: a cell is an amount or a time, never also an id or a name. */
const exclusiveFields: readonly RecordField[] = ['conversionValue', 'conversionDatetime'];

/**
 * One column feeding the value or the datetime and another field is a mapping mistake (every field mapped
 * to the one column of a file made `1700000000` a record worth 1.7 billion, dated 2023-11-14, with that
 * number as its id: issue 24), unless mapping.sharedColumns names it.
 */
function checkSharedColumns(merged: MergedMapping, source: SourceInfo, index: Map<string, number>): void {
  const header = source.header ?? [];
  const csv = source.format === 'csv';
  const allowed = new Set(merged.sharedColumns.map((c) => (csv ? normalizeColumnName(c) : c)));
  const readers = new Map<string, RecordField[]>();
  for (const field of recordFields) {
    const spec = merged.fields[field];
    if (spec === undefined) continue;
    for (const key of sourceKeysOf(spec, csv, index)) readers.set(key, [...(readers.get(key) ?? []), field]);
  }
  for (const [key, fields] of readers) {
    if (fields.length < 2 || !fields.some((f) => exclusiveFields.includes(f))) continue;
    const name = csv ? (header[Number(key)] ?? key) : key;
    if (allowed.has(csv ? normalizeColumnName(name) : name)) continue;
    throw new ConfigError(
      `${source.file}: column ${quote(name)} is mapped to ${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}; ` +
        'a column feeding the value or the datetime feeds no other field',
      {
        hint: `map each field to its own column; if ${quote(name)} holds them all on purpose, add it to mapping.sharedColumns`,
      },
    );
  }
}

/** What a field reads in this file: CSV header positions (as text), or JSON paths; none for a constant or a lookup. */
function sourceKeysOf(spec: MergedField, csv: boolean, index: Map<string, number>): string[] {
  if (spec.spec.value !== undefined || spec.spec.lookup !== undefined) return [];
  if (!csv) return pathsOf(spec);
  const names = (spec.bare === undefined ? spec.spec.columns : undefined) ?? columnsOf(spec);
  return names.flatMap((name) => {
    const at = index.get(normalizeColumnName(name));
    return at === undefined ? [] : [String(at)];
  });
}

function parameterValue(parameters: Record<string, string> | undefined, name: string): string | undefined {
  if (!parameters) return undefined;
  for (const [key, value] of Object.entries(parameters)) {
    if (normalizeColumnName(key) === name && value.trim() !== '') return value.trim();
  }
  return undefined;
}
