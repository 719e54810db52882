// mapping.lookup bound to one file: each row's key (the first non-empty of the key columns) leads to a
// row of the second file, or to the miss that says why it did not.
import type { SourceInfo, SourceRow } from '../input/types.js';
import { quote } from '../quote.js';
import { maskEmail } from '../report/rejection.js';
import type { BoundMapping, LookupMiss } from './bound-mapping.js';
import type { LookupTable } from './lookup.js';
import type { MergedMapping } from './merge-mapping.js';
import { cellText, missingRuleColumn } from './row-rules.js';
import { sourceGetter } from './source-getter.js';

/** The lookup as the file's fields use it: the lookup row a row leads to, and why it leads to none. */
export interface BoundLookup {
  table: LookupTable;
  hit: (row: SourceRow) => (string | undefined)[] | undefined;
  miss: BoundMapping['lookupMiss'];
}

/**
 * The row of the lookup file each input row's key leads to (memoized for the row: several fields ask),
 * and the miss: keys empty, or not found in any match column.
 */
export function bindLookup(
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
  table: LookupTable,
): BoundLookup {
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
