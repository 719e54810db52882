// The sample as columns for init's guess: CSV cells by header position, found by the mapping's own header
// index (column-name.ts), so a name the mapping cannot tell from an earlier one shows that earlier column's
// cells; JSON lines by dotted path to each scalar.

import { headerIndex, normalizeColumnName } from '../input/column-name.js';
import type { SourceRow } from '../input/types.js';
import type { ColumnSample } from './types.js';

/** How deep init looks into a JSON line for columns: no export nests its fields further. */
const FLATTEN_DEPTH = 16;

/** The sample as columns: CSV by header position, JSON lines by dotted path to each scalar. */
export function columnSamples(rows: readonly SourceRow[]): ColumnSample[] {
  // A report footer (`Totals`, eBay's `4,record(s) downloaded`) is no sample of a column's cells.
  const data = rows.filter((r) => r.kind !== 'malformed' && !(r.kind === 'csv' && r.footer));
  const header = data.find((r) => r.kind === 'csv')?.source.header ?? [];
  // A name's first position, from one pass: `header.indexOf` per name made a 100,000-column header cost
  // 5 billion comparisons (issue 24).
  const position = headerIndex(header);
  const names = new Set(
    header.filter((name, i) => name !== '' && position.get(normalizeColumnName(name)) === i),
  );
  const flat = data.map((row) => (row.kind === 'json' ? flatten(row.value) : undefined));
  for (const values of flat) if (values) for (const name of values.keys()) names.add(name);
  return [...names].map((name) => {
    const index = position.get(normalizeColumnName(name)) ?? -1;
    const cells = data.map((row, i) => {
      if (row.kind === 'csv') return (index >= 0 ? row.cells[index] : undefined)?.trim() ?? '';
      return flat[i]?.get(name) ?? '';
    });
    return { name, cells };
  });
}

/** Scalars by dotted path, at most FLATTEN_DEPTH levels down: a line nested 5,000 deep must not overflow the stack (issue 24). */
function flatten(value: Record<string, unknown>, prefix = '', out = new Map<string, string>(), depth = 0) {
  for (const [key, inner] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
      if (depth + 1 < FLATTEN_DEPTH) flatten(inner as Record<string, unknown>, name, out, depth + 1);
    } else if (typeof inner === 'string' || typeof inner === 'number') out.set(name, String(inner).trim());
  }
  return out;
}
