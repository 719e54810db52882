// What a run counts and reports as it goes: the summary, the totals, the rejections (grouped, shown and
// written to the rejects file) and the warnings; finalized once into the Summary the run returns.
import type { ReportedIn } from '../ledger/types.js';
import { minorUnits } from '../record/currency.js';
import type { ConversionRecord } from '../record/fields.js';
import type { Rejection } from '../report/rejection.js';
import type { RejectsWriter } from '../report/rejects.js';
import { ErrorCollector, emptySummary, type Summary, Totals } from '../report/summary.js';
import type { DayRevenueTally } from './day-revenue.js';
import type { PipelineHooks } from './hooks.js';

export class RunTally {
  readonly summary: Summary;
  readonly validTotals = new Totals(minorUnits);
  readonly deliveredTotals = new Totals(minorUnits);
  /** Per currency, how far changed records moved from what was delivered. */
  readonly changedDifference = new Totals(minorUnits);
  /** Rejects-file writes not finished yet: awaited after each row, and before the run returns. */
  readonly pendingWrites: Promise<void>[] = [];
  readonly #errors = new ErrorCollector();
  readonly #check: boolean;
  readonly #hooks: Pick<PipelineHooks, 'onWarning' | 'onInvalid' | 'onPreset'>;
  readonly #rejects: RejectsWriter | undefined;
  readonly #revenue: DayRevenueTally | undefined;

  constructor(
    check: boolean,
    hooks: PipelineHooks,
    rejects: RejectsWriter | undefined,
    revenue?: DayRevenueTally,
  ) {
    this.summary = emptySummary(check);
    this.#check = check;
    this.#hooks = hooks;
    this.#rejects = rejects;
    this.#revenue = revenue;
  }

  /** A valid record: in the --check totals, and under --check in the report's revenue per day. */
  addValid(record: ConversionRecord, day?: number): void {
    this.validTotals.add(record.conversionCurrency, record.conversionValue);
    if (this.#check) this.#revenue?.add(record, day);
  }

  /** A record the receiver accepted (this run's or a resent one): the push totals and the report's days. */
  readonly addDelivered = (record: ConversionRecord, day?: number): void => {
    this.deliveredTotals.add(record.conversionCurrency, record.conversionValue);
    this.#revenue?.add(record, day);
  };

  /** A warning goes into the summary and is shown as it happens. */
  readonly warn = (message: string): void => {
    this.summary.warnings.push(message);
    this.#hooks.onWarning?.(message);
  };

  /** A rejection is counted in the errors, shown, and written to the rejects file. */
  readonly reject = (rejection: Rejection): void => {
    this.#errors.add(rejection);
    this.#hooks.onInvalid?.(rejection);
    this.write(rejection);
  };

  /** Whether the run has a rejects file to write to. */
  get writesRejects(): boolean {
    return this.#rejects !== undefined;
  }

  /** Writes to the rejects file only (a skipped row, a rejection reported before). */
  write(rejection: Rejection): void {
    const wait = this.#rejects?.write(rejection);
    if (wait) this.pendingWrites.push(wait);
  }

  /** The preset a file was read with. */
  readonly notePreset = (file: string, preset: string): void => {
    this.summary.presets[file] = preset;
    this.#hooks.onPreset?.(file, preset);
  };

  /** A row reported invalid by an earlier run: counted apart, with the earliest run that reported one. */
  noteKnownInvalid(before: ReportedIn): void {
    const summary = this.summary;
    summary.knownInvalid++;
    const earliest = summary.knownReportedIn;
    if (earliest && earliest.runId <= before.runId) return;
    summary.knownReportedIn = { runId: before.runId, at: new Date(before.at).toISOString() };
  }

  /** The Summary: `notSent` valid records never handed on, totals of what was checked or delivered. */
  finalize(notSent: number, durationMs: number): Summary {
    const summary = this.summary;
    summary.notSent += notSent;
    summary.totals = this.#check ? this.validTotals.toJSON() : this.deliveredTotals.toJSON();
    summary.changedDifference = this.changedDifference.toJSON();
    summary.errors = this.#errors.groups();
    summary.durationMs = Math.round(durationMs);
    return summary;
  }
}
