// Settings: the fully resolved, normalized options a run works with (what resolve.ts produces).
import type { ProxySettings } from '../transport/proxy.js';
import type { WrittenMapping } from './schema.js';

export type ErrorBudget = { kind: 'count'; max: number } | { kind: 'percent'; max: number };

export interface Settings {
  /** `{baseUrl}` without a trailing slash; undefined is only allowed with --check. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /**
   * The CRM account at `baseUrl` the ledger keeps history for ('' by default): needed only where one URL
   * serves several accounts (`account` / --account / REVIMPORT_ACCOUNT). Keys of one account share it.
   */
  account: string;
  /** The user's mapping (preset name and overrides); undefined = detect a preset from each file's header. */
  mapping: WrittenMapping | undefined;
  /** Absolute path of mapping.lookup's file (the mapping keeps it as written, for messages). */
  lookupPath: string | undefined;
  /** Absolute path of the rejects file, if any. */
  rejectsPath: string | undefined;
  /** Absolute ledger path, or a PostgreSQL URL (`postgres://...`) kept as written. */
  statePath: string;
  /** A file holding the PostgreSQL ledger's password (`statePasswordFile`, REVIMPORT_STATE_PASSWORD_FILE). */
  statePasswordFile?: string;
  batchSize: number;
  concurrency: number;
  /**
   * Resends per request body at most (`--retries`, `retries`); undefined: no cap, the time budget alone ends
   * the retries (issue 20: a count of 5 gave up within 7 s of a 30% share of 5xx, under a 300 s budget).
   */
  retries: number | undefined;
  /** How long one body may be retried, from its first failure (`--max-retry-time`); spent, the run stops (exit 4). */
  maxRetryTimeMs: number;
  timeoutMs: number;
  ratePerSec: number | undefined;
  maxInvalid: ErrorBudget | undefined;
  /** Default IANA zone for local times (`--timezone` / config `timezone`). */
  timezone: string | undefined;
  /** Default currency (`--currency` / config `currency`). */
  currency: string | undefined;
  allowNegative: boolean;
  /**
   * `net`: values less what the mapping's `refunded` column says was refunded; `gross`: as written;
   * `adjust`: net, and a later change of a delivered order's value is sent as an adjustment record.
   */
  refunds: 'net' | 'gross' | 'adjust';
  /** Write skipped rows to the rejects file too. */
  rejectsSkipped: boolean;
  /** Write rows an earlier run reported (knownInvalid, knownRefused) to the rejects file again (issue 20). */
  reportKnown: boolean;
  /** Plausible conversion instants: not before `earliestMs`, not more than `futureMs` after the run starts. */
  earliestMs: number;
  futureMs: number;
  allowHttp: boolean;
  /** Where a proxy may come from: --proxy/--no-proxy > *_proxy variables > the `proxy` key (transport/proxy.ts). */
  proxy: ProxySettings;
  delimiter: string | undefined;
  format: 'csv' | 'jsonl' | undefined;
  encoding: string | undefined;
  /** From a JS config: a last say over each mapped candidate. */
  transform: ((row: Record<string, unknown>) => unknown) | undefined;
  /** What one input may cost at most (config `maxRowBytes`, `maxGzipRatio`, `maxRejects`). */
  limits: Limits;
  /** The value guard (config `guard`, flag --accept-shift; issue 25). */
  guard: GuardSettings;
}

/** The value guard's thresholds (README "Value guard"); each is a key of the config's `guard`. */
export interface GuardSettings {
  enabled: boolean;
  /** A median off by this factor or more, either way, is a shift. */
  medianFactor: number;
  /** A rise of the zero share by this much (absolute, 0..1) is a shift. */
  zeroShareJump: number;
  /** Fewer delivered records of a currency than this: no history, nothing said about it. */
  minHistory: number;
  /** Fewer valid records of a currency in the run than this: its median and zero share are not judged. */
  minRun: number;
  /** Valid records held before the guard decides. */
  holdRecords: number;
  /** --accept-shift: a shift found is reported and the run sends anyway (verdict `accepted`). */
  acceptShift: boolean;
}

/**
 * Bounds on what an input may cost, so that a hostile or broken file ends with a message instead of
 * running for ever or filling the disk (issue 24). Each is a config key of the same name.
 */
export interface Limits {
  /**
   * The longest CSV row or JSON line, in bytes. A longer data row is invalid and the run goes on; a longer
   * row above the header (the header line itself, a preamble line, the first JSON line) ends the run.
   */
  maxRowBytes: number;
  /** A gzip input may inflate to this many times the compressed bytes read (past the first 16 MiB). */
  maxGzipRatio: number;
  /** Rows written to the rejects file at most; later rejections are counted, not written. */
  maxRejects: number;
}

export const defaults = {
  batchSize: 500,
  concurrency: 4,
  maxRetryTimeMs: 300_000,
  timeoutMs: 30_000,
  /** 2000-01-01T00:00:00Z: earlier conversion times are placeholders (`01/01/1970`) or typos. */
  earliestMs: 946_684_800_000,
  futureMs: 24 * 3_600_000,
  limits: {
    maxRowBytes: 1024 * 1024,
    /** Exports compress 5-50 times (46 for 60 columns of zeros); a bomb of repeated rows, 300 and more. */
    maxGzipRatio: 100,
    maxRejects: 100_000,
  } satisfies Limits,
  guard: {
    enabled: true,
    medianFactor: 10,
    zeroShareJump: 0.2,
    minHistory: 20,
    /** One large or free order in a small run is no shift (a run of 1 at 12x the median stopped cron). */
    minRun: 5,
    /** Nearly every real export is held whole; a bigger one is decided on its first 20,000 records. */
    holdRecords: 20_000,
    acceptShift: false,
  } satisfies GuardSettings,
} as const;
