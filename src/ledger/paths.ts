// Where the delivery ledger lives on disk. Pure: the CLI passes process.env and os.homedir(),
// so the XDG lookup is testable without touching the real environment.

import { dirname, isAbsolute, join } from 'node:path';

/** The ledger file name inside the state folder. */
export const ledgerFileName = 'ledger.db';

/**
 * The default ledger of a run with a config file: this file in the config file's folder (issue 19). The
 * ledger follows the config, not the user, so a push by hand and the same push from cron (another HOME,
 * another user) share one ledger. A visible file, not a dot folder: it is the delivery history, to back up
 * and keep, not a cache to clean; its -wal, -shm and .lock companions share its prefix.
 */
export const besideConfigFileName = 'revimport-ledger.db';

export function ledgerBesideConfig(configFile: string): string {
  return join(dirname(configFile), besideConfigFileName);
}

/**
 * `$REVIMPORT_STATE` (the file itself), else the user's ledger (userLedgerPath). Empty variables count as
 * unset, as the XDG Base Directory spec asks.
 */
export function defaultLedgerPath(env: Record<string, string | undefined>, homedir: string): string {
  const explicit = env.REVIMPORT_STATE;
  if (explicit !== undefined && explicit !== '') return explicit;
  return userLedgerPath(env, homedir);
}

/**
 * The ledger of a run without a config file, and of every run before issue 19:
 * `$XDG_STATE_HOME/revimport/ledger.db`, else `<homedir>/.local/state/revimport/ledger.db`.
 */
export function userLedgerPath(env: Record<string, string | undefined>, homedir: string): string {
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
