// Pure: (flags, environment, config file, mapping file) -> Settings plus warnings for the CLI to print.
// Precedence, highest first: flag > environment > config file > preset > built-in default.
import path from 'node:path';
import { UsageError } from '../errors.js';
import { checkAccountName } from '../ledger/accounts.js';
import { isPostgresUrl } from '../ledger/paths.js';
import { normalizeCurrency } from '../record/currency.js';
import { createDatetimeParser } from '../record/datetime.js';
import { canonicalZone } from '../record/zone.js';
import { proxyEnv } from '../transport/proxy.js';
import type { WrittenConfig, WrittenMapping } from './schema.js';
import { defaults, type ErrorBudget, type Settings } from './settings.js';

/** Raw push/retry flags after commander, before validation. */
export interface PushFlags {
  baseUrl?: string;
  account?: string;
  rejects?: string;
  state?: string;
  batchSize?: string;
  concurrency?: string;
  retries?: string;
  maxRetryTime?: string;
  timeout?: string;
  rate?: string;
  maxInvalid?: string;
  timezone?: string;
  currency?: string;
  allowNegative?: boolean;
  refunds?: string;
  rejectsSkipped?: boolean;
  reportKnown?: boolean;
  allowHttp?: boolean;
  /** `--proxy <url>`; false from `--no-proxy`. */
  proxy?: string | false;
  delimiter?: string;
  format?: string;
  encoding?: string;
  preset?: string;
  /** --accept-shift: send a run the value guard would stop (issue 25). */
  acceptShift?: boolean;
}

export interface ResolveInput {
  flags: PushFlags;
  env: Record<string, string | undefined>;
  config: WrittenConfig;
  /** Folder of the config file (relative paths in it resolve here). */
  configDir: string;
  cwd: string;
  /** From `-m/--mapping`, replacing the config's mapping. */
  mappingFile?: WrittenMapping;
  /** The key read from apiKeyFile, if the config names one (the CLI reads the file). */
  keyFromFile?: string;
  /**
   * The ledger when no flag, REVIMPORT_STATE or `state` names one, computed by the caller: beside the config
   * file when there is one, else the user's XDG state folder (ledger/paths.ts).
   */
  defaultStatePath: string;
}

/** Where the ledger came from: `--state`, REVIMPORT_STATE, the config's `state`, or the caller's default. */
export type StateSource = 'flag' | 'env' | 'config' | 'default';

export interface Resolved {
  settings: Settings;
  warnings: string[];
  /** Which of the four gave `settings.statePath` (for `-v` and for the messages about the ledger). */
  stateFrom: StateSource;
}

export function resolveSettings(input: ResolveInput): Resolved {
  const { flags, env, config } = input;
  const warnings: string[] = [];
  const fromConfig = (p: string | undefined) =>
    p === undefined ? undefined : path.resolve(input.configDir, p);
  const fromCwd = (p: string | undefined) => (p === undefined ? undefined : path.resolve(input.cwd, p));
  const apiKey = apiKeySetting(input, warnings);
  const { mapping, lookupPath } = mappingSettings(input);
  const baseUrl = flags.baseUrl ?? nonEmpty(env.REVIMPORT_BASE_URL) ?? config.baseUrl;
  const format = formatSetting(flags.format ?? config.format);
  const state = stateSetting(input, fromCwd, fromConfig);
  // The groups are spread in the order Settings always had, so errors come in the same order too.
  const settings: Settings = {
    baseUrl: baseUrl?.replace(/\/+$/, ''),
    apiKey,
    account: accountSetting(flags.account ?? nonEmpty(env.REVIMPORT_ACCOUNT) ?? config.account),
    mapping,
    lookupPath,
    rejectsPath: fromCwd(flags.rejects) ?? fromConfig(config.rejects),
    statePath: state.value,
    statePasswordFile:
      fromCwd(nonEmpty(env.REVIMPORT_STATE_PASSWORD_FILE)) ?? fromConfig(config.statePasswordFile),
    ...deliverySettings(flags, config),
    ...recordSettings(flags, config),
    allowHttp: flags.allowHttp ?? config.allowHttp ?? false,
    proxy: { flag: flags.proxy, config: config.proxy, env: proxyEnv(env) },
    ...inputSettings(flags, config, format),
    guard: guardSettings(flags, config),
  };
  return { settings, warnings, stateFrom: state.from };
}

/** REVIMPORT_API_KEY, else apiKeyFile, else the config's apiKey (with a warning: it sits in plain text). */
function apiKeySetting({ env, keyFromFile, config }: ResolveInput, warnings: string[]): string | undefined {
  const apiKey = nonEmpty(env.REVIMPORT_API_KEY) ?? keyFromFile;
  if (apiKey !== undefined || config.apiKey === undefined) return apiKey;
  warnings.push(
    'the API key is written in the config file: prefer REVIMPORT_API_KEY or apiKeyFile (a file with mode 0600)',
  );
  return config.apiKey;
}

function mappingSettings(input: ResolveInput): Pick<Settings, 'mapping' | 'lookupPath'> {
  let mapping = input.mappingFile ?? input.config.mapping;
  if (input.flags.preset) mapping = { fields: {}, defaults: {}, ...mapping, preset: input.flags.preset };
  // The lookup file is named relative to the config file (a -m mapping file: the working directory);
  // messages keep naming it as written.
  const lookupPath =
    mapping?.lookup === undefined
      ? undefined
      : path.resolve(input.mappingFile ? input.cwd : input.configDir, mapping.lookup.file);
  return { mapping, lookupPath };
}

function formatSetting(format: string | undefined): Settings['format'] {
  if (format !== undefined && format !== 'csv' && format !== 'jsonl') {
    throw new UsageError(`--format must be csv or jsonl, not "${format}"`);
  }
  return format;
}

/**
 * A PostgreSQL URL is kept as written; a path is resolved like the other paths. Flag > environment >
 * config file, as everywhere: an image's config naming a local file must not override the REVIMPORT_STATE
 * a CronJob sets (it did: every run of such a job resent everything into a fresh file).
 */
function stateSetting(
  { flags, env, config, defaultStatePath }: ResolveInput,
  fromCwd: (p: string | undefined) => string | undefined,
  fromConfig: (p: string | undefined) => string | undefined,
): { from: StateSource; value: string } {
  return (
    firstOf<StateSource>([
      ['flag', keepUrl(flags.state, fromCwd)],
      ['env', keepUrl(nonEmpty(env.REVIMPORT_STATE), fromCwd)],
      ['config', keepUrl(config.state, fromConfig)],
    ]) ?? { from: 'default', value: defaultStatePath }
  );
}

type DeliverySettings = Pick<
  Settings,
  'batchSize' | 'concurrency' | 'retries' | 'maxRetryTimeMs' | 'timeoutMs' | 'ratePerSec'
>;

function deliverySettings(flags: PushFlags, config: WrittenConfig): DeliverySettings {
  return {
    batchSize: intFlag('--batch-size', flags.batchSize, 1, 100_000) ?? config.batchSize ?? defaults.batchSize,
    concurrency:
      intFlag('--concurrency', flags.concurrency, 1, 64) ?? config.concurrency ?? defaults.concurrency,
    retries: intFlag('--retries', flags.retries, 0, 50) ?? config.retries,
    maxRetryTimeMs: seconds(
      '--max-retry-time',
      flags.maxRetryTime,
      config.maxRetryTime,
      defaults.maxRetryTimeMs,
    ),
    timeoutMs: seconds('--timeout', flags.timeout, config.timeout, defaults.timeoutMs),
    ratePerSec: numberFlag('--rate', flags.rate) ?? config.rate,
  };
}

type RecordSettings = Pick<
  Settings,
  | 'maxInvalid'
  | 'timezone'
  | 'currency'
  | 'allowNegative'
  | 'refunds'
  | 'rejectsSkipped'
  | 'reportKnown'
  | 'earliestMs'
  | 'futureMs'
>;

function recordSettings(flags: PushFlags, config: WrittenConfig): RecordSettings {
  return {
    maxInvalid: parseBudget(flags.maxInvalid ?? config.maxInvalid),
    timezone: zoneSetting(flags.timezone ?? config.timezone, flags.timezone ? '--timezone' : 'timezone'),
    currency: currencySetting(flags.currency ?? config.currency, flags.currency ? '--currency' : 'currency'),
    allowNegative: flags.allowNegative ?? config.allowNegative ?? false,
    refunds: refundsSetting(flags.refunds ?? config.refunds),
    rejectsSkipped: flags.rejectsSkipped ?? config.rejectsSkipped ?? false,
    reportKnown: flags.reportKnown ?? config.reportKnown ?? false,
    earliestMs: earliestSetting(config.earliest),
    futureMs: config.futureHours === undefined ? defaults.futureMs : config.futureHours * 3_600_000,
  };
}

function inputSettings(
  flags: PushFlags,
  config: WrittenConfig,
  format: Settings['format'],
): Pick<Settings, 'delimiter' | 'format' | 'encoding' | 'transform' | 'limits'> {
  return {
    delimiter: normalizeDelimiter(flags.delimiter ?? config.delimiter),
    format,
    encoding: flags.encoding ?? config.encoding,
    transform: config.transform,
    limits: {
      maxRowBytes: config.maxRowBytes ?? defaults.limits.maxRowBytes,
      maxGzipRatio: config.maxGzipRatio ?? defaults.limits.maxGzipRatio,
      maxRejects: config.maxRejects ?? defaults.limits.maxRejects,
    },
  };
}

/** The value guard's thresholds: config `guard` over the defaults; --accept-shift for this run only. */
function guardSettings(flags: PushFlags, config: WrittenConfig): Settings['guard'] {
  const written = config.guard ?? {};
  const base = defaults.guard;
  return {
    enabled: written.enabled ?? base.enabled,
    medianFactor: written.medianFactor ?? base.medianFactor,
    zeroShareJump: written.zeroShareJump ?? base.zeroShareJump,
    minHistory: written.minHistory ?? base.minHistory,
    minRun: written.minRun ?? base.minRun,
    holdRecords: written.holdRecords ?? base.holdRecords,
    acceptShift: flags.acceptShift ?? false,
  };
}

/** The first candidate with a value, and which it was. */
function firstOf<K extends string>(
  candidates: readonly [K, string | undefined][],
): { from: K; value: string } | undefined {
  for (const [from, value] of candidates) if (value !== undefined) return { from, value };
  return undefined;
}

/** A default zone must be a real IANA zone: an unknown one would silently shift every local time. */
function zoneSetting(raw: string | undefined, name: string): string | undefined {
  if (raw === undefined) return undefined;
  const zone = canonicalZone(raw);
  if (!zone) throw new UsageError(`${name}: "${raw}" is not an IANA time zone name (e.g. Europe/Berlin)`);
  return zone;
}

function refundsSetting(raw: string | undefined): Settings['refunds'] {
  if (raw === undefined) return 'net';
  if (raw !== 'net' && raw !== 'gross' && raw !== 'adjust') {
    throw new UsageError(`--refunds must be net, gross or adjust, not "${raw}"`);
  }
  return raw;
}

/** `earliest`: an ISO date (midnight UTC) or datetime (UTC unless it carries an offset). */
function earliestSetting(raw: string | undefined): number {
  if (raw === undefined) return defaults.earliestMs;
  const parsed = createDatetimeParser(['iso'])(raw, 'UTC');
  if (!parsed.ok) {
    throw new UsageError(`earliest: "${raw}" is not an ISO date or datetime (e.g. 2000-01-01)`);
  }
  return parsed.utcMs;
}

function currencySetting(raw: string | undefined, name: string): string | undefined {
  if (raw === undefined) return undefined;
  const currency = normalizeCurrency(raw);
  if (!currency) throw new UsageError(`${name}: "${raw}" is not an ISO 4217 currency code`);
  return currency;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function numberFlag(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || raw.trim() === '') {
    throw new UsageError(`${flag} must be a positive number, not "${raw}"`);
  }
  return value;
}

function intFlag(flag: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`${flag} must be a whole number, not "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new UsageError(`${flag} must be between ${min} and ${max}, not ${raw}`);
  return value;
}

function seconds(
  flag: string,
  raw: string | undefined,
  fromConfig: number | undefined,
  fallbackMs: number,
): number {
  const value = numberFlag(flag, raw) ?? fromConfig;
  return value === undefined ? fallbackMs : Math.round(value * 1000);
}

/** `10` = at most 10 invalid rows; `2%` = at most 2% of the rows read. */
export function parseBudget(raw: string | number | undefined): ErrorBudget | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(text);
  if (!match) throw new UsageError(`--max-invalid must be a count (10) or a share (2%), not "${text}"`);
  const max = Number(match[1]);
  if (match[2] === '%') {
    if (max > 100) throw new UsageError(`--max-invalid share must be at most 100%, not ${text}`);
    return { kind: 'percent', max };
  }
  if (!Number.isInteger(max)) throw new UsageError(`--max-invalid count must be whole, not ${text}`);
  return { kind: 'count', max };
}

const delimiterWords: Record<string, string> = {
  tab: '\t',
  '\\t': '\t',
  comma: ',',
  semicolon: ';',
  pipe: '|',
};

function normalizeDelimiter(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const value = delimiterWords[raw.toLowerCase()] ?? raw;
  if (![',', ';', '\t', '|'].includes(value)) {
    throw new UsageError(`--delimiter must be one of , ; tab |, not "${raw}"`);
  }
  return value;
}

/** A `postgres://` ledger URL as it is; a path through `resolvePath`. */
/** The account name as a setting (ledger/accounts.ts says what a name may hold); '' when none is given. */
function accountSetting(name: string | undefined): string {
  if (name === undefined) return '';
  const problem = checkAccountName(name);
  if (problem) throw new UsageError(`account ${JSON.stringify(name)} ${problem}`);
  return name;
}

function keepUrl(state: string | undefined, resolvePath: (p: string | undefined) => string | undefined) {
  return state !== undefined && isPostgresUrl(state) ? state : resolvePath(state);
}
