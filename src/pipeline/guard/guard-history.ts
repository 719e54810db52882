// What the value guard reads of a target's history (issue 25), as the pipeline is given it: the caller that
// holds the ledger (cli/commands/ledger-session.ts) reads it there. A module of its own, so pipeline/types.ts
// can name it without importing the guard.

type Awaitable<T> = T | Promise<T>;

/** What the guard reads of the target's history; given by the caller that holds the ledger. */
export interface GuardHistory {
  /** Values delivered to the target, per currency (a bounded sample: Ledger.deliveredValues). */
  values(currencies: readonly string[]): Awaitable<Record<string, number[]>>;
  /** The local days (`yyyy-MM-dd`) the target's earlier runs delivered revenue on (their reports). */
  days(): Awaitable<readonly string[]>;
}
