// A push or retry's settings: its flags checked, the config, mapping file and key file read, and the
// Settings resolved; what a real push needs to deliver, and what --check reports a push would refuse.
import path from 'node:path';
import { z } from 'zod';
import { isReadableByOthers, loadConfig, loadMappingFile, readKeyFile } from '../../config/load.js';
import { type PushFlags, resolveSettings } from '../../config/resolve.js';
import type { Settings } from '../../config/settings.js';
import { ConfigError, isRevimportError, type RevimportError, UsageError } from '../../errors.js';
import { checkUrl } from '../../transport/client.js';
import { chooseProxy } from '../../transport/proxy.js';
import type { CommandContext } from '../context.js';
import type { OutputMode } from '../progress.js';
import { defaultLedger, type LedgerChoice } from './ledger-location.js';

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
    /** --accept-shift: send a run the value guard would stop (issue 25; settings.guard.acceptShift). */
    acceptShift: z.boolean().optional(),
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

/** Everything a real push needs beyond --check: where to send, with which key. */
export function requireTarget(settings: Settings): { baseUrl: string; apiKey: string } {
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

/** The config file, when the ledger is the default beside it: no flag, variable or `state` chose it. */
export function besideConfig(ledger: LedgerChoice): string | undefined {
  return ledger.from === 'default' ? ledger.configFile : undefined;
}
