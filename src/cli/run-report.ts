// The --json object of one run: the summary plus which run it was, when, against what, and how it ended.
// Every push, retry and --check prints one, runs ended early by an error included, so a cron job's
// `>> revimport.jsonl` log holds one line per run that can be read back (issue 13).
import { randomUUID } from 'node:crypto';
import { isRevimportError } from '../errors.js';
import { emptySummary, type Summary } from '../report/summary.js';
import { summaryJson } from './render.js';
import { version } from './version.js';

/** What identifies a run before it has a result. */
export interface RunStamp {
  /** A UUID per invocation: it tells apart two runs started in the same second. */
  readonly runId: string;
  readonly startedAt: Date;
}

/**
 * The run starts when the process does (performance.timeOrigin): the summary's duration is the whole run a
 * user or cron times, module loading, the ledger lock and the --max-invalid pass included (issue 20: the
 * summary said 8.7 s for a 10.7 s run). Whole milliseconds, so `finishedAt` - `startedAt` = `durationMs`.
 */
export function stampRun(now: Date = new Date(Math.floor(performance.timeOrigin))): RunStamp {
  return { runId: randomUUID(), startedAt: now };
}

/** The summary timed as the whole run: from the stamp to `finishedAt`, the same instants --json prints. */
export function timedRun(summary: Summary, stamp: RunStamp, finishedAt: Date): Summary {
  return { ...summary, durationMs: finishedAt.getTime() - stamp.startedAt.getTime() };
}

/**
 * The base URL as a log may show it: no user, password, query or fragment (any of them could hold a
 * secret; checkUrl refuses them anyway), no trailing slash. Null when there is none or it is not a URL.
 */
export function publicTarget(baseUrl: string | undefined): string | null {
  if (baseUrl === undefined || baseUrl.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return null;
  }
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

/** What ended a run, for the log: the message the user saw on stderr, and its kind (`usage`, `config`, `auth`...). */
export function errorJson(error: unknown): { message: string; kind: string; hint?: string } {
  if (isRevimportError(error)) {
    return { message: error.message, kind: error.kind, ...(error.hint ? { hint: error.hint } : {}) };
  }
  return { message: error instanceof Error ? error.message : String(error), kind: 'internal' };
}

export interface RunEnd {
  /** Absent when the run ended before it had counted anything: the counts are then all zero. */
  summary: Summary | undefined;
  check: boolean;
  exitCode: number;
  target: string | null;
  error?: unknown;
  finishedAt?: Date;
  /** The ledger the run took (absent when it took none: --check, an error before): ledger-session.ts. */
  ledger?: { readonly location: string; readonly firstRun: boolean };
}

/**
 * The one-line --json object: run facts first (they are what a log reader filters on), then the summary.
 * `ledger` is null and `firstRunOnLedger` false for a run that took no ledger.
 */
export function runJson(stamp: RunStamp, end: RunEnd): Record<string, unknown> {
  const finishedAt = end.finishedAt ?? new Date();
  return {
    runId: stamp.runId,
    startedAt: stamp.startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    version,
    target: end.target,
    exitCode: end.exitCode,
    ...(end.error === undefined ? {} : { error: errorJson(end.error) }),
    // Which ledger, and whether it had never recorded this target (issue 19): a by-hand run and a cron run
    // on different ledgers show in the log as two ledgers, the second with firstRunOnLedger true.
    ledger: end.ledger?.location ?? null,
    firstRunOnLedger: end.ledger?.firstRun ?? false,
    // durationMs is exactly finishedAt - startedAt (issue 20), whatever the pipeline timed.
    ...summaryJson(timedRun(end.summary ?? emptySummary(end.check), stamp, finishedAt)),
  };
}
