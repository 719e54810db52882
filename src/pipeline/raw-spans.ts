// Spans of rows already delivered (issue 23, PROPOSALS.md §2: a push again at the cost of reading). A push cuts
// each file's rows into spans (content-defined on each row's text, as delivered-spans.ts cuts records on their
// keys: a row added at the top moves no later cut) and digests each: SHA-256 over the run's fingerprint (everything
// that turns a row into a record), the file's (its header, preset, delimiter, date formats) and the rows as read.
// A span whose every row became a valid record with a conversionId, was skipped (not revenue) or folded into the
// row above (a line item under its order), each record ended delivered at that content, is noted in the ledger with
// its ids and what a run counts of its rows (migrations.ts v11). A later push that meets the span counts its rows
// (valid and already sent, skipped, folded) without checking them: no record is made, none is looked up. The ledger
// drops a target's spans when a delivered record of it changes, so a span noted is never stale; the run still adds
// the span's ids to its duplicate check, and checks the span row by row where an id of it was met before in the run.
import { createHash } from 'node:crypto';
import type { SourceInfo, SourceRow } from '../input/types.js';
import type { Awaitable } from '../ledger/ledger-port.js';
import type { RawSpan } from '../ledger/types.js';
import { SPAN_MAX, SPAN_MIN } from './delivered-spans.js';

/** Spans complete noted together: ~6,000 records' ids and figures held at most. */
const NOTE_EVERY = 16;

/**
 * A span ends once its rows' text reaches this many UTF-16 units, however few rows it has: bounds what reading holds
 * ahead of the checks (1 KiB rows: 128 a span; the bench's ~110-byte rows are cut by content first, at ~380 rows).
 */
const HELD_TEXT = 128 * 1024;

/** Past SPAN_MIN rows, one row in this many ends a span (as for records: ~SPAN_MIN + 256 rows a span). */
const CUT_ONE_IN = 256;

/**
 * Part of every digest: raised when the row path changes what a row makes in a way the fingerprint cannot see
 * within one version of revimport (its version is part of the fingerprint).
 */
const FORMAT = 2;

/** What a run counts of a noted span's rows without reading them (the ledger's `body`, JSON). */
export interface RawSpanBody {
  /** The currencies met, and each record's (an index into them). */
  c: string[];
  i: number[];
  /** Each record's conversionValue and local day (record/local-day.ts). */
  v: number[];
  d: number[];
  /** The rows skipped (not revenue: a preset's or the user's rule), absent where none was. */
  skips?: RawSpanSkips;
  /** The positions among the span's rows of those folded into the row above (line items), absent where none was. */
  folded?: number[];
}

/** A span's skipped rows: each one's place among its rows, in order, and its reason (an index into `reasons`). */
export interface RawSpanSkips {
  at: number[];
  why: number[];
  reasons: string[];
}

/**
 * What a noted span's `rows` give the run: its records counted valid and already sent, measured by the value guard,
 * its skipped rows counted skipped by reason, its folded rows folded, in the rows' order. Returns how many rows were
 * counted (fewer when the guard stopped the run part-way).
 */
export type CountKnown = (rows: number, body: RawSpanBody) => number | Promise<number>;

/** How many rows of a noted span made no record: skipped or folded. */
function recordlessIn(body: RawSpanBody): number {
  return (body.skips?.at.length ?? 0) + (body.folded?.length ?? 0);
}

/**
 * One span of a run, as its rows are checked: each valid record's id and counted figures, each skipped row's reason,
 * each folded row's place, and how many records ended delivered at their content. Noted (into `done`) once it is
 * closed, every row made a record or was skipped or folded, and every record is delivered.
 */
export class RawSpanTally {
  /** Set once the span is closed (a span checked as it comes is named once its last row is read). */
  #digest = '';
  readonly #done: RawSpan[];
  /** Whether a skipped row may be counted without its row (not when the run writes skipped rows to its rejects). */
  readonly #countsSkipped: boolean;
  readonly #ids: string[] = [];
  readonly #body: RawSpanBody = { c: [], i: [], v: [], d: [] };
  /** Rows told so far: records added, rows skipped and folded. */
  #told = 0;
  #rows = -1;
  #delivered = 0;
  #spoiled = false;

  constructor(done: RawSpan[], countsSkipped: boolean) {
    this.#done = done;
    this.#countsSkipped = countsSkipped;
  }

  /** A row of the span made a valid record: its id, currency, value and local day. */
  add(id: string | undefined, currency: string, value: number, day: number): void {
    if (this.#spoiled) return;
    if (id === undefined || id === '') {
      this.spoil();
      return;
    }
    const body = this.#body;
    let currencyIndex = body.c.indexOf(currency);
    if (currencyIndex < 0) currencyIndex = body.c.push(currency) - 1;
    this.#ids.push(id);
    body.i.push(currencyIndex);
    body.v.push(value);
    body.d.push(day);
    this.#told++;
  }

  /** A row of the span was skipped for `reason`: counted by the span where the run writes no skipped row. */
  skip(reason: string): void {
    if (this.#spoiled) return;
    if (!this.#countsSkipped) {
      this.spoil();
      return;
    }
    this.#body.skips ??= { at: [], why: [], reasons: [] };
    const skips = this.#body.skips;
    let reasonIndex = skips.reasons.indexOf(reason);
    if (reasonIndex < 0) reasonIndex = skips.reasons.push(reason) - 1;
    skips.at.push(this.#told++);
    skips.why.push(reasonIndex);
  }

  /** A row of the span was a line item folded into the row above (row-policy.ts): counted folded by the span. */
  fold(): void {
    if (this.#spoiled) return;
    this.#body.folded ??= [];
    this.#body.folded.push(this.#told++);
  }

  /** A row of the span was invalid (or made a record without an id): the span is never noted. */
  spoil(): void {
    this.#spoiled = true;
    this.#ids.length = 0;
  }

  /** A record of the span ended delivered at its content (known so, or this run's delivery recorded). */
  delivered(): void {
    this.#delivered++;
    this.#noteIfComplete();
  }

  /** Every row of the span was checked: `rows` of them, named by `digest`. */
  close(rows: number, digest: string): void {
    this.#rows = rows;
    this.#digest = digest;
    this.#noteIfComplete();
  }

  #noteIfComplete(): void {
    const rows = this.#rows;
    const records = this.#ids.length;
    if (this.#spoiled || rows < 0 || this.#told !== rows || this.#delivered !== records) return;
    this.#spoiled = true; // noted once
    this.#done.push({
      digest: this.#digest,
      records,
      ids: JSON.stringify(this.#ids),
      body: JSON.stringify(this.#body),
    });
  }
}

/** What spans need of the run: the ledger's look-up, and the counts of a span's records counted known. */
export interface RawSpanSteps {
  /** The digests of the spans noted for the run's target. */
  digests(): Awaitable<string[]>;
  lookup(digest: string): Awaitable<RawSpan | undefined>;
  /** Notes spans complete (after the run's deliveries are recorded). */
  note(spans: readonly RawSpan[]): Awaitable<number>;
  countKnown: CountKnown;
}

/** What spans need of the row checker (checked-rows.ts RowChecker). */
export interface RawSpanChecker {
  /** The file's part of the fingerprint, binding it (its first row); undefined when its rows are not kept in spans. */
  fileKey(row: SourceRow): string | undefined;
  /** Adds every id to the run's duplicate check, unless one of them was met already. */
  seeAll(ids: readonly string[]): boolean;
  /** Whether the row would fold into the row before it (then its span is checked: it would not be a record). */
  foldsIntoLast(row: SourceRow): boolean;
  /** The file's state as after checking the row (the span's last, counted unchecked). */
  passed(row: SourceRow): void;
}

/**
 * The run's spans: the one whose rows are being checked (`current`, read by the outcome taker), those noted
 * complete, and the run's fingerprint. One per push; absent when the run keeps no spans (raw-span-run.ts).
 */
export class RawSpans {
  /** The span whose rows are being checked now: each outcome is told to it (take-outcome.ts). */
  current: RawSpanTally | undefined;
  /** Spans complete, not noted yet (noteSome, note). */
  readonly done: RawSpan[] = [];
  readonly #notes: Promise<void>[] = [];
  readonly #fingerprint: string;
  readonly #steps: RawSpanSteps;
  /** Each file's key (or null: its rows are checked one by one). */
  readonly #files = new Map<SourceInfo, string | null>();
  /** The digests the ledger held for the target when the run began (readDigests). */
  #known = new Set<string>();
  /** Whether skipped rows may be counted by span: not where the run writes each one to its rejects file. */
  readonly countsSkipped: boolean;

  constructor(fingerprint: string, steps: RawSpanSteps, countsSkipped: boolean) {
    this.#fingerprint = fingerprint;
    this.#steps = steps;
    this.countsSkipped = countsSkipped;
  }

  get steps(): RawSpanSteps {
    return this.#steps;
  }

  /** A file's reading in spans (check-files.ts). */
  file(checker: RawSpanChecker, loop: RawSpanLoop): RawSpanReader {
    return new RawSpanReader(this, checker, loop);
  }

  /** The part of a span's digest that every span of `row`'s file shares; undefined when the file keeps no spans. */
  prefix(row: SourceRow, checker: RawSpanChecker): string | undefined {
    let key = this.#files.get(row.source);
    if (key === undefined) {
      const fileKey = checker.fileKey(row);
      key = fileKey === undefined ? null : JSON.stringify([FORMAT, this.#fingerprint, fileKey]);
      this.#files.set(row.source, key);
    }
    return key ?? undefined;
  }

  open(): RawSpanTally {
    return new RawSpanTally(this.done, this.countsSkipped);
  }

  /**
   * Reads the digests of the spans the ledger noted for the run's target, once, before the rows: a span whose digest
   * is not among them is not looked up, and with none (a first push) rows are checked as they come, not held.
   */
  async readDigests(): Promise<void> {
    this.#known = new Set(await this.#steps.digests());
  }

  /** Whether the rows are checked as they come: no span was noted for the target before the run. */
  get streams(): boolean {
    return this.#known.size === 0;
  }

  /** Whether the ledger may hold the span (it did when the run began: a span noted since has ids this run met). */
  mayKnow(digest: string): boolean {
    return this.#known.has(digest);
  }

  /** Notes the spans complete so far, once NOTE_EVERY are: their ids and figures are not held to the run's end. */
  noteSome(): void {
    if (this.done.length >= NOTE_EVERY) this.#notes.push(this.#noteDone());
  }

  /** Notes the spans complete, and waits for every note. */
  async note(): Promise<void> {
    if (this.done.length > 0) this.#notes.push(this.#noteDone());
    await Promise.all(this.#notes);
  }

  /** Only an index: a failure costs the next run its speed, nothing else (as LookupQueue.noteSpans). */
  async #noteDone(): Promise<void> {
    const spans = this.done.splice(0);
    try {
      await this.#steps.note(spans);
    } catch {
      // See above: nothing is lost.
    }
  }
}

/** How a row is digested (a byte before it): its text as read (JSON lines, CSV), or its cells as JSON (CSV). */
const JSON_TEXT = 0x6a;
const CSV_TEXT = 0x74;
const CSV_CELLS = 0x63;
/** Set on the kind byte of a row written as UTF-16 code units (its text holds a lone surrogate). */
const UTF16 = 0x80;

/** How `row` is digested; undefined for a row kept in no span (a footer, a malformed row). */
function rowKind(row: SourceRow): number | undefined {
  if (row.kind === 'json') return JSON_TEXT;
  if (row.kind !== 'csv' || row.footer !== undefined) return undefined;
  return row.text !== undefined ? CSV_TEXT : CSV_CELLS;
}

/** The row's text for the digest: as read where the reader kept it, else its cells. */
function rowContent(row: SourceRow, kind: number): string {
  return kind === CSV_CELLS
    ? JSON.stringify((row as { cells: string[] }).cells)
    : (row as { text: string }).text;
}

/**
 * A span's rows as the bytes its digest is taken over (SHA-256 over the file's prefix, a NUL, then per row a kind
 * byte, its byte length as 4 bytes and its text: UTF-8, or UTF-16 code units where it holds a lone surrogate, which
 * UTF-8 would write as U+FFFD; the lengths make the bytes one sequence of rows only). Written as the rows come into one
 * buffer, reused from span to span: a first push holds no row's text on the heap until its span is cut (a span's
 * 380 strings lived through young collections: 138 MB more promoted in a 1M push, Session 41).
 */
export class SpanText {
  #bytes = Buffer.allocUnsafe(64 * 1024);
  #length = 0;
  /** Rows added since the last clear, and their text's UTF-16 units. */
  rows = 0;
  units = 0;

  add(kind: number, text: string): void {
    const whole = wellFormed(text);
    const most = 5 + text.length * (whole ? 3 : 2);
    if (this.#length + most > this.#bytes.length) this.#grow(this.#length + most);
    const bytes = this.#bytes;
    const at = this.#length;
    bytes[at] = whole ? kind : kind | UTF16;
    const written = bytes.write(text, at + 5, whole ? 'utf8' : 'utf16le');
    bytes.writeUInt32LE(written, at + 1);
    this.#length = at + 5 + written;
    this.rows++;
    this.units += text.length;
  }

  /** SHA-256 (hex, 32 chars: 128 bits) over `prefix` (JSON: no NUL) and the rows added. */
  digest(prefix: string): string {
    return createHash('sha256')
      .update(prefix)
      .update('\0')
      .update(this.#bytes.subarray(0, this.#length))
      .digest('hex')
      .slice(0, 32);
  }

  clear(): void {
    this.#length = 0;
    this.rows = 0;
    this.units = 0;
  }

  #grow(least: number): void {
    const bytes = Buffer.allocUnsafe(Math.max(least, this.#bytes.length * 2));
    this.#bytes.copy(bytes, 0, 0, this.#length);
    this.#bytes = bytes;
  }
}

/** How a file's reading checks a row, counts rows counted known, and tells a stop. */
export interface RawSpanLoop {
  check(row: SourceRow): Promise<void> | undefined;
  /** Rows of a span counted known (not checked): counted read. */
  counted(rows: number): void;
  stopped(): boolean;
}

/**
 * One file's rows in spans. Where the ledger noted spans of the run's target, the rows are held a span at a time
 * and the span settled once cut (counted known, or its rows checked); where it noted none (a first push), each row
 * is checked as it comes, and its span noted once every record of it is delivered.
 */
export class RawSpanReader {
  readonly #spans: RawSpans;
  readonly #checker: RawSpanChecker;
  readonly #loop: RawSpanLoop;
  #rows: SourceRow[] = [];
  /** The span's rows as digested. */
  readonly #text = new SpanText();
  #prefix: string | undefined;
  /** The last row's source, and its prefix (RawSpans.prefix). */
  #source: SourceInfo | undefined;
  #sourcePrefix: string | undefined;
  /** A span checked as it comes (none noted to look up): its tally, once its first row is. */
  #streamed: RawSpanTally | undefined;

  constructor(spans: RawSpans, checker: RawSpanChecker, loop: RawSpanLoop) {
    this.#spans = spans;
    this.#checker = checker;
    this.#loop = loop;
  }

  /** Takes a row: checked now, or held for its span. A promise when the loop must wait. */
  take(row: SourceRow): Promise<void> | undefined {
    const kind = rowKind(row);
    // A file's rows share their source: its prefix is looked up again only when another source comes.
    if (row.source !== this.#source && kind !== undefined) {
      this.#source = row.source;
      this.#sourcePrefix = this.#spans.prefix(row, this.#checker);
    }
    const prefix = kind === undefined ? undefined : this.#sourcePrefix;
    if (prefix === undefined || (prefix !== this.#prefix && this.#text.rows > 0)) return this.#apart(row);
    this.#prefix = prefix;
    const text = rowContent(row, kind!);
    const spanText = this.#text;
    spanText.add(kind!, text);
    const cut = spanText.units >= HELD_TEXT || endsRawSpan(text, spanText.rows);
    if (this.#spans.streams) return this.#stream(row, cut);
    this.#rows.push(row);
    return cut ? this.#settle() : undefined;
  }

  /** The file's end: the span held is settled, or the span checked as it came is closed. */
  end(): Promise<void> | undefined {
    return this.#spans.streams ? this.#closeStreamed() : this.#settle();
  }

  /** A row kept in no span (no text, a footer, a file not kept): the span so far ends, then the row is checked. */
  #apart(row: SourceRow): Promise<void> | undefined {
    const ended = this.end();
    if (!ended) return this.#loop.check(row);
    return ended.then(() => (this.#loop.stopped() ? undefined : this.#loop.check(row)));
  }

  #stream(row: SourceRow, cut: boolean): Promise<void> | undefined {
    const spans = this.#spans;
    this.#streamed ??= spans.open();
    spans.current = this.#streamed;
    let waiting: Promise<void> | undefined;
    try {
      waiting = this.#loop.check(row);
    } finally {
      spans.current = undefined;
    }
    if (cut) this.#closeStreamed();
    return waiting;
  }

  /** The span checked as it came ends here: named by its digest, and noted once all its records are delivered. */
  #closeStreamed(): undefined {
    const tally = this.#streamed;
    const text = this.#text;
    this.#streamed = undefined;
    if (tally && text.rows > 0) tally.close(text.rows, text.digest(this.#prefix!));
    text.clear();
    this.#spans.noteSome();
    return undefined;
  }

  /**
   * Settles the span held: counted known when the ledger noted it, its first row would not fold into the row before
   * and none of its ids was met before in the run; else each row checked with the span as the run's `current`.
   */
  async #settle(): Promise<void> {
    const rows = this.#rows;
    if (rows.length === 0) return;
    this.#rows = [];
    const digest = this.#text.digest(this.#prefix!);
    this.#text.clear();
    const spans = this.#spans;
    spans.noteSome();
    const found = spans.mayKnow(digest) ? await spans.steps.lookup(digest) : undefined;
    const body = found && (JSON.parse(found.body) as RawSpanBody);
    if (found && body && this.#countable(found, body, rows)) {
      const counted = await spans.steps.countKnown(rows.length, body);
      this.#loop.counted(counted);
      return;
    }
    const tally = spans.open();
    let checked = 0;
    try {
      for (const row of rows) {
        spans.current = tally;
        checked++;
        const waiting = this.#loop.check(row);
        spans.current = undefined;
        if (waiting) await waiting;
        if (this.#loop.stopped()) break;
      }
    } finally {
      spans.current = undefined;
    }
    // A span stopped part-way is never noted: its rows are not all checked.
    if (checked === rows.length) tally.close(rows.length, digest);
  }

  /**
   * Whether the span found noted is counted without its rows: it has as many rows, its skipped rows may be counted
   * so, its first row would not fold into the row before, and none of its ids was met before in the run (then they
   * are the run's, and the file's state is as after its last row).
   */
  #countable(found: RawSpan, body: RawSpanBody, rows: readonly SourceRow[]): boolean {
    if (found.records + recordlessIn(body) !== rows.length) return false;
    if (body.skips !== undefined && !this.#spans.countsSkipped) return false;
    const checker = this.#checker;
    if (checker.foldsIntoLast(rows[0]!)) return false;
    const ids = JSON.parse(found.ids) as string[];
    if (ids.length !== found.records || !checker.seeAll(ids)) return false;
    checker.passed(rows.at(-1)!);
    return true;
  }
}

/** Whether a span of `length` rows, the last with `text`, ends there. */
export function endsRawSpan(text: string, length: number): boolean {
  if (length >= SPAN_MAX) return true;
  if (length < SPAN_MIN) return false;
  // FNV-1a over the row's last 64 UTF-16 units (enough to tell rows apart, and bounded for long rows).
  let hash = 0x811c9dc5;
  for (let i = Math.max(0, text.length - 64); i < text.length; i++)
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return ((hash ^ (hash >>> 16)) >>> 0) % CUT_ONE_IN === 0;
}

/** String.prototype.isWellFormed (Node 20; not in the ES2023 lib the project compiles against). */
function wellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}
