// The value guard in a push (issue 25): valid records are held, not handed to the look-up and delivery
// queue, until reading ends or `holdRecords` are held; then the run's values are compared with what the
// target was delivered before, and the held records are either released in order or the run stops with
// none of its own sent. Every valid record is measured (values per currency, local days), also after the
// decision: a currency the target never had that appears later stops the run there.
import type { GuardSettings } from '../../config/settings.js';
import { dayText, recordDay } from '../../record/local-day.js';
import type { GuardComparison, GuardFinding } from '../../report/run-report.js';
import type { Item } from '../item.js';
import type { LookupQueue } from '../lookup-queue.js';
import type { RunTally } from '../run-tally.js';
import { compareValues, type StatsByCurrency } from './compare-values.js';
import type { GuardHistory } from './guard-history.js';
import { acceptedMessage, lateStopMessage, stopMessage } from './guard-message.js';
import { isSeries, missingDays } from './missing-days.js';
import { ValueSketch } from './value-sketch.js';
import { valueStats } from './value-stats.js';

export class RunGuard {
  readonly #inner: LookupQueue;
  readonly #settings: GuardSettings;
  readonly #history: GuardHistory;
  readonly #tally: RunTally;
  readonly #stopper = new AbortController();
  /** Valid records not handed on yet: before the decision, or while a late currency is looked up. */
  #held: Item[] = [];
  #decision: GuardComparison | undefined;
  #past: StatsByCurrency = {};
  #earlierDays: readonly string[] = [];
  /** Whether the earlier days are a daily series: only then are the run's days worth taking per record. */
  #dailySeries = false;
  readonly #late: GuardFinding[] = [];
  /** Late currencies sent under --accept-shift: not held again. */
  readonly #acceptedLate = new Set<string>();
  #stopped = false;
  #released = 0;
  /** Records counted known unchecked (raw-spans.ts) not handed on yet: held in count only, as their rows were. */
  #knownHeld = 0;
  /** The run's values per currency, bounded past value-sketch.ts's exactValues. */
  readonly #values = new Map<string, ValueSketch>();
  readonly #days = new Set<number>();

  constructor(inner: LookupQueue, settings: GuardSettings, history: GuardHistory, tally: RunTally) {
    this.#inner = inner;
    this.#settings = settings;
    this.#history = history;
    this.#tally = tally;
  }

  /** Aborted when the guard stopped the run: reading ends there. */
  get signal(): AbortSignal {
    return this.#stopper.signal;
  }

  /** The outcome taker's queue: measures the record, then holds it, hands it on, or (stopped) drops it. */
  add(item: Item): boolean {
    this.#measure(item);
    if (this.#stopped) {
      this.#tally.summary.notSent++;
      return false;
    }
    if (!this.#decision || this.#held.length > 0) {
      this.#held.push(item);
      return !this.#decision ? this.#held.length + this.#knownHeld >= this.#settings.holdRecords : true;
    }
    if (this.#isNewLate(item)) {
      this.#held.push(item);
      return true;
    }
    this.#released++;
    return this.#inner.add(item);
  }

  /**
   * A record counted known without its row being checked (a span noted delivered: raw-spans.ts): measured as any,
   * and held in count where a checked record would be held. `sent`: handed on now (the caller counts it already
   * sent); `kept`: the guard counts it (already sent once released, not sent if the run stops); `due`: kept, and the
   * decision (or a held late currency's check) is due: then `flush`.
   */
  addKnown(currency: string, value: number, day: number): 'sent' | 'kept' | 'due' {
    this.#measureValue(currency, value, day);
    if (this.#stopped) {
      this.#tally.summary.notSent++;
      return 'kept';
    }
    if (this.#decision && this.#held.length === 0) {
      this.#released++;
      return 'sent';
    }
    this.#knownHeld++;
    if (this.#decision) return 'due';
    return this.#held.length + this.#knownHeld >= this.#settings.holdRecords ? 'due' : 'kept';
  }

  async flush(): Promise<void> {
    if (!this.#decision) {
      if (this.#held.length + this.#knownHeld >= this.#settings.holdRecords) await this.decide();
    } else if (this.#held.length > 0) {
      await this.#recheck();
    } else {
      await this.#inner.flush();
    }
  }

  /**
   * Before the first row: the history's sample and days. A target with no history to judge by (a first
   * run, fewer than minHistory records of every currency) is decided `no-history` at once, so nothing is
   * held: a stream on stdin is sent as it comes, as without the guard.
   */
  async readHistory(): Promise<void> {
    const [values, days] = await Promise.all([this.#history.values([]), this.#history.days()]);
    this.#past = statsOf(values);
    this.#earlierDays = days;
    this.#dailySeries = isSeries(new Set(days));
    if (Object.values(this.#past).some((stats) => stats.count >= this.#settings.minHistory)) return;
    this.#decision = { verdict: 'no-history', currencies: [], findings: [], missingDays: [] };
  }

  /** The decision on what is held (at the budget, or once reading ended); once. */
  async decide(): Promise<void> {
    if (this.#decision) return;
    // Read again with the run's currencies: one the sample lacks is looked for in the whole history.
    this.#past = statsOf(await this.#history.values([...this.#values.keys()]));
    const comparison = compareValues(this.#runStats(), this.#past, this.#settings);
    const accepted = comparison.verdict === 'stopped' && this.#settings.acceptShift;
    this.#decision = accepted ? { ...comparison, verdict: 'accepted' } : comparison;
    if (accepted) this.#tally.warn(acceptedMessage(comparison));
    const held = this.#held.length + this.#knownHeld;
    if (this.#decision.verdict === 'stopped') this.#stop(stopMessage(comparison, held));
    else await this.#release();
  }

  /** Held records never handed on (the run ended by an error while holding): counted `notSent`, once. */
  takeHeld(): number {
    const held = this.#held.length + this.#knownHeld;
    this.#held = [];
    this.#knownHeld = 0;
    return held;
  }

  /**
   * The comparison for the Summary: the run's figures over every valid record measured, the decision's
   * findings and any later one, and the days missing from a daily series (said once as a warning when
   * `warnGaps`). Null when no decision was made (the run ended before).
   */
  result(warnGaps: boolean): GuardComparison | null {
    const decision = this.#decision;
    if (!decision) return null;
    const final = compareValues(this.#runStats(), this.#past, this.#settings);
    const days = new Set([...this.#days].map(dayText));
    const missing = missingDays(days, new Set(this.#earlierDays));
    if (warnGaps && missing.length > 0) {
      this.#tally.warn(
        `gaps in the series: this run's records cover ${[...days].sort()[0]} to ${[...days].sort().at(-1)} ` +
          `but no day of ${missing.join(', ')}, where this target's earlier deliveries were daily (sent anyway; check the export's date range)`,
      );
    }
    const late = this.#late.length > 0 && decision.verdict !== 'accepted';
    const verdict = late ? (this.#settings.acceptShift ? 'accepted' : 'stopped') : decision.verdict;
    return {
      verdict,
      currencies: final.currencies,
      findings: [...decision.findings, ...this.#late],
      missingDays: missing,
    };
  }

  #measure(item: Item): void {
    const { conversionCurrency, conversionValue, conversionDatetime, conversionTimezone } = item.record;
    const day = this.#dailySeries ? (item.day ?? recordDay(conversionDatetime, conversionTimezone)) : 0;
    this.#measureValue(conversionCurrency, conversionValue, day);
  }

  #measureValue(currency: string, value: number, day: number): void {
    const values = this.#values.get(currency) ?? new ValueSketch();
    if (values.count === 0) this.#values.set(currency, values);
    values.add(value);
    if (this.#dailySeries) this.#days.add(day);
  }

  /** After a decision that judged anything: a currency neither the history sample nor the run had. */
  #isNewLate(item: Item): boolean {
    const verdict = this.#decision!.verdict;
    if (verdict === 'no-history' || verdict === 'accepted') return false;
    const currency = item.record.conversionCurrency;
    if (this.#acceptedLate.has(currency)) return false;
    return !(currency in this.#past) && !this.#decision!.currencies.some((c) => c.currency === currency);
  }

  /** A late currency held: the whole history is asked for it; known there, released, else the run stops. */
  async #recheck(): Promise<void> {
    const record = this.#held[0]!.record;
    const found = await this.#history.values([record.conversionCurrency]);
    this.#past = { ...this.#past, ...statsOf(found) };
    if (record.conversionCurrency in this.#past) return this.#release();
    const run = (this.#values.get(record.conversionCurrency) ?? new ValueSketch()).stats();
    const late = compareValues({ [record.conversionCurrency]: run }, this.#past, this.#settings).findings;
    this.#late.push(...late);
    if (this.#settings.acceptShift) {
      // Checked by the user: the currency is taken, said once, and the run goes on (verdict `accepted`).
      this.#acceptedLate.add(record.conversionCurrency);
      this.#tally.warn(acceptedMessage({ ...this.#decision!, findings: late }));
      return this.#release();
    }
    this.#stop(lateStopMessage(late[0]!, this.#released));
  }

  #stop(message: string): void {
    this.#tally.warn(message);
    this.#tally.summary.notSent += this.takeHeld();
    this.#stopped = true;
    this.#stopper.abort();
  }

  /**
   * The held records into the real queue, in the order they were read. A flush that throws (the delivery
   * stopped: a refused key, a ledger write failing) leaves the records not yet handed on held, so the run
   * counts them `notSent` (takeHeld) instead of losing them from every count.
   */
  async #release(): Promise<void> {
    // Records counted known are handed on by count: already sent.
    this.#released += this.#knownHeld;
    this.#tally.summary.alreadySent += this.#knownHeld;
    this.#knownHeld = 0;
    const held = this.#held;
    this.#held = [];
    let next = 0;
    try {
      while (next < held.length) {
        const item = held[next++]!;
        this.#released++;
        if (this.#inner.add(item)) await this.#inner.flush();
      }
    } finally {
      if (next < held.length) this.#held = held.slice(next);
    }
  }

  #runStats(): StatsByCurrency {
    return Object.fromEntries([...this.#values].map(([currency, values]) => [currency, values.stats()]));
  }
}

function statsOf(values: Record<string, number[]>): StatsByCurrency {
  const stats: StatsByCurrency = {};
  for (const [currency, list] of Object.entries(values))
    if (list.length > 0) stats[currency] = valueStats(list);
  return stats;
}
