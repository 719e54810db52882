// better-sqlite3 12 on Node 24 aborts the process (SIGABRT, `Assertion failed: (env) != nullptr` in
// RemoveEnvironmentCleanupHook) when the garbage collector finalizes one of its Database or Statement
// objects outside a JS context: Node 24 made node::ObjectWrap register environment cleanup hooks
// (WiseLibs/better-sqlite3#1515; fixed in better-sqlite3 13, which needs Node >= 22 while revimport
// supports 20.18). So revimport never lets one become garbage: every Database and Statement it creates
// is kept until the process exits (a handful per opened ledger), and pragmas go through exec(). The same holds
// for a statement's iterator (`iterate()`: StatementIterator's destructor aborts Node 24 alike), so long reads
// go a page of `.all()` at a time (`paged`).

import type Database from 'better-sqlite3';

const retained: object[] = [];

export function retain<T extends object>(value: T): T {
  retained.push(value);
  return value;
}

/** Every statement of `sql` prepared on `db` (and retained), by the same names. */
export function prepareAll<K extends string>(
  db: Database.Database,
  sql: Record<K, string>,
): Record<K, Database.Statement> {
  const entries = Object.entries<string>(sql).map(([name, text]) => [name, retain(db.prepare(text))]);
  return Object.fromEntries(entries) as Record<K, Database.Statement>;
}

/**
 * The pages of a keyset-paged read, one `.all()` at a time: `page(after)` returns the rows that follow `after`
 * (the last row of the page before; undefined for the first), in order, and an empty page at the end.
 */
export function* pages<R>(page: (after: R | undefined) => R[]): Generator<R[]> {
  for (let rows = page(undefined); rows.length > 0; rows = page(rows.at(-1))) yield rows;
}

/** The rows of `pages`, one at a time. */
export function* paged<R>(page: (after: R | undefined) => R[]): Generator<R> {
  for (const rows of pages(page)) yield* rows;
}
