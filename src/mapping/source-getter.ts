// The one builder of "read this column (CSV) or this path (JSON lines)": a getter over a row and the name
// the user knows the source by. Fields, rules, deductions, sumBy and lookup keys all read their cells here.

import { normalizeColumnName } from '../input/column-name.js';
import type { SourceInfo, SourceRow } from '../input/types.js';
import { compileJsonPath } from './json-path.js';

export type ValueGetter = (row: SourceRow) => unknown;

/** A source found in the file: its getter, and its name (the header as written, or the path). */
export interface SourceGetter {
  name: string;
  get: ValueGetter;
}

/**
 * How alternatives (`[Paid at, Created at]`) are read: `first` takes the first the file has, once for the
 * file (rules, deductions); `each row` takes, per row, the first non-empty one (fields). A lone CSV column
 * is read as it is under both; JSON paths under `each row` give undefined for null and ''.
 */
export type Pick = 'first' | 'each row';

/** The getter of the first of `names` the file has; undefined when it has none (or none is named). */
export function sourceGetter(
  names: readonly string[],
  source: SourceInfo,
  index: Map<string, number>,
  pick: Pick,
): SourceGetter | undefined {
  if (names.length === 0) return undefined;
  return source.format === 'csv' ? columnGetter(names, source, index, pick) : pathGetter(names, pick);
}

/** A rule's source: its column for CSV (else its path), its path for JSON lines (else its column). */
export function ruleSource(
  rule: { column?: string | undefined; path?: string | undefined },
  source: SourceInfo,
): string[] {
  const name = source.format === 'csv' ? (rule.column ?? rule.path) : (rule.path ?? rule.column);
  return name === undefined ? [] : [name];
}

function columnGetter(
  names: readonly string[],
  source: SourceInfo,
  index: Map<string, number>,
  pick: Pick,
): SourceGetter | undefined {
  const present: number[] = [];
  let firstName: string | undefined;
  for (const name of names) {
    const i = index.get(normalizeColumnName(name));
    if (i === undefined) continue;
    firstName ??= name;
    present.push(i);
  }
  if (present.length === 0) return undefined;
  const first = present[0]!;
  const name = source.header?.[first] ?? firstName!;
  if (pick === 'first' || present.length === 1) {
    return { name, get: (row) => (row.kind === 'csv' ? row.cells[first] : undefined) };
  }
  // Alternatives the file all has: per row, the first non-empty (Shopify's `Paid at`, else `Created at`).
  const get: ValueGetter = (row) => {
    if (row.kind !== 'csv') return undefined;
    for (const i of present) {
      const cell = row.cells[i];
      if (cell !== undefined && cell.trim() !== '') return cell;
    }
    return undefined;
  };
  return { name, get };
}

function pathGetter(names: readonly string[], pick: Pick): SourceGetter {
  if (pick === 'first') {
    // Only the path used is compiled: an invalid alternative after it is never read.
    const path = compileJsonPath(names[0]!);
    return { name: path.text, get: (row) => (row.kind === 'json' ? path.get(row.value) : undefined) };
  }
  const paths = names.map(compileJsonPath);
  const get: ValueGetter = (row) => {
    if (row.kind !== 'json') return undefined;
    for (const p of paths) {
      const value = p.get(row.value);
      if (value !== undefined && value !== null && value !== '') return value;
    }
    return undefined;
  };
  return { name: paths[0]!.text, get };
}
