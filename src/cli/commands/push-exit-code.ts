// The exit code of a push or retry: a signal's own code first, then the --max-invalid budget (how many
// invalid rows it accepts, and whether a pass exceeded it), then exitCodeFor.
import type { Settings } from '../../config/settings.js';
import type { Summary } from '../../report/summary.js';
import { ExitCode, exitCodeFor, newInvalid } from '../exit-codes.js';

/** SIGINT/SIGTERM: the signal's own code (main aborts with it as the reason); undefined while not stopped. */
export function signalExitCode(signal: AbortSignal): number | undefined {
  if (!signal.aborted) return undefined;
  return typeof signal.reason === 'number' ? signal.reason : ExitCode.interrupted;
}

export function exitCodeOfRun(
  summary: Summary,
  check: boolean,
  settings: Settings,
  signal: AbortSignal,
): number {
  const signalled = signalExitCode(signal);
  if (signalled !== undefined) return signalled;
  // Invalid rows within --max-invalid are accepted, as bq load's max bad records: exit 0 (issue 13).
  const allowed = summary.aborted === undefined ? allowedInvalid(settings, summary) : 0;
  if (check) return newInvalid(summary) > allowed ? ExitCode.partial : ExitCode.ok;
  return exitCodeFor(summary, allowed);
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
