// Which ledger a command uses and why: --state, REVIMPORT_STATE, the config's `state`, else the default, which
// follows the config file (issue 19: whoever runs a config, by hand or from cron, shares its ledger) and is
// the user's XDG ledger only without a config file. Also the one-time takeover of that XDG ledger by a
// config that used it before the default moved, and the `-v` lines naming config file and ledger.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { loadConfig } from '../../config/load.js';
import type { StateSource } from '../../config/resolve.js';
import { LockError } from '../../errors.js';
import { copyLedgerFile } from '../../ledger/copy-ledger-file.js';
import { acquireLock } from '../../ledger/lock.js';
import { isPostgresUrl, ledgerBesideConfig, userLedgerPath } from '../../ledger/paths.js';
import { maskUrl } from '../../ledger/postgres/connection.js';
import type { CommandContext } from '../context.js';
import { lockStaleMs } from './ledger-session.js';

/** The ledger a run uses and where that choice came from. */
export interface LedgerChoice {
  /** An absolute SQLite file path, or a PostgreSQL URL as written. */
  readonly state: string;
  readonly from: StateSource;
  /** The config file read; undefined when there is none, or (history, ledger copy) none was needed. */
  readonly configFile: string | undefined;
}

/** An SQLite file path, or a PostgreSQL URL with the file holding its password, if any. */
export interface LedgerLocation extends LedgerChoice {
  readonly passwordFile?: string;
  /** False when --state named the ledger and no config file was read. */
  readonly configRead: boolean;
  /** Set when `state` is the user's ledger that the next push copies here (ledgerToAdopt). */
  readonly copyTo?: string;
}

/** The ledger of a run that names none: beside the config file, else (no config file) the user's. */
export function defaultLedger(configFile: string | undefined, env: CommandContext['io']['env']): string {
  return configFile === undefined ? userLedgerPath(env, homedir()) : ledgerBesideConfig(configFile);
}

/**
 * The user's XDG ledger, when `choice` is the ledger beside its config file, that file does not exist yet,
 * and the XDG one does: until issue 19 a config without `state` used the XDG ledger, so its deliveries are
 * there. The first push or retry copies it beside the config (adoptUserLedger) instead of sending them
 * again; until then, history and ledger copy read it.
 */
export function ledgerToAdopt(choice: LedgerChoice, env: CommandContext['io']['env']): string | undefined {
  const { state, configFile } = choice;
  if (configFile === undefined || isPostgresUrl(state) || state !== ledgerBesideConfig(configFile)) {
    return undefined;
  }
  if (existsSync(state)) return undefined;
  const user = userLedgerPath(env, homedir());
  return user !== state && existsSync(user) ? user : undefined;
}

/**
 * Copies the user's ledger (ledgerToAdopt) beside the config, holding its run lock so no run writes it
 * meanwhile (`waitMs` as --wait); says so through `notice`. A run that created the file first wins.
 */
export async function adoptUserLedger(
  choice: LedgerChoice,
  env: CommandContext['io']['env'],
  options: { waitMs: number; signal: AbortSignal; notice: (message: string) => void },
): Promise<void> {
  const from = ledgerToAdopt(choice, env);
  if (from === undefined) return;
  const lock = await acquireLock(from, {
    waitMs: options.waitMs,
    staleMs: lockStaleMs(env),
    sleep: (ms) => delay(ms, undefined, { signal: options.signal }),
  }).catch((error: unknown) => {
    // Ctrl-C or SIGTERM while waiting for a run on the user's ledger: a stop, as in ledger-session.ts.
    if (options.signal.aborted) throw new LockError('stopped while waiting for another run to finish');
    throw error;
  });
  try {
    // Another run may have copied it while this one waited for the lock.
    if (ledgerToAdopt(choice, env) === undefined) return;
    if (copyLedgerFile(from, choice.state)) {
      options.notice(
        `this config's ledger is now ${choice.state}, beside the config file, so every user and cron job ` +
          `running the config shares it; it starts as a copy of ${from}, the ledger earlier versions used ` +
          `(left as it was), so nothing delivered before is sent again`,
      );
    }
  } finally {
    lock.release();
  }
}

/**
 * Said before a run sends anything to a target its ledger holds no record of: a push by hand followed by the
 * same push on another ledger (cron under another user or HOME, another host) would otherwise double
 * silently (issue 19). Names the base URL only, never the key.
 */
export function firstRunNotice(target: string | null, location: string): string {
  return (
    `first run for ${target ?? 'this target'} on the ledger ${location}: it holds no record of deliveries ` +
    `there, so what was delivered through another ledger (another user, HOME or host) is not known and would be sent again`
  );
}

/** The `-v` lines: the config file read and the ledger used, with why (a PostgreSQL password masked). */
export function describeLedgerChoice(choice: LedgerChoice & Partial<LedgerLocation>): string[] {
  const config =
    choice.configRead === false
      ? 'config: not read (--state names the ledger)'
      : `config: ${choice.configFile ?? 'no config file'}`;
  const origin =
    choice.copyTo === undefined
      ? originOf(choice)
      : `the ledger earlier versions used: the next push or retry copies it to ${choice.copyTo}`;
  const shown = isPostgresUrl(choice.state) ? maskUrl(choice.state) : choice.state;
  return [config, `ledger: ${shown} (${origin})`];
}

function originOf(choice: LedgerChoice): string {
  switch (choice.from) {
    case 'flag':
      return '--state';
    case 'env':
      return 'REVIMPORT_STATE';
    case 'config':
      return 'state in the config file';
    case 'default':
      return choice.configFile === undefined
        ? "the user's default: no config file"
        : 'beside the config file: no state set';
  }
}

/**
 * The ledger of a command without delivery settings (history, ledger copy), as push finds it: --state, else
 * REVIMPORT_STATE, else the config's `state` (relative to the config file), else the default; a PostgreSQL
 * URL as written, with its password file (config `statePasswordFile`, REVIMPORT_STATE_PASSWORD_FILE). A
 * config's ledger that a push would first copy from the user's (ledgerToAdopt) is read where it still is.
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
  const configFile = loaded?.filepath;
  const found = (from: StateSource, state: string, base: string): LedgerLocation => {
    const choice = { state: isPostgresUrl(state) ? state : path.resolve(base, state), from, configFile };
    const adopt = ledgerToAdopt(choice, io.env);
    const located = adopt === undefined ? choice : { ...choice, state: adopt, copyTo: choice.state };
    return { ...located, passwordFile, configRead: loaded !== undefined };
  };
  if (flag !== undefined) return found('flag', flag, io.cwd);
  // The environment before the config file, as for push (flag > environment > config file).
  const envState = io.env.REVIMPORT_STATE;
  if (envState !== undefined && envState !== '') return found('env', envState, io.cwd);
  if (loaded?.config.state) return found('config', loaded.config.state, loaded.baseDir);
  return found('default', defaultLedger(configFile, io.env), io.cwd);
}
