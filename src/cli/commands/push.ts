// `revimport push <files...>` and `revimport retry`: argv -> Settings -> pipeline -> summary and exit code.
import { accessSync, closeSync, constants, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isReadableByOthers, loadConfig, loadMappingFile, readKeyFile } from '../../config/load.js';
import { type PushFlags, resolveSettings } from '../../config/resolve.js';
import type { Settings } from '../../config/settings.js';
import {
  ConfigError,
  isRevimportError,
  NoPresetError,
  type RevimportError,
  UsageError,
} from '../../errors.js';
import { ledgerStorageError } from '../../ledger/storage-error.js';
import { targetLabel, targetOf } from '../../ledger/target.js';
import { runPipeline } from '../../pipeline/run.js';
import type { ErrorWithSummary, RunOptions } from '../../pipeline/types.js';
import type { ConversionRecord } from '../../record/fields.js';
import { localDay, openRejects, type RejectsWriter, resolveRejectsPath } from '../../report/rejects.js';
import type { Summary } from '../../report/summary.js';
import { checkUrl } from '../../transport/client.js';
import { chooseProxy, describeProxy } from '../../transport/proxy.js';
import { ExitCode, exitCodeFor, exitCodeForError, newInvalid } from '../exit-codes.js';
import { checkEmitPath, checkLedgerPath, checkRejectsPath } from '../output-paths.js';
import type { CommandContext } from '../program.js';
import { createProgress, type OutputMode, sizeOfInputs } from '../progress.js';
import { renderSummary } from '../render.js';
import { publicTarget, runJson, stampRun, timedRun } from '../run-report.js';
import { describeSystemError } from '../system-errors.js';
import { version } from '../version.js';
import {
  adoptUserLedger,
  defaultLedger,
  describeLedgerChoice,
  firstRunNotice,
  type LedgerChoice,
} from './ledger-location.js';
import type { LedgerFacts } from './ledger-session.js';
import { namingConfig } from './named-config.js';

/** Seconds between progress lines without a spinner: a run shorter than this prints none (issue 20). */
const defaultProgressIntervalS = 30;

const flagsSchema = z
  .object({
    config: z.string().optional(),
    mapping: z.string().optional(),
    check: z.boolean().optional(),
    /** `--resend` (all) or `--resend changed`; true from a caller that parsed no word. */
    resend: z.union([z.literal(true), z.enum(['all', 'changed'])]).optional(),
    json: z.boolean().optional(),
    quiet: z.boolean().optional(),
    verbose: z.boolean().optional(),
    /** false with --no-progress (commander's negated flag). */
    progress: z.boolean().optional(),
    /** --progress-interval: seconds between progress lines without a spinner. */
    progressInterval: z.string().optional(),
    wait: z.string().optional(),
  })
  .passthrough();

export interface PreparedRun {
  settings: Settings;
  flags: z.infer<typeof flagsSchema>;
  mode: OutputMode;
  warnings: string[];
  /** Set by retry: its summary has no rows-read line. */
  command?: 'retry';
  /** --check: why the apiKeyFile could not be read (a real push stops there; --check reports it after the rows). */
  keyProblem?: RevimportError;
  /** The config file read; undefined when the search found none and no -c was given. */
  configFile?: string | undefined;
  /** The ledger (settings.statePath) and where it came from. */
  ledger: LedgerChoice;
}

export async function prepare(
  raw: Record<string, unknown>,
  context: CommandContext,
  needsKey = true,
): Promise<PreparedRun> {
  const flags = flagsSchema.parse(raw);
  const { io } = context;
  // Checked here, not when the ledger is taken: a usage error is found before anything else happens.
  if (flags.wait !== undefined && !(Number.isFinite(Number(flags.wait)) && Number(flags.wait) >= 0)) {
    throw new UsageError(`--wait must be a number of seconds, not "${flags.wait}"`);
  }
  const interval = flags.progressInterval;
  if (interval !== undefined && !(Number.isFinite(Number(interval)) && Number(interval) > 0)) {
    throw new UsageError(`--progress-interval must be a number of seconds above 0, not "${interval}"`);
  }
  const loaded = await loadConfig({ configPath: flags.config, cwd: io.cwd });
  const mappingFile = flags.mapping ? await loadMappingFile(flags.mapping, io.cwd) : undefined;
  const warnings: string[] = [];
  let keyFromFile: string | undefined;
  let keyProblem: RevimportError | undefined;
  if (!io.env.REVIMPORT_API_KEY && loaded.config.apiKeyFile) {
    const keyPath = path.resolve(loaded.baseDir, loaded.config.apiKeyFile);
    try {
      const keyFile = readKeyFile(keyPath);
      keyFromFile = keyFile.key;
      if (keyFile.readableByOthers)
        warnings.push(`apiKeyFile ${keyPath} is readable by others: chmod 600 it`);
    } catch (error) {
      // --check validates the rows first and reports an unreadable key file after them.
      if (needsKey || !isRevimportError(error)) throw error;
      keyProblem = error;
    }
  }
  const resolved = resolveSettings({
    flags: raw as PushFlags,
    env: io.env,
    config: loaded.config,
    configDir: loaded.baseDir,
    cwd: io.cwd,
    mappingFile,
    keyFromFile,
    defaultStatePath: defaultLedger(loaded.filepath, io.env),
  });
  warnings.push(...resolved.warnings);
  if (loaded.config.apiKey && loaded.filepath && isReadableByOthers(loaded.filepath)) {
    warnings.push(`${loaded.filepath} holds the API key and is readable by others: chmod 600 it`);
  }
  const mode: OutputMode = flags.quiet ? 'quiet' : flags.verbose ? 'verbose' : 'normal';
  return {
    settings: resolved.settings,
    flags,
    mode,
    warnings,
    configFile: loaded.filepath,
    ledger: { state: resolved.settings.statePath, from: resolved.stateFrom, configFile: loaded.filepath },
    ...(keyProblem ? { keyProblem } : {}),
  };
}

/**
 * A file no preset reads, in a run without any config file: the cause is the missing config, so the
 * error says so first and how to write one (issue 12: messages that point the right way).
 */
function withoutConfig(error: unknown, prepared: PreparedRun, cwd: string): unknown {
  if (!(error instanceof NoPresetError) || prepared.configFile !== undefined) return error;
  if (prepared.flags.mapping !== undefined || prepared.settings.mapping !== undefined) return error;
  const file = error.file === '-' ? '<file>' : error.file;
  const replaced = new NoPresetError(
    error.file,
    `no config file in ${cwd} (looked for revimport.config.{json,yaml,yml,js,mjs,cjs}, .revimportrc*, ` +
      `and "revimport" in package.json), and ${error.message}`,
    {
      hint: `run revimport init ${shellWord(file)} to write revimport.config.yaml from it, or give a config with -c <path>`,
      cause: error,
    },
  );
  // The partial summary (rows read before this file) stays with the error for --json.
  return Object.assign(replaced, { summary: (error as ErrorWithSummary).summary });
}

/** A file name as one shell word, for a command line to copy. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Everything a real push needs beyond --check: where to send, with which key. */
function requireTarget(settings: Settings): { baseUrl: string; apiKey: string } {
  if (!settings.baseUrl) {
    throw new ConfigError('no baseUrl: set baseUrl in the config, REVIMPORT_BASE_URL or --base-url');
  }
  if (!settings.apiKey) {
    throw new ConfigError('no API key: set REVIMPORT_API_KEY, or apiKeyFile in the config');
  }
  // A bad --proxy or proxy variable is a config error before anything is read.
  chooseProxy(checkUrl(settings.baseUrl, settings.allowHttp, settings.apiKey), settings.proxy);
  return { baseUrl: settings.baseUrl, apiKey: settings.apiKey };
}

/**
 * --check: what a real push would refuse in the delivery settings, found without contacting the server.
 * Without any baseUrl the run is a data check only (a first look at an export on a laptop); once a
 * baseUrl is configured, a bad URL or no usable key is what a push would stop on with exit 2.
 */
export function checkDelivery(prepared: PreparedRun): RevimportError | 'no baseUrl' | undefined {
  const { settings } = prepared;
  if (!settings.baseUrl) return 'no baseUrl';
  const problems: RevimportError[] = [];
  const collect = (step: () => unknown) => {
    try {
      step();
    } catch (error) {
      if (!isRevimportError(error)) throw error;
      problems.push(error);
    }
  };
  collect(() => checkUrl(settings.baseUrl!, settings.allowHttp, settings.apiKey));
  if (!settings.apiKey)
    problems.push(
      prepared.keyProblem ??
        new ConfigError('no API key: set REVIMPORT_API_KEY, or apiKeyFile in the config'),
    );
  // Whatever else a push checks before its first request.
  if (problems.length === 0) collect(() => requireTarget(settings));
  if (problems.length === 0) return undefined;
  const hints = problems.flatMap((problem) => (problem.hint ? [problem.hint] : []));
  return new ConfigError(`a real push would stop: ${problems.map((problem) => problem.message).join('; ')}`, {
    ...(hints.length > 0 ? { hint: hints.join('; ') } : {}),
  });
}

export async function pushCommand(
  files: string[],
  raw: Record<string, unknown>,
  context: CommandContext,
): Promise<number> {
  const check = raw.check === true;
  return reported(raw, context, check, async (known) => {
    const prepared = await prepare(raw, context, !check);
    known.prepared = prepared;
    const { settings, flags } = prepared;
    if (files.filter((f) => f === '-').length > 1) throw new UsageError('stdin (-) can be given only once');
    // Every input must be readable and every output writable before anything is sent: exit 2 then means
    // nothing was sent.
    for (const file of files) {
      if (file === '-') continue;
      try {
        accessSync(path.resolve(context.io.cwd, file), constants.R_OK);
      } catch (error) {
        throw new ConfigError(`cannot read ${file}: ${describeSystemError(error)}`);
      }
    }
    if (settings.rejectsPath) checkRejectsPath(rejectsPathOf(settings.rejectsPath, check ? 'check' : '0'));
    const emit = typeof raw.emit === 'string' ? path.resolve(context.io.cwd, raw.emit) : undefined;
    if (emit !== undefined) {
      if (!check) {
        throw new UsageError(
          '--emit goes with --check: it writes what a push would send, instead of sending it',
          {
            hint: 'run push --check --emit <file.jsonl>, look at the file, then push',
          },
        );
      }
      checkEmitPath(emit);
    }
    if (!check) {
      checkLedgerPath(settings.statePath, besideConfig(prepared.ledger));
      requireTarget(settings);
    }
    const delivery = check ? checkDelivery(prepared) : undefined;
    if (delivery === 'no baseUrl' && prepared.mode !== 'quiet') {
      context.io.stderr.write(
        'delivery settings not checked: no baseUrl (set baseUrl, REVIMPORT_BASE_URL or --base-url to check the URL and key too)\n',
      );
    }
    if (settings.maxInvalid && files.includes('-') && !check) {
      throw new UsageError('--max-invalid reads the input twice and cannot be used with stdin (-)', {
        hint: 'save the input to a file first',
      });
    }
    return execute(prepared, context, {
      command: 'push',
      files,
      check,
      resend: flags.resend === undefined ? false : flags.resend === 'changed' ? 'changed' : 'all',
      onLedger: (facts) => {
        known.ledger = facts;
      },
      ...(emit ? { emit } : {}),
      ...(delivery instanceof Error ? { deliveryProblem: delivery } : {}),
    }).catch((error: unknown) => {
      const origin = {
        configFile: prepared.configFile,
        mappingFile: flags.mapping,
        preset: settings.mapping?.preset,
        cwd: context.io.cwd,
      };
      throw withoutConfig(namingConfig(error, origin), prepared, context.io.cwd);
    });
  });
}

export async function retryCommand(raw: Record<string, unknown>, context: CommandContext): Promise<number> {
  return reported(raw, context, false, async (known) => {
    const prepared = { ...(await prepare(raw, context)), command: 'retry' as const };
    known.prepared = prepared;
    if (prepared.settings.rejectsPath) checkRejectsPath(rejectsPathOf(prepared.settings.rejectsPath, '0'));
    checkLedgerPath(prepared.settings.statePath, besideConfig(prepared.ledger));
    if (!prepared.settings.baseUrl) {
      const { retryWithoutTarget } = await import('./retry-targets.js');
      throw await retryWithoutTarget(raw, context);
    }
    requireTarget(prepared.settings);
    return execute(prepared, context, {
      command: 'retry',
      files: [],
      check: false,
      resend: false,
      onLedger: (facts) => {
        known.ledger = facts;
      },
    });
  });
}

/** The config file, when the ledger is the default beside it: no flag, variable or `state` chose it. */
function besideConfig(ledger: LedgerChoice): string | undefined {
  return ledger.from === 'default' ? ledger.configFile : undefined;
}

interface Execution {
  command: 'push' | 'retry';
  files: string[];
  check: boolean;
  resend: RunOptions['resend'];
  /** --check: what a real push would refuse; reported after the rows, exit 2. */
  deliveryProblem?: RevimportError;
  /** --check --emit: the file each record that would be sent is written to, as a JSON line. */
  emit?: string;
  /** Told what the run found on taking the ledger (for the --json line). */
  onLedger?: (facts: LedgerFacts) => void;
}

interface Outcome {
  summary: Summary;
  exitCode: number;
}

/** What a run has settled so far, for its --json line also when an error ends it. */
interface Known {
  prepared?: PreparedRun;
  ledger?: LedgerFacts;
}

/**
 * Runs `body` and prints its result: under --json one object per run, also when an error ended it
 * before it counted anything (a missing file, no key, a bad URL), so a cron log has a line for every run.
 */
async function reported(
  raw: Record<string, unknown>,
  context: CommandContext,
  check: boolean,
  body: (known: Known) => Promise<Outcome>,
): Promise<number> {
  const stamp = stampRun();
  const known: Known = {};
  const target = () =>
    publicTarget(
      known.prepared?.settings.baseUrl ??
        (typeof raw.baseUrl === 'string' ? raw.baseUrl : context.io.env.REVIMPORT_BASE_URL),
    );
  const json = raw.json === true;
  const quiet = raw.quiet === true;
  const { io } = context;
  let outcome: Outcome;
  try {
    outcome = await body(known);
  } catch (thrown) {
    // The run ended early (a refused key, an unreadable later file): what it did is still the result.
    const partial = (thrown as ErrorWithSummary).summary;
    // A ledger that could not be written (full disk...) stops the run as a delivery that cannot go on.
    const error = ledgerStorageError(thrown, known.prepared?.settings.statePath);
    const exitCode = signalExitCode(context) ?? exitCodeForError(error);
    const finishedAt = new Date();
    if (json) {
      const line = runJson(stamp, {
        finishedAt,
        summary: partial,
        check,
        exitCode,
        target: target(),
        error,
        ledger: known.ledger,
      });
      io.stdout.write(`${JSON.stringify(line)}\n`);
    } else if (partial) {
      const text = renderSummary(timedRun(partial, stamp, finishedAt), known.prepared ?? {});
      (quiet ? io.stderr : io.stdout).write(text);
    }
    throw error;
  }
  const { exitCode } = outcome;
  const finishedAt = new Date();
  // The text's seconds are the --json line's durationMs: the whole run, not the pipeline alone.
  const summary = timedRun(outcome.summary, stamp, finishedAt);
  if (json) {
    const line = runJson(stamp, {
      summary,
      check,
      exitCode,
      target: target(),
      ledger: known.ledger,
      finishedAt,
    });
    io.stdout.write(`${JSON.stringify(line)}\n`);
  } else if (!quiet) io.stdout.write(renderSummary(summary, known.prepared ?? {}));
  else if (exitCode !== ExitCode.ok) io.stderr.write(renderSummary(summary, known.prepared ?? {}));
  return exitCode;
}

async function execute(prepared: PreparedRun, context: CommandContext, run: Execution): Promise<Outcome> {
  const { settings, flags, mode } = prepared;
  const { io } = context;
  const now = () => performance.now();
  if (mode === 'verbose') {
    // Which config and which ledger (issue 19): a run by hand and the same run from cron must agree on both.
    const [config, ledger] = describeLedgerChoice(prepared.ledger);
    io.stderr.write(`${config}\n`);
    if (!run.check) {
      io.stderr.write(`${ledger}\n`);
      // Which key this run uses, as history records it: a rotation is visible (issue 19), never the key.
      const target = targetOf(settings.baseUrl!, settings.apiKey!, settings.account);
      io.stderr.write(`target: ${targetLabel(target)}, key ${target.keyFingerprint}\n`);
      const line = describeProxy(
        chooseProxy(checkUrl(settings.baseUrl!, settings.allowHttp), settings.proxy),
      );
      if (line) io.stderr.write(`${line}\n`);
    }
  }
  const progress = await createProgress(io, mode, now, {
    spinner: flags.progress !== false,
    inputBytes: sizeOfInputs(run.files),
    intervalMs: Number(flags.progressInterval ?? defaultProgressIntervalS) * 1000,
  });
  for (const warning of prepared.warnings) progress.warn(warning);
  // The run's id is known once it holds the ledger; the file is named and opened at its first row, after that.
  // --check records no run: its rows are marked `check`.
  let runLabel = run.check ? 'check' : 'unrecorded';
  const template = settings.rejectsPath;
  const rejects = template
    ? openRejects(() => rejectsPathOf(template, runLabel), {
        maxRows: settings.limits.maxRejects,
        run: () => runLabel,
      })
    : undefined;
  const base = { stdin: io.stdin, userAgent: `revimport/${version}`, now, signal: context.signal };
  const checkOnly: RunOptions = { files: run.files, check: true, resend: false };
  const exitCodeOf = (summary: Summary) => exitCodeOfRun(summary, run, settings, context);

  const produce = async (): Promise<Summary> => {
    if (run.check) {
      if (!run.emit) return runPipeline(settings, checkOnly, { ...base, rejects }, progress.hooks);
      // Each record exactly as a push would send it, with where it came from: inspect before sending.
      const fd = openSync(run.emit, 'w', 0o600);
      try {
        const onValid = (record: ConversionRecord, file: string, line: number) => {
          writeSync(fd, `${JSON.stringify({ file, line, record })}\n`);
        };
        return await runPipeline(settings, checkOnly, { ...base, rejects }, { ...progress.hooks, onValid });
      } finally {
        closeSync(fd);
      }
    }
    const { withLedger } = await import('./ledger-session.js');
    await adoptUserLedger(prepared.ledger, io.env, {
      waitMs: Number(flags.wait ?? 0) * 1000,
      signal: context.signal,
      notice: (message) => progress.warn(message),
    });
    // The run is recorded in the ledger (history) from here on, the --max-invalid pass included.
    return withLedger(
      settings,
      run,
      flags.wait,
      async (ledger, facts) => {
        // The ledger is held: from here a signal lets requests in flight finish (not while waiting for the lock).
        progress.announceStop(context.signal);
        run.onLedger?.(facts);
        runLabel = String(ledger.runId);
        if (facts.firstRun) progress.warn(firstRunNotice(publicTarget(settings.baseUrl), facts.location));
        let pushRejects = rejects;
        if (settings.maxInvalid) {
          // Validate first, then send: a broken export or mapping must not half-import.
          const pass = await runPipeline(
            settings,
            checkOnly,
            { ...base, rejects, known: facts.known },
            { onWarning: progress.hooks.onWarning },
          );
          const exceeded = budgetExceeded(settings, pass);
          if (exceeded) return { ...pass, check: false, totals: {}, aborted: exceeded };
          // The invalid rows are in the rejects file already; the push pass adds only the server's refusals.
          pushRejects = rejects && withoutInvalid(rejects);
        }
        return runPipeline(
          settings,
          run,
          { ...base, rejects: pushRejects, ledger, known: facts.known },
          progress.hooks,
        );
      },
      exitCodeOf,
      context.signal,
      (message) => progress.warn(message),
    );
  };

  let summary: Summary;
  let capped: string | undefined;
  try {
    summary = await produce();
  } finally {
    capped = rejects && rejectsCapWarning(settings, rejects);
    if (capped) progress.warn(capped);
    progress.stop();
    await rejects?.close();
  }
  if (capped) summary.warnings.push(capped);
  // --check: exit 2 before 1, after the rows' report, so the user sees both at once.
  if (run.deliveryProblem && !context.signal.aborted) {
    throw Object.assign(run.deliveryProblem, { summary } satisfies ErrorWithSummary);
  }
  return { summary, exitCode: exitCodeOf(summary) };
}

/** --rejects with its `{date}` (today, local) and `{runId}` filled in (issue 20: a file per day or per run). */
function rejectsPathOf(template: string, runId: string): string {
  return resolveRejectsPath(template, { date: localDay(new Date()), runId });
}

function signalExitCode(context: CommandContext): number | undefined {
  // SIGINT/SIGTERM: the signal's own code (main aborts with it as the reason).
  if (!context.signal.aborted) return undefined;
  return typeof context.signal.reason === 'number' ? context.signal.reason : ExitCode.interrupted;
}

function exitCodeOfRun(
  summary: Summary,
  run: Execution,
  settings: Settings,
  context: CommandContext,
): number {
  const signalled = signalExitCode(context);
  if (signalled !== undefined) return signalled;
  // Invalid rows within --max-invalid are accepted, as bq load's max bad records: exit 0 (issue 13).
  const allowed = summary.aborted === undefined ? allowedInvalid(settings, summary) : 0;
  if (run.check) return newInvalid(summary) > allowed ? ExitCode.partial : ExitCode.ok;
  return exitCodeFor(summary, allowed);
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

/** How many invalid rows --max-invalid accepts in a run of `pass` (0 without a budget). */
export function allowedInvalid(settings: Settings, pass: Summary): number {
  const budget = settings.maxInvalid;
  if (!budget) return 0;
  // A share of the conversions: line items folded into their order are not rows that can be invalid.
  return budget.kind === 'count' ? budget.max : (budget.max / 100) * (pass.rowsRead - pass.folded);
}

/**
 * Why the --max-invalid budget is exceeded, if it is. Only new invalid rows count against it: rows an earlier
 * run reported (knownInvalid) were counted against that run's budget already (issue 20).
 */
export function budgetExceeded(settings: Settings, pass: Summary): string | undefined {
  const budget = settings.maxInvalid;
  if (!budget) return undefined;
  const allowed = allowedInvalid(settings, pass);
  const fresh = newInvalid(pass);
  if (fresh <= allowed) return undefined;
  const limit = budget.kind === 'count' ? `${budget.max}` : `${budget.max}% (${Math.floor(allowed)} rows)`;
  const known = pass.knownInvalid > 0 ? ` (besides ${pass.knownInvalid} reported by earlier runs)` : '';
  return `${fresh} invalid rows${known} exceed --max-invalid ${limit}; nothing was sent`;
}
