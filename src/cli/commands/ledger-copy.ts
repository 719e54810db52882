// `revimport ledger copy --to postgres://...`: moves an SQLite ledger (--state, the config's `state`, or the
// default file) into a PostgreSQL ledger, holding the file's run lock so that no push writes it meanwhile.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import { copyLedger } from '../../ledger/copy-ledger.js';
import { acquireLock, describeReplaced } from '../../ledger/lock.js';
import { isPostgresUrl } from '../../ledger/paths.js';
import { maskUrl } from '../../ledger/postgres/connection.js';
import type { CommandContext } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { ledgerLocation } from './ledger-location.js';
import { lockStaleMs } from './ledger-session.js';

export async function ledgerCopyCommand(
  options: Record<string, unknown>,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const to = typeof options.to === 'string' ? options.to : '';
  if (!isPostgresUrl(to)) {
    throw new UsageError(
      `--to must be a PostgreSQL URL (postgres://user@host/database), not "${maskUrl(to)}"`,
    );
  }
  const from = await ledgerLocation(options, io);
  if (isPostgresUrl(from.state)) {
    throw new UsageError(
      `the ledger to copy is ${maskUrl(from.state)}: ledger copy moves an SQLite file into PostgreSQL`,
      {
        hint: 'Give --state the SQLite ledger file to copy.',
      },
    );
  }
  if (!existsSync(from.state)) {
    throw new UsageError(`there is no ledger file ${from.state} to copy`, {
      hint: 'Give --state the SQLite ledger file (or -c the config that names it).',
    });
  }
  const lock = await acquireLock(from.state, { waitMs: 0, staleMs: lockStaleMs(io.env) });
  if (lock.replaced) io.stderr.write(`warning: ${describeReplaced(lock.replaced, from.state, Date.now())}\n`);
  try {
    const toPasswordFile =
      typeof options.passwordFile === 'string' ? path.resolve(io.cwd, options.passwordFile) : undefined;
    const counts = await copyLedger(from.state, {
      url: to,
      passwordFile: toPasswordFile ?? (io.env.REVIMPORT_STATE_PASSWORD_FILE || undefined),
      env: io.env,
    });
    if (options.json)
      io.stdout.write(`${JSON.stringify({ from: from.state, to: maskUrl(to), ...counts })}\n`);
    else {
      io.stdout.write(
        `copied ${from.state} into ${maskUrl(to)}: ${counts.targets} targets, ${counts.runs} runs, ` +
          `${counts.records} delivered or rejected records, ${counts.outstanding} outstanding records, ` +
          `${counts.batches} unanswered batches\n`,
      );
    }
    return ExitCode.ok;
  } finally {
    lock.release();
  }
}
