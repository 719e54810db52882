// `revimport report [--run N] [--out file.html]`: the report a push saved with its run (issue 25), read from
// the ledger (an SQLite file or PostgreSQL, as `history` reads it) and written as one self-contained HTML page.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import { openLedger } from '../../ledger/ledger.js';
import type { LedgerStore } from '../../ledger/ledger-store.js';
import { isPostgresUrl } from '../../ledger/paths.js';
import { maskUrl } from '../../ledger/postgres/connection.js';
import { PostgresLedger } from '../../ledger/postgres/postgres-ledger.js';
import type { RunReport } from '../../report/run-report.js';
import type { CommandContext } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { checkReportPath } from '../output-paths.js';
import { writeReportFile } from '../report-facts.js';
import { describeLedgerChoice, type LedgerLocation, ledgerLocation } from './ledger-location.js';

/** What the command reads: the run asked for (or the newest) and its saved report, if it has one. */
interface Found {
  runId: number | undefined;
  report: RunReport | null;
}

/** The newest run (or `--run`) and its report, from a store of either backend. */
async function find(store: LedgerStore, asked: number | undefined): Promise<Found> {
  const runId = asked ?? (await store.history({ limit: 1 }))[0]?.id;
  if (runId === undefined) return { runId, report: null };
  return { runId, report: await store.runReport(runId) };
}

async function readReport(
  ledger: LedgerLocation,
  env: CommandContext['io']['env'],
  asked: number | undefined,
) {
  if (isPostgresUrl(ledger.state)) {
    const store = await PostgresLedger.open(
      { url: ledger.state, passwordFile: ledger.passwordFile, env },
      { merges: false },
    );
    try {
      return await find(store, asked);
    } finally {
      await store.close();
    }
  }
  // history creates nothing, and neither does report: no file, no runs.
  if (!existsSync(ledger.state)) return { runId: undefined, report: null };
  const store = openLedger(ledger.state);
  try {
    return await find(store, asked);
  } finally {
    store.close();
  }
}

export async function reportCommand(
  options: Record<string, unknown>,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const asked = runOption(options.run);
  const ledger = await ledgerLocation(options, io);
  if (options.verbose) for (const line of describeLedgerChoice(ledger)) io.stderr.write(`${line}\n`);
  const { runId, report } = await readReport(ledger, io.env, asked);
  const where = maskUrl(ledger.state);
  if (runId === undefined) {
    throw new UsageError(`no runs recorded in ${where}`, {
      hint: 'push first; revimport history lists the runs',
    });
  }
  if (report === null) throw noReport(runId, asked, where);
  const out = path.resolve(
    io.cwd,
    typeof options.out === 'string' ? options.out : `revimport-run-${runId}.html`,
  );
  checkReportPath(out, '--out');
  writeReportFile(out, report);
  io.stdout.write(`${out}\n`);
  return ExitCode.ok;
}

function runOption(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const run = Number(raw);
  if (!Number.isInteger(run) || run <= 0) {
    throw new UsageError(`--run must be a run number as revimport history lists it, not "${String(raw)}"`);
  }
  return run;
}

/** A run without a report: not in this ledger, or recorded before reports were kept, or refused the ledger. */
function noReport(runId: number, asked: number | undefined, where: string): UsageError {
  return new UsageError(
    `run ${runId} has no saved report in ${where}: it is not in this ledger, or it was recorded before ` +
      'revimport kept a report with each run (an older version), or it never took the ledger (another run held it)',
    {
      hint:
        asked === undefined
          ? 'revimport history lists the runs; a push from now on saves its report (push --report <file.html> also writes it at once)'
          : 'revimport history lists the runs; pick one recorded by this version, or push again',
    },
  );
}
