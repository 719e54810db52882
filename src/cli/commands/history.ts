// `revimport history`: the runs recorded in the ledger (an SQLite file or a PostgreSQL database), newest first.

import { existsSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import { openLedger } from '../../ledger/ledger.js';
import { isPostgresUrl } from '../../ledger/paths.js';
import { maskUrl } from '../../ledger/postgres/connection.js';
import { PostgresLedger } from '../../ledger/postgres/postgres-ledger.js';
import type { RunRow } from '../../ledger/types.js';
import type { CommandContext } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { describeLedgerChoice, type LedgerLocation, ledgerLocation } from './ledger-location.js';

/** The runs, newest first: none when the SQLite file does not exist yet (history creates nothing). */
async function readRuns(ledger: LedgerLocation, env: CommandContext['io']['env'], limit: number) {
  if (isPostgresUrl(ledger.state)) {
    const store = await PostgresLedger.open(
      { url: ledger.state, passwordFile: ledger.passwordFile, env },
      { merges: false },
    );
    try {
      return await store.history({ limit });
    } finally {
      await store.close();
    }
  }
  if (!existsSync(ledger.state)) return [];
  const store = openLedger(ledger.state);
  try {
    return store.history({ limit });
  } finally {
    store.close();
  }
}

export async function historyCommand(
  options: Record<string, unknown>,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const limit = Number(options.limit ?? 20);
  if (!Number.isInteger(limit) || limit <= 0) throw new UsageError(`--limit must be a positive whole number`);
  const ledger = await ledgerLocation(options, io);
  if (options.verbose) for (const line of describeLedgerChoice(ledger)) io.stderr.write(`${line}\n`);
  const runs: RunRow[] = await readRuns(ledger, io.env, limit);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(runs.map(runJsonOf))}\n`);
    return ExitCode.ok;
  }
  if (runs.length === 0) {
    io.stdout.write(`no runs recorded in ${maskUrl(ledger.state)}\n`);
    return ExitCode.ok;
  }
  // key: the fingerprint of the API key each run used, so a rotation shows (issue 19); never the key.
  const header = ['run', 'started', 'command', 'key', 'files', 'counts', 'exit', 'duration'];
  io.stdout.write(`${header.join('\t')}\n`);
  for (const run of runs) {
    const counts = run.counts
      ? Object.entries(run.counts)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${k}=${n}`)
          .join(' ')
      : '(unfinished)';
    const cells = [
      String(run.id),
      new Date(run.startedAt).toISOString(),
      run.command,
      run.keyFingerprint ?? '-',
      run.files.join(',') || '-',
      counts || '-',
      run.exitCode === null ? '-' : String(run.exitCode),
      run.durationMs === null ? '-' : `${(run.durationMs / 1000).toFixed(1)}s`,
    ];
    io.stdout.write(`${cells.join('\t')}\n`);
  }
  return ExitCode.ok;
}

/**
 * A run as `history --json` prints it: times as ISO 8601 strings, as push --json writes them (issue 20:
 * history wrote epoch milliseconds), so one reader parses both logs.
 */
export function runJsonOf(run: RunRow): Record<string, unknown> {
  return {
    ...run,
    startedAt: new Date(run.startedAt).toISOString(),
    finishedAt: run.finishedAt === null ? null : new Date(run.finishedAt).toISOString(),
  };
}
