// Valid records on their way to the deliverer: gathered in chunks, looked up in the ledger (what it
// knows already is counted, not sent: known-records.ts), then pushed in the order they were read.
// The chunks are spans (delivered-spans.ts): a ledger that noted a span delivered answers it with one row.
import type { LedgerPort } from '../ledger/ledger-port.js';
import { contentHash } from '../ledger/record-key.js';
import type { LedgerEntry, SpanLookup } from '../ledger/types.js';
import { recordDay } from '../record/local-day.js';
import type { Deliverer } from '../transport/deliver.js';
import { endsSpan, RunSpans, SpanContent, type SpanTally } from './delivered-spans.js';
import type { Item } from './item.js';
import type { RunLedger } from './types.js';

/** Lookup chunks in flight at most (a ledger on another thread): bounds the items held, ~1,500 (4,096 at most). */
const LOOKUPS_AHEAD = 4;

export interface LookupSteps {
  deliverer: Deliverer<Item>;
  /** True when the record is counted as known and not to be sent (known-records.ts). */
  knownAlready(item: Item, entry: LedgerEntry, same: boolean): boolean | Promise<boolean>;
  ledger: RunLedger | undefined;
  /** Shows the rows read so far. */
  showRowsRead(): void;
}

/** A ledger that keeps spans: LedgerPort's two optional span methods, both there. */
type SpanLedger = Required<Pick<LedgerPort, 'lookupSpan' | 'noteSpans'>>;

function spanLedger(port: LedgerPort | undefined): SpanLedger | undefined {
  return port?.lookupSpan && port.noteSpans ? (port as SpanLedger) : undefined;
}

export class LookupQueue {
  /**
   * Valid records not handed on yet (to the look-up, then the deliverer, or counted already sent or
   * changed). Those a stop leaves here are counted `notSent`: the ledger does not hold them either.
   */
  waiting = 0;
  #items: Item[] = [];
  // A ledger on other threads answers lookups later: up to LOOKUPS_AHEAD chunks are looked up while the
  // next rows are read, and handled in order. A synchronous ledger's chunk is handled at once.
  #lookedUp: Promise<void> = Promise.resolve();
  #ahead = 0;
  /** The SpanContent of each chunk handled, for the next ones (at most LOOKUPS_AHEAD + 1 in use). */
  readonly #free: SpanContent[] = [];
  /** Whether the first lookup was announced (#begin). */
  #begun = false;
  readonly #steps: LookupSteps;
  /** Where the ledger keeps spans: it, the run's target, and its spans, counted as their records end delivered. */
  readonly #spans: { ledger: SpanLedger; targetId: number; run: RunSpans } | undefined;

  constructor(steps: LookupSteps) {
    this.#steps = steps;
    const ledger = spanLedger(steps.ledger?.ledger);
    this.#spans = ledger && steps.ledger && { ledger, targetId: steps.ledger.targetId, run: new RunSpans() };
  }

  /** The run's spans; none where the ledger keeps no spans. */
  get spans(): RunSpans | undefined {
    return this.#spans?.run;
  }

  /** Queues a record; true when its chunk (a span) ends and is to be flushed. */
  add(item: Item): boolean {
    this.#items.push(item);
    this.waiting++;
    return endsSpan(item.key, this.#items.length);
  }

  /** Settles once every chunk flushed so far is handled (rejects when handling one failed). */
  get lookedUp(): Promise<void> {
    return this.#lookedUp;
  }

  /** Looks the queued records up; awaits the chunks ahead when LOOKUPS_AHEAD are in flight. */
  async flush(): Promise<void> {
    const items = this.#items;
    this.#items = [];
    if (items.length === 0) return;
    // The rows read so far are shown before any of these is delivered: a display updated every 1,024 rows
    // showed more delivered than read (`1024 rows read, 1225 delivered`, issue 20).
    this.#steps.showRowsRead();
    this.#begin();
    const { known, span, content } = this.#lookup(items);
    if (known instanceof Promise) known.catch(() => undefined);
    this.#ahead++;
    this.#lookedUp = this.#lookedUp.then(async () => {
      await this.#handle(items, await known, span, content);
      content?.done();
      this.#ahead--;
    });
    // Observed here so that a failure waits for the next await of `lookedUp` instead of going unhandled.
    this.#lookedUp.catch(() => undefined);
    if (this.#ahead >= LOOKUPS_AHEAD || !(known instanceof Promise)) await this.#lookedUp;
  }

  /** The run's lookups begin (LedgerPort.lookupsBegin): called before the first. */
  #begin(): void {
    if (this.#begun) return;
    this.#begun = true;
    this.#steps.ledger?.ledger.lookupsBegin?.();
  }

  /** The run looks nothing up any more (LedgerPort.lookupsDone). */
  lookupsDone(): void {
    this.#steps.ledger?.ledger.lookupsDone?.();
  }

  /** The valid records never handed on, once: counted `notSent`. */
  takeWaiting(): number {
    const waiting = this.waiting;
    this.waiting = 0;
    return waiting;
  }

  /**
   * Notes the spans whose every record ended delivered, once the run's writes are recorded. Only an index: a
   * failure costs the next run its speed, nothing else (a full disk still stops the run at the ledger's close).
   */
  async noteSpans(): Promise<void> {
    const spans = this.#spans;
    if (!spans || spans.run.complete.length === 0) return;
    try {
      await spans.ledger.noteSpans(spans.targetId, spans.run.complete);
    } catch {
      // See above: nothing is lost.
    }
  }

  /**
   * The chunk's look-up: by its span where the ledger keeps spans (`content`: the bytes its digest read), else key by
   * key (or nothing known).
   */
  #lookup(items: Item[]): {
    known: SpanLookup | Promise<SpanLookup>;
    span: SpanTally | undefined;
    content?: SpanContent;
  } {
    const { ledger } = this.#steps;
    if (!ledger) return { known: { delivered: false, entries: new Map() }, span: undefined };
    const keys = items.map((i) => i.key);
    const spans = this.#spans;
    if (!spans) {
      const entries = ledger.ledger.lookup(ledger.targetId, keys);
      const known = entries instanceof Promise ? entries.then(notSpan) : notSpan(entries);
      return { known, span: undefined };
    }
    const content = this.#free.pop() ?? new SpanContent((free) => this.#free.push(free));
    const digest = content.digest(items);
    return {
      known: spans.ledger.lookupSpan(spans.targetId, keys, digest),
      span: spans.run.open(digest, items.length),
      content,
    };
  }

  /**
   * Hands the chunk's records on, or counts those the ledger knows. A record's content hash is taken (from `content`,
   * where its span's digest wrote its bytes, else from its record) only when it is compared or sent: a record of a
   * span the ledger noted delivered, that no hotter table names, is delivered at this content without one.
   */
  async #handle(
    items: Item[],
    known: SpanLookup,
    span: SpanTally | undefined,
    content: SpanContent | undefined,
  ): Promise<void> {
    const hashOfIndex = (index: number) =>
      content ? content.contentHash(index, items[index]!.record) : contentHash(items[index]!.record);
    const { deliverer, knownAlready } = this.#steps;
    const { entries, delivered } = known;
    for (let index = 0; index < items.length; index++) {
      const item = items[index]!;
      // Handed on now: the deliverer reports every record pushed, also one it refuses after a stop.
      this.waiting--;
      // A span delivered: its entries are the hotter tables' rows; a key none names is delivered at this content.
      const found = entries.get(item.key);
      if (found !== undefined) item.contentHash ??= hashOfIndex(index);
      const entry = found ?? (delivered ? deliveredHere : undefined);
      if (entry) {
        const same = found === undefined || found.contentHash === item.contentHash;
        const taken = knownAlready(item, entry, same);
        if (taken === true || (taken !== false && (await taken))) {
          // Counted `already sent`: delivered at this content (knownAction). Any other known outcome is not.
          if (entry.state === 'delivered' && same) {
            span?.delivered();
            item.rawSpan?.delivered();
          }
          continue;
        }
      }
      // A record to send keeps its content bytes for its journal row (item.ts draftEntry), or is hashed now.
      if (item.contentHash === undefined) {
        if (content?.hold(index)) {
          item.content = content;
          item.contentIndex = index;
        } else {
          item.contentHash = hashOfIndex(index);
        }
      }
      // Known pending or failed: the ledger's per-record tables hold this key, so its batch goes there too.
      if (entry?.state === 'pending' || entry?.state === 'failed') item.perRecord = true;
      // Counted once its delivery is recorded (deliver/delivery-account.ts).
      if (span) item.span = span;
      // Its local day for the run report, taken while the record is whole: once written, it keeps neither its
      // instant nor its zone (transport/sent-record.ts).
      item.day ??= recordDay(item.record.conversionDatetime, item.record.conversionTimezone);
      const room = deliverer.push(item);
      if (room) await room;
    }
  }
}

/** A record of a span noted delivered that no hotter table names: delivered at the record's own content. */
const deliveredHere: LedgerEntry = { state: 'delivered', contentHash: '' };

function notSpan(entries: Map<string, LedgerEntry>): SpanLookup {
  return { delivered: false, entries };
}
