// `revimport push <files...>` and `revimport retry`: argv -> settings (push-prepare.ts) -> the run holding
// the ledger (push-run.ts) -> the summary and exit code printed (push-report.ts).
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { ConfigError, NoPresetError, UsageError } from '../../errors.js';
import type { ErrorWithSummary } from '../../pipeline/types.js';
import type { CommandContext } from '../context.js';
import { checkEmitPath, checkLedgerPath, checkRejectsPath, checkReportPath } from '../output-paths.js';
import type { ReportFacts } from '../report-facts.js';
import { describeSystemError } from '../system-errors.js';
import { installZoneClock } from '../zone-clock.js';
import { namingConfig } from './named-config.js';
import { besideConfig, checkDelivery, type PreparedRun, prepare, requireTarget } from './push-prepare.js';
import { reported } from './push-report.js';
import { execute, rejectsPathOf } from './push-run.js';

// Kept here for the modules and tests that import them from the command.
export { allowedInvalid, budgetExceeded } from './push-exit-code.js';
export { checkDelivery, type PreparedRun, prepare } from './push-prepare.js';

export async function pushCommand(
  files: string[],
  raw: Record<string, unknown>,
  context: CommandContext,
): Promise<number> {
  const check = raw.check === true;
  installZoneClock();
  return reported(raw, context, check, async (known) => {
    const prepared = await prepare(raw, context, !check);
    known.prepared = prepared;
    const emit = checkPushPaths(files, raw.emit, prepared, context.io.cwd, check);
    Object.assign(known.report, { command: check ? 'push --check' : 'push', files });
    reportTo(known.report, raw.report, prepared, context.io.cwd);
    const delivery = check ? checkDelivery(prepared) : undefined;
    if (delivery === 'no baseUrl' && prepared.mode !== 'quiet') {
      context.io.stderr.write(
        'delivery settings not checked: no baseUrl (set baseUrl, REVIMPORT_BASE_URL or --base-url to check the URL and key too)\n',
      );
    }
    const { flags } = prepared;
    return execute(prepared, context, {
      command: 'push',
      files,
      check,
      resend: flags.resend === undefined ? false : flags.resend === 'changed' ? 'changed' : 'all',
      report: known.report,
      onLedger: (facts) => {
        known.ledger = facts;
      },
      ...(emit ? { emit } : {}),
      ...(delivery instanceof Error ? { deliveryProblem: delivery } : {}),
    }).catch((error: unknown) => {
      throw explained(error, prepared, context.io.cwd);
    });
  });
}

export async function retryCommand(raw: Record<string, unknown>, context: CommandContext): Promise<number> {
  installZoneClock();
  return reported(raw, context, false, async (known) => {
    const prepared = { ...(await prepare(raw, context)), command: 'retry' as const };
    known.prepared = prepared;
    known.report.command = 'retry';
    reportTo(known.report, undefined, prepared, context.io.cwd);
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
      report: known.report,
      onLedger: (facts) => {
        known.ledger = facts;
      },
    });
  });
}

/** `--report <file.html>`: checked writable before anything is sent; the key kept out of every text of it. */
function reportTo(facts: ReportFacts, flag: unknown, prepared: PreparedRun, cwd: string): void {
  facts.apiKey = prepared.settings.apiKey;
  if (typeof flag !== 'string') return;
  const out = path.resolve(cwd, flag);
  checkReportPath(out, '--report');
  facts.out = out;
}

/**
 * Every input must be readable and every output writable before anything is sent: exit 2 then means
 * nothing was sent. Returns the --emit file, resolved.
 */
function checkPushPaths(
  files: string[],
  emitFlag: unknown,
  prepared: PreparedRun,
  cwd: string,
  check: boolean,
): string | undefined {
  const { settings } = prepared;
  if (files.filter((f) => f === '-').length > 1) throw new UsageError('stdin (-) can be given only once');
  for (const file of files) {
    if (file === '-') continue;
    try {
      accessSync(path.resolve(cwd, file), constants.R_OK);
    } catch (error) {
      throw new ConfigError(`cannot read ${file}: ${describeSystemError(error)}`);
    }
  }
  if (settings.rejectsPath) checkRejectsPath(rejectsPathOf(settings.rejectsPath, check ? 'check' : '0'));
  const emit = typeof emitFlag === 'string' ? checkEmit(path.resolve(cwd, emitFlag), check) : undefined;
  if (check) return emit;
  checkLedgerPath(settings.statePath, besideConfig(prepared.ledger));
  requireTarget(settings);
  if (settings.maxInvalid && files.includes('-')) {
    throw new UsageError('--max-invalid reads the input twice and cannot be used with stdin (-)', {
      hint: 'save the input to a file first',
    });
  }
  return emit;
}

function checkEmit(emit: string, check: boolean): string {
  if (!check) {
    throw new UsageError(
      '--emit goes with --check: it writes what a push would send, instead of sending it',
      {
        hint: 'run push --check --emit <file.jsonl>, look at the file, then push',
      },
    );
  }
  checkEmitPath(emit);
  return emit;
}

/** A run's error with the config file, mapping or preset it came from, and a missing config said first. */
function explained(error: unknown, prepared: PreparedRun, cwd: string): unknown {
  const origin = {
    configFile: prepared.configFile,
    mappingFile: prepared.flags.mapping,
    preset: prepared.settings.mapping?.preset,
    cwd,
  };
  return withoutConfig(namingConfig(error, origin), prepared, cwd);
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
