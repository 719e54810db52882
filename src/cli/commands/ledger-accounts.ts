// `revimport ledger accounts` lists the ledger's targets (one per CRM account); `revimport ledger assign`
// resolves the targets a ledger from before schema 4 kept per API key (ledger/accounts.ts): it names them,
// or merges several keys' histories into one account. Both hold the run lock of an SQLite ledger, so no push
// writes it meanwhile; on PostgreSQL the change is one transaction, and the targets it changes are
// unresolved, which no push can use.

import { existsSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import { accountLine, checkAccountName } from '../../ledger/accounts.js';
import { openLedger } from '../../ledger/ledger.js';
import type { LedgerStore } from '../../ledger/ledger-store.js';
import { acquireLock } from '../../ledger/lock.js';
import { isPostgresUrl } from '../../ledger/paths.js';
import { maskUrl } from '../../ledger/postgres/connection.js';
import { PostgresLedger } from '../../ledger/postgres/postgres-ledger.js';
import { targetLabel, targetOf } from '../../ledger/target.js';
import type { CommandContext } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { type LedgerLocation, ledgerLocation } from './ledger-location.js';
import { lockStaleMs } from './ledger-session.js';

export async function ledgerAccountsCommand(
  options: Record<string, unknown>,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const location = await ledgerLocation(options, io);
  const rows = await withStore(location, io.env, (store) => store.accounts());
  if (options.json) {
    io.stdout.write(`${JSON.stringify(rows ?? [])}\n`);
    return ExitCode.ok;
  }
  if (rows === undefined || rows.length === 0) {
    io.stdout.write(`no targets in ${maskUrl(location.state)}\n`);
    return ExitCode.ok;
  }
  for (const row of rows) io.stdout.write(`${accountLine(row)}\n`);
  return ExitCode.ok;
}

export async function ledgerAssignCommand(
  baseUrl: string,
  fingerprints: string[],
  options: Record<string, unknown>,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const account = typeof options.account === 'string' ? options.account : '';
  const problem = account === '' ? undefined : checkAccountName(account);
  if (problem) throw new UsageError(`--account ${JSON.stringify(account)} ${problem}`);
  // The URL as pushes spell it (normalized), so `https://CRM.example/` finds https://crm.example.
  const target = { ...targetOf(baseUrl, '', account), keyFingerprint: '' };
  const location = await ledgerLocation(options, io);
  const result = await withStore(location, io.env, (store) =>
    store.assign(target.baseUrl, fingerprints, account),
  );
  if (result === undefined) throw new UsageError(`there is no ledger file ${location.state}`);
  const merged = result.merged === 0 ? '' : ` (${result.merged + 1} keys' histories merged)`;
  io.stdout.write(`${fingerprints.join(', ')} -> ${targetLabel(target)}${merged}\n`);
  return ExitCode.ok;
}

/** Opens the ledger (an SQLite file under its run lock), runs `use`; undefined for a file that does not exist. */
export async function withStore<T>(
  location: LedgerLocation,
  env: CommandContext['io']['env'],
  use: (store: LedgerStore) => T | Promise<T>,
): Promise<T | undefined> {
  if (isPostgresUrl(location.state)) {
    const store = await PostgresLedger.open(
      { url: location.state, passwordFile: location.passwordFile, env },
      { merges: false },
    );
    try {
      return await use(store);
    } finally {
      await store.close();
    }
  }
  if (!existsSync(location.state)) return undefined;
  const lock = await acquireLock(location.state, { waitMs: 0, staleMs: lockStaleMs(env) });
  try {
    const store = openLedger(location.state, { guard: () => lock.check() });
    try {
      return await use(store);
    } finally {
      store.close();
    }
  } finally {
    lock.release();
  }
}
