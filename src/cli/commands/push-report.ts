// Prints a push or retry's result: the text summary, or under --json one object per run, also when an error
// ended it before it counted anything (a missing file, no key, a bad URL), so a cron log has a line for
// every run.
import { ledgerStorageError } from '../../ledger/storage-error.js';
import type { ErrorWithSummary } from '../../pipeline/run.js';
import type { Summary } from '../../report/summary.js';
import type { CommandContext } from '../context.js';
import { ExitCode, exitCodeForError } from '../exit-codes.js';
import { renderSummary } from '../render.js';
import { ReportFacts, writeReportFile } from '../report-facts.js';
import { publicTarget, type RunStamp, runJson, stampRun, timedRun } from '../run-report.js';
import { describeSystemError } from '../system-errors.js';
import type { LedgerFacts } from './ledger-session.js';
import { signalExitCode } from './push-exit-code.js';
import type { PreparedRun } from './push-prepare.js';

export interface Outcome {
  summary: Summary;
  exitCode: number;
}

/** What a run has settled so far, for its --json line also when an error ends it. */
export interface Known {
  prepared?: PreparedRun;
  ledger?: LedgerFacts;
  /** What the run's report (issue 25) is built from, gathered as the run goes. */
  report: ReportFacts;
}

/** How a result is printed: the flags that choose it, and where the run was going. */
interface Printing {
  context: CommandContext;
  stamp: RunStamp;
  known: Known;
  check: boolean;
  json: boolean;
  quiet: boolean;
  target(): string | null;
}

/** Runs `body` and prints its result, or what it did before an error ended it (then rethrown). */
export async function reported(
  raw: Record<string, unknown>,
  context: CommandContext,
  check: boolean,
  body: (known: Known) => Promise<Outcome>,
): Promise<number> {
  const stamp = stampRun();
  const known: Known = { report: new ReportFacts(stamp.startedAt) };
  const printing: Printing = {
    context,
    stamp,
    known,
    check,
    json: raw.json === true,
    quiet: raw.quiet === true,
    target: () =>
      publicTarget(
        known.prepared?.settings.baseUrl ??
          (typeof raw.baseUrl === 'string' ? raw.baseUrl : context.io.env.REVIMPORT_BASE_URL),
      ),
  };
  let outcome: Outcome;
  try {
    outcome = await body(known);
  } catch (thrown) {
    const { error, exitCode } = printFailure(printing, thrown);
    // The report of a stopped run is the most useful one: written also when an error ended it.
    writeReport(printing, (thrown as ErrorWithSummary).summary, exitCode);
    throw error;
  }
  printOutcome(printing, outcome);
  writeReport(printing, outcome.summary, outcome.exitCode);
  return outcome.exitCode;
}

/**
 * `push --report <file.html>` (issue 25): the page, path said on stderr. Its path was checked before the run
 * (`out` is set then); a write that fails now is said and leaves the exit code as the run set it.
 */
function writeReport(printing: Printing, summary: Summary | undefined, exitCode: number): void {
  const { io } = printing.context;
  const facts = printing.known.report;
  if (facts.out === null) return;
  try {
    writeReportFile(facts.out, facts.report(summary, exitCode, new Date()));
  } catch (error) {
    io.stderr.write(`cannot write the report ${facts.out}: ${describeSystemError(error)}\n`);
    return;
  }
  if (!printing.quiet) io.stderr.write(`report: ${facts.out}\n`);
}

/** The run ended early (a refused key, an unreadable later file): what it did is still the result. */
function printFailure(printing: Printing, thrown: unknown): { error: unknown; exitCode: number } {
  const { context, stamp, known } = printing;
  const partial = (thrown as ErrorWithSummary).summary;
  // A ledger that could not be written (full disk...) stops the run as a delivery that cannot go on.
  const error = ledgerStorageError(thrown, known.prepared?.settings.statePath);
  const exitCode = signalExitCode(context.signal) ?? exitCodeForError(error);
  const finishedAt = new Date();
  const { io } = context;
  if (printing.json) {
    const line = runJson(stamp, {
      finishedAt,
      summary: partial,
      check: printing.check,
      exitCode,
      target: printing.target(),
      error,
      ledger: known.ledger,
    });
    io.stdout.write(`${JSON.stringify(line)}\n`);
  } else if (partial) {
    const text = renderSummary(timedRun(partial, stamp, finishedAt), known.prepared ?? {});
    (printing.quiet ? io.stderr : io.stdout).write(text);
  }
  return { error, exitCode };
}

function printOutcome(printing: Printing, outcome: Outcome): void {
  const { context, stamp, known } = printing;
  const { exitCode } = outcome;
  const { io } = context;
  const finishedAt = new Date();
  // The text's seconds are the --json line's durationMs: the whole run, not the pipeline alone.
  const summary = timedRun(outcome.summary, stamp, finishedAt);
  if (printing.json) {
    const line = runJson(stamp, {
      summary,
      check: printing.check,
      exitCode,
      target: printing.target(),
      ledger: known.ledger,
      finishedAt,
    });
    io.stdout.write(`${JSON.stringify(line)}\n`);
  } else if (!printing.quiet) io.stdout.write(renderSummary(summary, known.prepared ?? {}));
  else if (exitCode !== ExitCode.ok) io.stderr.write(renderSummary(summary, known.prepared ?? {}));
}
