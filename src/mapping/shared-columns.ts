// Issue 24: one column feeding the value or the datetime and another field is a mapping mistake, found
// when the mapping is bound to a file's header (or JSON paths), unless mapping.sharedColumns names it.
import { ConfigError } from '../errors.js';
import { normalizeColumnName } from '../input/column-name.js';
import type { SourceInfo } from '../input/types.js';
import { quote } from '../quote.js';
import { type RecordField, recordFields } from '../record/fields.js';
import { columnsOf, type MergedField, type MergedMapping, pathsOf } from './merge-mapping.js';

/** Fields whose column feeds no other field: a cell is an amount or a time, never also an id or a name. */
const exclusiveFields: readonly RecordField[] = ['conversionValue', 'conversionDatetime'];

/**
 * One column feeding the value or the datetime and another field is a mapping mistake (every field mapped
 * to the one column of a file made `1700000000` a record worth 1.7 billion, dated 2023-11-14, with that
 * number as its id: issue 24), unless mapping.sharedColumns names it.
 */
export function checkSharedColumns(
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
): void {
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
