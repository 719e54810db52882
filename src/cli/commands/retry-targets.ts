// `revimport retry` without a base URL: retry resends one target's records, so the error lists the targets
// that hold pending records in the ledger, with their counts, and how to pick one (issue 20).
import { ConfigError } from '../../errors.js';
import { maskUrl } from '../../ledger/postgres/connection.js';
import { targetLabel } from '../../ledger/target.js';
import type { AccountRow } from '../../ledger/types.js';
import type { CommandContext } from '../context.js';
import { withStore } from './ledger-accounts.js';
import { ledgerLocation } from './ledger-location.js';

const noBaseUrl = 'no baseUrl: set baseUrl in the config, REVIMPORT_BASE_URL or --base-url';

/** The error of a retry that names no target, listing the ledger's targets with pending records. */
export async function retryWithoutTarget(
  raw: Record<string, unknown>,
  context: CommandContext,
): Promise<ConfigError> {
  let ledger: string;
  let rows: AccountRow[] | undefined;
  try {
    const location = await ledgerLocation(raw, context.io);
    ledger = maskUrl(location.state);
    rows = await withStore(location, context.io.env, (store) => store.accounts());
  } catch {
    // A ledger that cannot be read now (locked by a push, unreachable) only costs the list.
    return new ConfigError(noBaseUrl);
  }
  if (rows === undefined)
    return new ConfigError(`${noBaseUrl} (there is no ledger ${ledger} yet: nothing to retry)`);
  return pendingTargetsError(ledger, rows);
}

/** The message for `rows` of `ledger` (pure): the targets with records outstanding, or that there are none. */
export function pendingTargetsError(ledger: string, rows: readonly AccountRow[]): ConfigError {
  const pending = rows.filter((row) => row.outstanding > 0);
  if (pending.length === 0) {
    return new ConfigError(`${noBaseUrl} (the ledger ${ledger} holds no pending records: nothing to retry)`);
  }
  const lines = pending.map((row) => `    ${label(row)}: ${row.outstanding} pending`);
  const first = pending.find((row) => row.account !== null) ?? pending[0]!;
  const account = first.account ? ` --account ${first.account}` : '';
  return new ConfigError(
    `no baseUrl: retry resends the pending records of one target; the ledger ${ledger} has them for:\n${lines.join('\n')}`,
    {
      hint: `name the target: revimport retry --base-url ${first.baseUrl}${account} (or REVIMPORT_BASE_URL, or baseUrl in the config)`,
    },
  );
}

/** A target as `ledger accounts` names it: one from before 0.2 not yet assigned to an account by its key. */
function label(row: AccountRow): string {
  if (row.account === null)
    return `${row.baseUrl} (unresolved: key ${row.keyFingerprint}; see revimport ledger accounts)`;
  return targetLabel({ baseUrl: row.baseUrl, account: row.account });
}
