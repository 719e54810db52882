// Which ledger a command without delivery settings (history, ledger copy) reads: --state, REVIMPORT_STATE,
// the config's `state`, or the default location, as push finds it.
import { homedir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../config/load.js';
import { defaultLedgerPath, isPostgresUrl } from '../../ledger/paths.js';
import type { CommandContext } from '../program.js';

/** An SQLite file path, or a PostgreSQL URL with the file holding its password, if any. */
export interface LedgerLocation {
  readonly state: string;
  readonly passwordFile?: string;
}

/**
 * --state, else REVIMPORT_STATE, else the config's `state` (relative to the config file), else the default; a
 * PostgreSQL URL as written, with its password file (config `statePasswordFile`, REVIMPORT_STATE_PASSWORD_FILE).
 */
export async function ledgerLocation(
  options: Record<string, unknown>,
  io: CommandContext['io'],
): Promise<LedgerLocation> {
  const configPath = typeof options.config === 'string' ? options.config : undefined;
  const flag = typeof options.state === 'string' ? options.state : undefined;
  const loaded =
    flag === undefined || isPostgresUrl(flag) ? await loadConfig({ configPath, cwd: io.cwd }) : undefined;
  const fromEnv = io.env.REVIMPORT_STATE_PASSWORD_FILE;
  const passwordFile =
    fromEnv !== undefined && fromEnv !== ''
      ? path.resolve(io.cwd, fromEnv)
      : loaded?.config.statePasswordFile && path.resolve(loaded.baseDir, loaded.config.statePasswordFile);
  const ofState = (state: string, base: string) => (isPostgresUrl(state) ? state : path.resolve(base, state));
  if (flag !== undefined) return { state: ofState(flag, io.cwd), passwordFile };
  // The environment before the config file, as for push (flag > environment > config file).
  const envState = io.env.REVIMPORT_STATE;
  if (envState !== undefined && envState !== '') return { state: ofState(envState, io.cwd), passwordFile };
  if (loaded?.config.state) return { state: ofState(loaded.config.state, loaded.baseDir), passwordFile };
  return { state: defaultLedgerPath(io.env, homedir()), passwordFile };
}
