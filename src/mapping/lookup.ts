// What the mapping needs from `mapping.lookup`'s second file: the stored cells of the row whose match
// column holds a key. Pure interface; src/pipeline/lookup-table.ts builds it from the file.
import type { WrittenMapping } from '../config/schema.js';
import { recordFields } from '../record/fields.js';

export interface LookupTable {
  /** The file as configured, for messages. */
  file: string;
  /** The match columns (or paths), in the order of `mapping.lookup.match`. */
  match: string[];
  /** The looked-up columns (or paths) stored per key, in this order. */
  columns: string[];
  /** The stored cells of the first row whose match column `which` holds `key` (trimmed); undefined: none. */
  get(which: number, key: string): (string | undefined)[] | undefined;
}

/** The lookup file's columns the mapping's fields take (`{ lookup: Email }`), each once, in field order. */
export function lookupColumns(mapping: WrittenMapping | undefined): string[] {
  const columns: string[] = [];
  for (const field of recordFields) {
    const spec = mapping?.fields[field];
    if (typeof spec === 'object' && spec.lookup !== undefined && !columns.includes(spec.lookup)) {
      columns.push(spec.lookup);
    }
  }
  return columns;
}

export function listOf(value: string | string[]): string[] {
  return Array.isArray(value) ? value : [value];
}
