// One push or retry once its settings are prepared: say which config and ledger (--verbose), start the
// progress display and the rejects file, run the pipeline (--check, --check --emit, or holding the ledger
// after an optional --max-invalid pass), then close what it opened and settle the exit code.
import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Settings } from '../../config/settings.js';
import type { RevimportError } from '../../errors.js';
import { targetLabel, targetOf } from '../../ledger/target.js';
import type { RowThreadMode } from '../../pipeline/row-thread/messages.js';
import { type ErrorWithSummary, type RunDeps, type RunOptions, runPipeline } from '../../pipeline/run.js';
import type { ConversionRecord } from '../../record/fields.js';
import { localDay, openRejects, type RejectsWriter, resolveRejectsPath } from '../../report/rejects.js';
import type { Summary } from '../../report/summary.js';
import { checkUrl } from '../../transport/client.js';
import { chooseProxy, describeProxy } from '../../transport/proxy.js';
import type { CommandContext } from '../context.js';
import { collectAfterReading, releaseYoungGeneration } from '../heap.js';
import type { CliIO } from '../io.js';
import { createProgress, type Progress, sizeOfInputs } from '../progress.js';
import type { ReportFacts } from '../report-facts.js';
import { publicTarget } from '../run-report.js';
import { version } from '../version.js';
import { adoptUserLedger, describeLedgerChoice, firstRunNotice } from './ledger-location.js';
import type { LedgerFacts } from './ledger-session.js';
import { budgetExceeded, exitCodeOfRun } from './push-exit-code.js';
import type { PreparedRun } from './push-prepare.js';
import type { Outcome } from './push-report.js';

/** Seconds between progress lines without a spinner: a run shorter than this prints none (issue 20). */
const defaultProgressIntervalS = 30;

export interface Execution {
  command: 'push' | 'retry';
  files: string[];
  check: boolean;
  resend: RunOptions['resend'];
  /** --check: what a real push would refuse; reported after the rows, exit 2. */
  deliveryProblem?: RevimportError;
  /** --check --emit: the file each record that would be sent is written to, as a JSON line. */
  emit?: string;
  /** What the run report is built from (issue 25): told the revenue, the run's id, the rejects file. */
  report?: ReportFacts;
  /** Told what the run found on taking the ledger (for the --json line). */
  onLedger?: (facts: LedgerFacts) => void;
}

/** What the steps of one run share, made once per run. */
interface RunParts {
  prepared: PreparedRun;
  run: Execution;
  context: CommandContext;
  progress: Progress;
  rejects: RejectsWriter | undefined;
  /** The rejects rows' `_run` and the path's `{runId}`: `check`, or the ledger's run id once it is held. */
  label: { value: string };
  base: Pick<
    RunDeps,
    'stdin' | 'userAgent' | 'now' | 'signal' | 'rowThread' | 'rawSpans' | 'collect' | 'growYoung'
  >;
  exitCodeOf(summary: Summary): number;
}

type LedgerHandle = NonNullable<RunDeps['ledger']>;

export async function execute(
  prepared: PreparedRun,
  context: CommandContext,
  run: Execution,
): Promise<Outcome> {
  const { io, signal } = context;
  const now = () => performance.now();
  if (prepared.mode === 'verbose') sayChoices(prepared, run.check, io);
  const progress = await startProgress(prepared, run.files, io, now);
  for (const warning of prepared.warnings) progress.warn(warning);
  // The run's id is known once it holds the ledger; the file is named and opened at its first row, after that.
  // --check records no run: its rows are marked `check`.
  const label = { value: run.check ? 'check' : 'unrecorded' };
  const parts: RunParts = {
    prepared,
    run,
    context,
    progress,
    label,
    rejects: openRunRejects(prepared.settings, label, run.report, io.cwd),
    base: {
      stdin: io.stdin,
      userAgent: `revimport/${version}`,
      now,
      signal,
      rowThread: rowThreadMode(io.env),
      rawSpans: io.env.REVIMPORT_RAW_SPANS !== '0',
      collect: collectAfterReading,
      growYoung: releaseYoungGeneration,
    },
    exitCodeOf: (summary) => exitCodeOfRun(summary, run.check, prepared.settings, signal),
  };
  const summary = await closingAfter(parts, () => (run.check ? checkOnly(parts) : holdingLedger(parts)));
  // --check: exit 2 before 1, after the rows' report, so the user sees both at once.
  if (run.deliveryProblem && !signal.aborted) {
    throw Object.assign(run.deliveryProblem, { summary } satisfies ErrorWithSummary);
  }
  return { summary, exitCode: parts.exitCodeOf(summary) };
}

/** --verbose: which config and which ledger (issue 19): a run by hand and the same run from cron must agree. */
function sayChoices(prepared: PreparedRun, check: boolean, io: CliIO): void {
  const { settings } = prepared;
  const [config, ledger] = describeLedgerChoice(prepared.ledger);
  io.stderr.write(`${config}\n`);
  if (check) return;
  io.stderr.write(`${ledger}\n`);
  // Which key this run uses, as history records it: a rotation is visible (issue 19), never the key.
  const target = targetOf(settings.baseUrl!, settings.apiKey!, settings.account);
  io.stderr.write(`target: ${targetLabel(target)}, key ${target.keyFingerprint}\n`);
  const line = describeProxy(chooseProxy(checkUrl(settings.baseUrl!, settings.allowHttp), settings.proxy));
  if (line) io.stderr.write(`${line}\n`);
}

function startProgress(
  prepared: PreparedRun,
  files: string[],
  io: CliIO,
  now: () => number,
): Promise<Progress> {
  const { flags } = prepared;
  return createProgress(io, prepared.mode, now, {
    spinner: flags.progress !== false,
    inputBytes: sizeOfInputs(files),
    intervalMs: Number(flags.progressInterval ?? defaultProgressIntervalS) * 1000,
  });
}

/**
 * The --rejects file, named and opened at its first row (see `label`); undefined without --rejects. The
 * report links to the file by the name it got then.
 */
function openRunRejects(
  settings: Settings,
  label: { value: string },
  report: ReportFacts | undefined,
  cwd: string,
): RejectsWriter | undefined {
  const template = settings.rejectsPath;
  if (!template) return undefined;
  const named = () => {
    const file = rejectsPathOf(template, label.value);
    if (report) report.rejectsFile = path.resolve(cwd, file);
    return file;
  };
  return openRejects(named, {
    maxRows: settings.limits.maxRejects,
    run: () => label.value,
  });
}

/** --rejects with its `{date}` (today, local) and `{runId}` filled in (issue 20: a file per day or per run). */
export function rejectsPathOf(template: string, runId: string): string {
  return resolveRejectsPath(template, { date: localDay(new Date()), runId });
}

/**
 * Runs `produce`, then stops the display and closes the rejects file whatever happened; a rejects file that
 * reached its cap is said, and kept in the summary's warnings.
 */
async function closingAfter(parts: RunParts, produce: () => Promise<Summary>): Promise<Summary> {
  const { progress, rejects, prepared } = parts;
  let summary: Summary;
  let capped: string | undefined;
  try {
    summary = await produce();
  } finally {
    capped = rejects && rejectsCapWarning(prepared.settings, rejects);
    if (capped) progress.warn(capped);
    progress.stop();
    await rejects?.close();
  }
  if (capped) summary.warnings.push(capped);
  return summary;
}

/** The options of a pass that validates and sends nothing (--check, and the --max-invalid pass). */
function checkOptions(files: string[]): RunOptions {
  return { files, check: true, resend: false };
}

/** --check: the rows validated and reported, nothing sent; with --emit, each record written as it would go. */
async function checkOnly(parts: RunParts): Promise<Summary> {
  const { prepared, run, rejects, progress } = parts;
  const { settings } = prepared;
  const base = { ...parts.base, revenue: run.report?.revenue };
  if (!run.emit) return runPipeline(settings, checkOptions(run.files), { ...base, rejects }, progress.hooks);
  // Each record exactly as a push would send it, with where it came from: inspect before sending.
  const fd = openSync(run.emit, 'w', 0o600);
  try {
    const onValid = (record: ConversionRecord, file: string, line: number) => {
      writeSync(fd, `${JSON.stringify({ file, line, record })}\n`);
    };
    const hooks = { ...progress.hooks, onValid };
    return await runPipeline(settings, checkOptions(run.files), { ...base, rejects }, hooks);
  } finally {
    closeSync(fd);
  }
}

/** A real push or retry: the user's ledger adopted if need be, then the run recorded while it holds it. */
async function holdingLedger(parts: RunParts): Promise<Summary> {
  const { prepared, context, progress, run } = parts;
  const { settings, flags } = prepared;
  const { withLedger } = await import('./ledger-session.js');
  const warn = (message: string) => progress.warn(message);
  await adoptUserLedger(prepared.ledger, context.io.env, {
    waitMs: Number(flags.wait ?? 0) * 1000,
    signal: context.signal,
    notice: warn,
  });
  // The run is recorded in the ledger (history) from here on, the --max-invalid pass included.
  const body = (ledger: LedgerHandle, facts: LedgerFacts) => pushHolding(parts, ledger, facts);
  return withLedger(settings, run, flags.wait, body, parts.exitCodeOf, context.signal, warn);
}

/** The push itself, the ledger held: the --max-invalid pass first when there is a budget, then the delivery. */
async function pushHolding(parts: RunParts, ledger: LedgerHandle, facts: LedgerFacts): Promise<Summary> {
  const { prepared, context, progress, run, base, rejects } = parts;
  const { settings } = prepared;
  // The ledger is held: from here a signal lets requests in flight finish (not while waiting for the lock).
  progress.announceStop(context.signal);
  run.onLedger?.(facts);
  parts.label.value = String(ledger.runId);
  if (facts.firstRun) progress.warn(firstRunNotice(publicTarget(settings.baseUrl), facts.location));
  let pushRejects = rejects;
  if (settings.maxInvalid) {
    // Validate first, then send: a broken export or mapping must not half-import.
    const pass = await runPipeline(
      settings,
      checkOptions(run.files),
      { ...base, rejects, known: facts.known },
      { onWarning: progress.hooks.onWarning },
    );
    const exceeded = budgetExceeded(settings, pass);
    if (exceeded) return { ...pass, check: false, totals: {}, aborted: exceeded };
    // The invalid rows are in the rejects file already; the push pass adds only the server's refusals.
    pushRejects = rejects && withoutInvalid(rejects);
  }
  const deps = {
    ...base,
    rejects: pushRejects,
    ledger,
    known: facts.known,
    guard: facts.history,
    revenue: run.report?.revenue,
  };
  return runPipeline(settings, run, deps, progress.hooks);
}

/** What the rejects file left out, when it reached maxRejects: the run goes on, the file stops growing. */
function rejectsCapWarning(settings: Settings, rejects: RejectsWriter): string | undefined {
  if (rejects.dropped === 0) return undefined;
  const max = settings.limits.maxRejects;
  return (
    `${settings.rejectsPath}: the rejects file holds its limit of ${max} rows (maxRejects); ` +
    `${rejects.dropped} more rejected rows are counted in the summary but not written (raise maxRejects in the config to keep them)`
  );
}

function withoutInvalid(writer: RejectsWriter): RejectsWriter {
  return {
    get count() {
      return writer.count;
    },
    get dropped() {
      return writer.dropped;
    },
    // The check pass wrote the invalid and not-revenue rows already.
    write: (rejection) =>
      rejection.stage === 'invalid' || rejection.stage === 'not revenue'
        ? undefined
        : writer.write(rejection),
    close: () => writer.close(),
  };
}

/**
 * REVIMPORT_ROW_THREAD: `1` reads and checks the rows on a thread of their own; unset or anything else, on the
 * main thread (issue 23, row-thread.ts `useRowThread`; the tests run both ways).
 */
function rowThreadMode(env: NodeJS.ProcessEnv): RowThreadMode {
  return env.REVIMPORT_ROW_THREAD === '1' ? 'on' : 'off';
}
