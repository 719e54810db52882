// `mapping.lookup`: reads the second file once, before the inputs, into an index on disk (an anonymous
// SQLite database, deleted when closed), so a lookup file of millions of rows costs disk, not memory.
// Only the match columns and the columns the mapping takes are stored. Measured: `npm run bench`,
// program `lookup` (bench/README.md).
import Database from 'better-sqlite3';
import type { WrittenMapping } from '../config/schema.js';
import { ConfigError } from '../errors.js';
import { headerIndex, normalizeColumnName } from '../input/column-name.js';
import { type ReadOptions, readRows } from '../input/read-rows.js';
import type { SourceRow } from '../input/types.js';
import { retain } from '../ledger/native.js';
import { compileJsonPath } from '../mapping/json-path.js';
import { type LookupTable, listOf, lookupColumns } from '../mapping/lookup.js';

export interface OpenedLookup extends LookupTable {
  /** Data rows read from the file. */
  rows: number;
  /** Keys met again on a later row with other cells (the first row's cells are used). */
  conflicts: number;
  close(): void;
}

const INSERT_CHUNK = 10_000;

/**
 * Builds the lookup table of `mapping.lookup` (its file already resolved to a path); undefined when the
 * mapping has none. Throws ConfigError when the file lacks a match column or a looked-up column, or
 * when fields take from a lookup that is not configured.
 */
export async function openLookup(
  mapping: WrittenMapping | undefined,
  read: Pick<ReadOptions, 'encoding' | 'signal' | 'maxFieldBytes' | 'maxGzipRatio'> & {
    path?: string | undefined;
  },
): Promise<OpenedLookup | undefined> {
  const columns = lookupColumns(mapping);
  const spec = mapping?.lookup;
  if (!spec) {
    if (columns.length > 0) {
      throw new ConfigError(
        `mapping.fields take { lookup: "${columns[0]}" } but no mapping.lookup is configured`,
        {
          hint: 'add mapping.lookup: { file: <the other export>, key: <column here>, match: <column there> }',
        },
      );
    }
    return undefined;
  }
  const match = listOf(spec.match);
  const wanted = [...match.map((m) => [m]), ...columns.map((c) => [c])].map((alts) =>
    alts.map(normalizeColumnName),
  );
  const db = retain(new Database(''));
  db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF');
  // Rows are appended in file order and indexed once at the end: a sorted index build is several times
  // faster than inserting a million scattered keys into a B-tree one by one. The first row of a key wins.
  db.exec('CREATE TABLE pairs (m INTEGER NOT NULL, k TEXT NOT NULL, v TEXT NOT NULL)');
  const insert = retain(db.prepare('INSERT INTO pairs (m, k, v) VALUES (?, ?, ?)'));
  const insertAll = db.transaction((pending: Array<[number, string, string]>) => {
    for (const [m, k, v] of pending) insert.run(m, k, v);
  });
  let select: Database.Statement<[number, string]> | undefined;

  const table: OpenedLookup = {
    file: spec.file,
    match,
    columns,
    rows: 0,
    conflicts: 0,
    get(which, key) {
      const found = select?.get(which, key) as string | undefined;
      return found === undefined ? undefined : (JSON.parse(found) as (string | undefined)[]);
    },
    close: () => db.close(),
  };

  let getters: Array<(row: SourceRow) => string | undefined> | undefined;
  let pending: Array<[number, string, string]> = [];
  const { path, ...options } = read;
  const rows = readRows(path ?? spec.file, {
    ...options,
    isHeader: (cells) => {
      const names = new Set(cells.map(normalizeColumnName));
      return wanted.every((alts) => alts.some((name) => names.has(name)));
    },
    expectedHeader: `the columns ${[...match, ...columns].map((c) => `"${c}"`).join(', ')} (mapping.lookup)`,
  });
  try {
    for await (const row of rows) {
      // A `Total` row is no key; a trailer-shaped row may be one (no mapping tells it apart here).
      if (row.kind === 'malformed' || (row.kind === 'csv' && row.footer === 'label')) continue;
      getters ??= gettersFor(row, [...match, ...columns]);
      const cells = getters.map((get) => get(row));
      table.rows++;
      // A row with none of the wanted cells adds nothing (a Shopify line-item row: only the order's first
      // row carries its e-mail): not stored, so it neither hides nor contradicts the row that has them.
      if (cells.slice(match.length).every((cell) => cell === undefined)) continue;
      const values = JSON.stringify(cells.slice(match.length));
      for (let m = 0; m < match.length; m++) {
        const key = cells[m];
        if (key) pending.push([m, key, values]);
      }
      if (pending.length >= INSERT_CHUNK) {
        insertAll(pending);
        pending = [];
      }
    }
    insertAll(pending);
    db.exec('CREATE INDEX pairs_key ON pairs (m, k)');
    select = retain(
      db
        .prepare<[number, string]>('SELECT v FROM pairs WHERE m = ? AND k = ? ORDER BY rowid LIMIT 1')
        .pluck(),
    );
    table.conflicts = conflicts(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return table;
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
