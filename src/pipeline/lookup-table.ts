// `mapping.lookup`: reads the second file once, before the inputs, into an index on disk (an anonymous
// SQLite database, deleted when closed), so a lookup file of millions of rows costs disk, not memory.
import Database from 'better-sqlite3';
import type { WrittenMapping } from '../config/schema.js';
import { ConfigError } from '../errors.js';
import { headerIndex, normalizeColumnName } from '../input/column-name.js';
import { type ReadOptions, readRows } from '../input/read-rows.js';
import type { SourceRow } from '../input/types.js';
import { retain } from '../ledger/native.js';
import { compileJsonPath } from '../mapping/json-path.js';
import { type LookupTable, listOf, lookupColumns } from '../mapping/lookup.js';

// Only the match columns and the columns the mapping takes are stored. Measured: `npm run bench`,
// program `lookup` (bench/README.md).

export interface OpenedLookup extends LookupTable {
  /** Data rows read from the file. */
  rows: number;
  /** Keys met again on a later row with other cells (the first row's cells are used). */
  conflicts: number;
  close(): void;
}

const INSERT_CHUNK = 10_000;

type ReadLookup = Pick<ReadOptions, 'encoding' | 'signal' | 'maxFieldBytes' | 'maxGzipRatio'> & {
  path?: string | undefined;
};
type LookupSpec = NonNullable<WrittenMapping['lookup']>;
type Pair = [number, string, string];

/**
 * Builds the lookup table of `mapping.lookup` (its file already resolved to a path); undefined when the
 * mapping has none. Throws ConfigError when the file lacks a match column or a looked-up column, or
 * when fields take from a lookup that is not configured.
 */
export async function openLookup(
  mapping: WrittenMapping | undefined,
  read: ReadLookup,
): Promise<OpenedLookup | undefined> {
  const columns = lookupColumns(mapping);
  const spec = mapping?.lookup;
  if (!spec) {
    if (columns.length > 0) throw unconfigured(columns[0]!);
    return undefined;
  }
  const match = listOf(spec.match);
  const store = pairStore();
  try {
    const counts = await storePairs(lookupRows(spec, read, match, columns), match, columns, store.add);
    const select = store.index();
    return {
      file: spec.file,
      match,
      columns,
      ...counts,
      conflicts: conflicts(store.db),
      get(which, key) {
        const found = select.get(which, key) as string | undefined;
        return found === undefined ? undefined : (JSON.parse(found) as (string | undefined)[]);
      },
      close: () => store.db.close(),
    };
  } catch (error) {
    store.db.close();
    throw error;
  }
}

function unconfigured(column: string): ConfigError {
  return new ConfigError(`mapping.fields take { lookup: "${column}" } but no mapping.lookup is configured`, {
    hint: 'add mapping.lookup: { file: <the other export>, key: <column here>, match: <column there> }',
  });
}

/** The lookup file's rows; its header is the first row holding every match and looked-up column. */
function lookupRows(spec: LookupSpec, read: ReadLookup, match: string[], columns: string[]) {
  const wanted = [...match.map((m) => [m]), ...columns.map((c) => [c])].map((alts) =>
    alts.map(normalizeColumnName),
  );
  const { path, ...options } = read;
  return readRows(path ?? spec.file, {
    ...options,
    isHeader: (cells) => {
      const names = new Set(cells.map(normalizeColumnName));
      return wanted.every((alts) => alts.some((name) => names.has(name)));
    },
    expectedHeader: `the columns ${[...match, ...columns].map((c) => `"${c}"`).join(', ')} (mapping.lookup)`,
  });
}

/** The anonymous database of (match column, key, looked-up cells) pairs, and its index once filled. */
function pairStore() {
  const db = retain(new Database(''));
  db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF');
  // Rows are appended in file order and indexed once at the end: a sorted index build is several times
  // faster than inserting a million scattered keys into a B-tree one by one. The first row of a key wins.
  db.exec('CREATE TABLE pairs (m INTEGER NOT NULL, k TEXT NOT NULL, v TEXT NOT NULL)');
  const insert = retain(db.prepare('INSERT INTO pairs (m, k, v) VALUES (?, ?, ?)'));
  const add = db.transaction((pending: Pair[]) => {
    for (const [m, k, v] of pending) insert.run(m, k, v);
  });
  const index = (): Database.Statement<[number, string]> => {
    db.exec('CREATE INDEX pairs_key ON pairs (m, k)');
    return retain(
      db
        .prepare<[number, string]>('SELECT v FROM pairs WHERE m = ? AND k = ? ORDER BY rowid LIMIT 1')
        .pluck(),
    );
  };
  return { db, add, index };
}

/** Reads every row into pairs, added in chunks; returns the data rows read. */
async function storePairs(
  rows: AsyncIterable<SourceRow>,
  match: string[],
  columns: string[],
  add: (pending: Pair[]) => void,
): Promise<{ rows: number }> {
  let getters: Array<(row: SourceRow) => string | undefined> | undefined;
  let pending: Pair[] = [];
  let read = 0;
  for await (const row of rows) {
    // A `Total` row is no key; a trailer-shaped row may be one (no mapping tells it apart here).
    if (row.kind === 'malformed' || (row.kind === 'csv' && row.footer === 'label')) continue;
    getters ??= gettersFor(row, [...match, ...columns]);
    const cells = getters.map((get) => get(row));
    read++;
    // A row with none of the wanted cells adds nothing (a Shopify line-item row: only the order's first
    // row carries its e-mail): not stored, so it neither hides nor contradicts the row that has them.
    if (cells.slice(match.length).every((cell) => cell === undefined)) continue;
    const values = JSON.stringify(cells.slice(match.length));
    for (let m = 0; m < match.length; m++) {
      const key = cells[m];
      if (key) pending.push([m, key, values]);
    }
    if (pending.length >= INSERT_CHUNK) {
      add(pending);
      pending = [];
    }
  }
  add(pending);
  return { rows: read };
}

/** Keys written on several rows with other cells: found on the index alone, then checked key by key. */
function conflicts(db: Database.Database): number {
  // Statements retained: Node 24 aborts when one is garbage-collected (ledger/native.ts).
  const repeated = retain(db.prepare('SELECT m, k FROM pairs GROUP BY m, k HAVING count(*) > 1'))
    .raw()
    .all() as Array<[number, string]>;
  if (repeated.length === 0) return 0;
  const distinct = retain(db.prepare('SELECT count(DISTINCT v) FROM pairs WHERE m = ? AND k = ?')).pluck();
  return repeated.filter(([m, k]) => (distinct.get(m, k) as number) > 1).length;
}

/** Per wanted column (CSV) or path (JSON lines), a getter of its trimmed text; a missing column is an error. */
function gettersFor(first: SourceRow, names: string[]): Array<(row: SourceRow) => string | undefined> {
  if (first.kind === 'json') {
    return names.map((name) => {
      const path = compileJsonPath(name);
      return (row) => (row.kind === 'json' ? textOf(path.get(row.value)) : undefined);
    });
  }
  const header = first.source.header ?? [];
  const index = headerIndex(header);
  return names.map((name) => {
    const i = index.get(normalizeColumnName(name));
    if (i === undefined) {
      throw new ConfigError(`mapping.lookup: column "${name}" is not in the header of ${first.source.file}`, {
        hint: `the header has: ${header.map((h) => `"${h}"`).join(', ')}`,
      });
    }
    return (row) => (row.kind === 'csv' ? textOf(row.cells[i]) : undefined);
  });
}

function textOf(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
}
