// The exit-code table, in one place. The core never knows exit codes: it returns a Summary or throws a
// RevimportError whose `kind` is mapped here.
import { isRevimportError } from '../errors.js';
import type { Summary } from '../report/summary.js';

export const ExitCode = {
  /** Every valid row delivered (or already delivered); with --check: every row valid. */
  ok: 0,
  /**
   * Some rows newly invalid, refused by the server or changed since delivered; the rest delivered. Rows an
   * earlier run reported already (knownInvalid, knownRefused) are no reason for 1 (issue 20).
   */
  partial: 1,
  /** Usage or config error; nothing sent. */
  usage: 2,
  /** The server refused the API key (401/403); the run stopped at once. */
  auth: 3,
  /**
   * Delivery failed after retries (or the retry budget), or an answer was not the CRM's (an HTML page);
   * the records wait in the ledger for the next run.
   */
  deliveryFailed: 4,
  /** Another run holds the ledger lock. */
  locked: 5,
  /**
   * The value guard stopped the run before it sent any record of its own (issue 25): its values do not look
   * like what the target was sent before; or, past the held records, where a currency the target never had
   * appeared (what was sent before stays sent). Check them; --accept-shift sends such a run.
   */
  guardStopped: 6,
  /** A bug in revimport (BSD EX_SOFTWARE). */
  internal: 70,
  /** Stopped by SIGINT (128 + 2). */
  interrupted: 130,
  /** Stopped by SIGTERM (128 + 15). */
  terminated: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Precedence when several apply: 4 (delivery failed) before 1 (data problems). Up to `allowedInvalid`
 * new invalid rows (the --max-invalid budget) are no reason for 1, nor are problems an earlier run
 * reported already (issue 20: the exit code says what is new).
 */
export function exitCodeFor(summary: Summary, allowedInvalid = 0): ExitCodeValue {
  // Before 4: the held records are `notSent` by the guard's choice, not a failed delivery.
  if (summary.guard?.verdict === 'stopped') return ExitCode.guardStopped;
  const outstanding = summary.failed + summary.pending + summary.notSent;
  if (outstanding + summary.retriedFailed + summary.retriedPending > 0) return ExitCode.deliveryFailed;
  if (summary.aborted !== undefined) return ExitCode.partial;
  // Refusals the server gave this run's records or resent ones; an unchanged record refused before is known.
  const refused = summary.rejected + summary.retriedRejected - summary.knownRefused;
  if (newInvalid(summary) > allowedInvalid || refused > 0 || summary.changed > 0) return ExitCode.partial;
  return ExitCode.ok;
}

/** Invalid rows no earlier run reported (issue 20). */
export function newInvalid(summary: Summary): number {
  return summary.invalid - summary.knownInvalid;
}

export function exitCodeForError(error: unknown): ExitCodeValue {
  if (!isRevimportError(error)) return ExitCode.internal;
  switch (error.kind) {
    case 'usage':
    case 'config':
      return ExitCode.usage;
    case 'auth':
      return ExitCode.auth;
    case 'delivery':
      return ExitCode.deliveryFailed;
    case 'lock':
      return ExitCode.locked;
    default:
      return ExitCode.internal;
  }
}
