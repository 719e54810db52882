// The run's result: counts, per-currency totals (summed exactly in minor units) and errors grouped by
// reason with a few examples. Pure; the CLI renders it as text or as the --json object.

import { byCodeUnits } from '../text-order.js';
import type { Rejection } from './rejection.js';
import type { GuardComparison } from './run-report.js';

export interface ErrorExample {
  file: string;
  line: number;
  column: string;
  value: string;
  message: string;
  /** Present when the example stands for a whole request body: how many records it held. */
  records?: number;
}

export interface ErrorGroup {
  reason: string;
  count: number;
  examples: ErrorExample[];
}

/**
 * The counts add up (issue 20; report/identities.ts checks them): `rowsRead` = `valid` + `invalid` +
 * `skipped` + `folded`; each valid record of this run has one outcome (`sent`, `alreadySent`, `changed`,
 * `rejected`, `failed`, `pending`, `notSent`); records of earlier runs resent first are counted apart
 * (`retried` = `retriedSent` + `retriedRejected` + `retriedFailed` + `retriedPending`).
 */
export interface Summary {
  /** Data rows read from the files, each once: line-item rows folded into an order included. */
  rowsRead: number;
  /**
   * Rows folded into the conversion of another row (Shopify line items: `foldBy`; rows summed by `sumBy`
   * beyond the one the sum is dated by): read, but not conversions of their own.
   */
  folded: number;
  valid: number;
  invalid: number;
  /** Valid records of this run the server accepted (2xx); records of earlier runs resent: `retriedSent`. */
  sent: number;
  /**
   * Valid records of this run the server refused (4xx), and rows it refused in an earlier run with the same
   * content: those are not sent again (issue 19). Records of earlier runs resent and refused: `retriedRejected`.
   */
  rejected: number;
  /**
   * Of `invalid`: rows an earlier run reported with the same content and reasons (issue 20). Not written to
   * the rejects file again (unless --report-known) and no reason for exit 1.
   */
  knownInvalid: number;
  /**
   * Of `rejected`: unchanged records the server refused in an earlier run (not sent again). Not written to
   * the rejects file again (unless --report-known) and no reason for exit 1.
   */
  knownRefused: number;
  /** The earliest run that reported one of the `knownInvalid` rows, and when (ISO 8601); null when none. */
  knownReportedIn: { runId: number; at: string } | null;
  /** Rows left out on purpose, not errors: a skip or keep rule, refunded in full, nothing captured, the transform's null. */
  skipped: number;
  /** `skipped` by reason (`Financial Status: pending`, `refunded in full`...). */
  skippedReasons: Record<string, number>;
  /** Rows invalid because their conversionId was already on a valid row earlier in the run. */
  duplicates: number;
  /** Valid rows already delivered to this target by an earlier run: skipped. */
  alreadySent: number;
  /** Rows whose conversionId was delivered before with other content: skipped unless --resend. */
  changed: number;
  /**
   * Per currency, how far the changed rows' values moved from what was delivered (a refund after
   * delivery: negative). With `refunds: adjust` these are the adjustments sent.
   */
  changedDifference: Record<string, number>;
  /** Adjustment records sent (`refunds: adjust`): a delivered order's later change in value, once. */
  adjusted: number;
  /** Outstanding records of earlier runs (failed, or pending after a crash) resent first: not this run's rows. */
  retried: number;
  /** Of `retried`: accepted by the server. */
  retriedSent: number;
  /** Of `retried`: refused by the server (4xx). */
  retriedRejected: number;
  /** Of `retried`: failed again after retries; kept in the ledger for the next run. */
  retriedFailed: number;
  /** Of `retried`: not answered before the run stopped; still pending in the ledger. */
  retriedPending: number;
  /** Valid records of this run not delivered after retries or the retry budget: kept in the ledger for the next run. */
  failed: number;
  /**
   * Records not delivered, held in the ledger for the next run: left when the run stopped (SIGINT/SIGTERM,
   * an error), or a row whose record this run resent and which failed again (not sent twice in one run).
   */
  pending: number;
  /**
   * Valid records the run stopped before sending that the ledger does not hold (it failed, or the run
   * ended before they were handed on): neither sent nor pending; the next push of the same files sends them.
   */
  notSent: number;
  /**
   * Of `sent`, `rejected`, `retriedSent` and `retriedRejected`: records whose answer the ledger could not record (it failed mid-run). It
   * still holds them pending, so the next run sends them again, under the same Idempotency-Key.
   */
  unrecorded: number;
  batches: number;
  requests: number;
  /** The whole run, from its start to its result (under --json exactly `finishedAt` - `startedAt`). */
  durationMs: number;
  /** --check: totals of the valid rows; push: totals of what was delivered (`sent` and `retriedSent`). */
  totals: Record<string, number>;
  errors: ErrorGroup[];
  /** Preset used per file, where one was used. */
  presets: Record<string, string>;
  /** What the data showed that the user should look at, though no row failed (also printed on stderr). */
  warnings: string[];
  /** Set when --max-invalid stopped the run before anything was sent. */
  aborted?: string;
  /**
   * The value guard's comparison of this run with the target's history (issue 25); null under --check, with
   * the guard off, or when the run ended before the guard decided. `stopped`: exit 6, nothing of this run sent.
   */
  guard: GuardComparison | null;
  check: boolean;
}

export const MAX_EXAMPLES = 5;

export class ErrorCollector {
  readonly #groups = new Map<string, ErrorGroup>();
  /** `reason` + batch id of the bodies shown already: one example per failed body, not per record. */
  readonly #batchesShown = new Set<string>();

  add(rejection: Rejection): void {
    for (const issue of rejection.issues) {
      let group = this.#groups.get(issue.reason);
      if (!group) {
        group = { reason: issue.reason, count: 0, examples: [] };
        this.#groups.set(issue.reason, group);
      }
      group.count++;
      const batch = rejection.batch && rejection.batch.records > 1 ? rejection.batch : undefined;
      if (batch) {
        const shown = `${issue.reason}\u0000${batch.id}`;
        if (this.#batchesShown.has(shown)) continue;
        this.#batchesShown.add(shown);
      }
      if (group.examples.length < MAX_EXAMPLES) {
        group.examples.push({
          file: rejection.file,
          line: rejection.line,
          column: issue.column,
          value: issue.value,
          message: issue.message,
          ...(batch ? { records: batch.records } : {}),
        });
      }
    }
  }

  /** Largest groups first; ties by reason for a stable output. */
  groups(): ErrorGroup[] {
    return [...this.#groups.values()].sort((a, b) => b.count - a.count || byCodeUnits(a.reason, b.reason));
  }
}

/** Exact per-currency totals: integer minor units summed, converted back once at the end. */
export class Totals {
  readonly #minor = new Map<string, number>();
  readonly #digits: (currency: string) => number;

  constructor(minorDigits: (currency: string) => number) {
    this.#digits = minorDigits;
  }

  add(currency: string, value: number): void {
    const scale = 10 ** this.#digits(currency);
    this.#minor.set(currency, (this.#minor.get(currency) ?? 0) + Math.round(value * scale));
  }

  toJSON(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const currency of [...this.#minor.keys()].sort()) {
      const scale = 10 ** this.#digits(currency);
      out[currency] = this.#minor.get(currency)! / scale;
    }
    return out;
  }
}

/** Counts a row skipped for `reason` (not revenue). */
export function countSkipped(summary: Pick<Summary, 'skipped' | 'skippedReasons'>, reason: string): void {
  summary.skipped++;
  summary.skippedReasons[reason] = (summary.skippedReasons[reason] ?? 0) + 1;
}

export function emptySummary(check: boolean): Summary {
  return {
    rowsRead: 0,
    folded: 0,
    valid: 0,
    invalid: 0,
    knownInvalid: 0,
    knownRefused: 0,
    knownReportedIn: null,
    skipped: 0,
    skippedReasons: {},
    sent: 0,
    rejected: 0,
    duplicates: 0,
    alreadySent: 0,
    changed: 0,
    changedDifference: {},
    adjusted: 0,
    retried: 0,
    retriedSent: 0,
    retriedRejected: 0,
    retriedFailed: 0,
    retriedPending: 0,
    failed: 0,
    pending: 0,
    notSent: 0,
    unrecorded: 0,
    batches: 0,
    requests: 0,
    durationMs: 0,
    totals: {},
    errors: [],
    presets: {},
    warnings: [],
    guard: null,
    check,
  };
}

/** The counts a run records in the ledger's runs table (`revimport history`). */
export const recordedCounts = [
  'rowsRead',
  'folded',
  'valid',
  'invalid',
  'knownInvalid',
  'skipped',
  'sent',
  'rejected',
  'knownRefused',
  'duplicates',
  'alreadySent',
  'changed',
  'retried',
  'retriedSent',
  'retriedRejected',
  'retriedFailed',
  'retriedPending',
  'failed',
  'pending',
  'notSent',
  'unrecorded',
] as const satisfies readonly (keyof Summary)[];
