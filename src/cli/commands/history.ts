// `revimport history`: the runs recorded in the ledger, newest first.

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../config/load.js';
import { UsageError } from '../../errors.js';
import { openLedger } from '../../ledger/ledger.js';
import { defaultLedgerPath } from '../../ledger/paths.js';
import type { RunRow } from '../../ledger/types.js';
import { ExitCode } from '../exit-codes.js';
import type { CommandContext } from '../program.js';

/** --state, else the config's `state` (relative to the config file), else the default location. */
async function ledgerPathFor(options: Record<string, unknown>, io: CommandContext['io']): Promise<string> {
  if (typeof options.state === 'string') return path.resolve(io.cwd, options.state);
  const configPath = typeof options.config === 'string' ? options.config : undefined;
  const loaded = await loadConfig({ configPath, cwd: io.cwd });
  if (loaded.config.state) return path.resolve(loaded.baseDir, loaded.config.state);
  return defaultLedgerPath(io.env, homedir());
}

export async function historyCommand(
  options: Record<string, unknown>,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const limit = Number(options.limit ?? 20);
  if (!Number.isInteger(limit) || limit <= 0) throw new UsageError(`--limit must be a positive whole number`);
  const statePath = await ledgerPathFor(options, io);
  let runs: RunRow[] = [];
  if (existsSync(statePath)) {
    const ledger = openLedger(statePath);
    try {
      runs = ledger.history({ limit });
    } finally {
      ledger.close();
    }
  }
  if (options.json) {
    io.stdout.write(`${JSON.stringify(runs)}\n`);
    return ExitCode.ok;
  }
  if (runs.length === 0) {
    io.stdout.write(`no runs recorded in ${statePath}\n`);
    return ExitCode.ok;
  }
  io.stdout.write(`${['run', 'started', 'command', 'files', 'counts', 'exit', 'duration'].join('\t')}\n`);
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
      run.files.join(',') || '-',
      counts || '-',
      run.exitCode === null ? '-' : String(run.exitCode),
      run.durationMs === null ? '-' : `${(run.durationMs / 1000).toFixed(1)}s`,
    ];
    io.stdout.write(`${cells.join('\t')}\n`);
  }
  return ExitCode.ok;
}
