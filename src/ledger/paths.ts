// Where the delivery ledger lives on disk. Pure: the CLI passes process.env and os.homedir(),
// so the XDG lookup is testable without touching the real environment.

import { isAbsolute, join } from 'node:path';

/** The ledger file name inside the state folder. */
export const ledgerFileName = 'ledger.db';

/**
 * `$REVIMPORT_STATE` (the file itself), else `$XDG_STATE_HOME/revimport/ledger.db`,
 * else `<homedir>/.local/state/revimport/ledger.db`. Empty variables count as unset,
 * as the XDG Base Directory spec asks.
 */
export function defaultLedgerPath(env: Record<string, string | undefined>, homedir: string): string {
  const explicit = env.REVIMPORT_STATE;
  if (explicit !== undefined && explicit !== '') return explicit;
  const xdg = env.XDG_STATE_HOME;
  // The spec says a relative XDG_STATE_HOME is invalid and must be ignored.
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'revimport', ledgerFileName);
  return join(homedir, '.local', 'state', 'revimport', ledgerFileName);
}

/** The lock file that guards one run at a time on a ledger: `<ledger>.lock`. */
export function lockPathFor(ledgerPath: string): string {
  return `${ledgerPath}.lock`;
}

/** `postgres://` or `postgresql://`: a PostgreSQL ledger (issue 15); anything else is an SQLite file path. */
export function isPostgresUrl(state: string): boolean {
  return /^postgres(ql)?:\/\//i.test(state);
}
