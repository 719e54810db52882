// Raw spans (issue 23, bench/PROPOSALS.md §2, pipeline/raw-spans.ts): a push with an SQLite ledger notes spans of
// rows whose records it saw delivered, digested over a fingerprint of what turns a row into a record and the rows'
// text; a later push that meets one counts its rows valid and already sent without checking them. The promise judged
// here: such a push comes out exactly as the same push with every row checked (REVIMPORT_RAW_SPANS=0) from the same
// ledger: the same --json summary (but its run id and times), the same records at a receiver that stores every
// element it gets, the same rejects, the same run row and report in the ledger, the same ledger rows. A span must
// never stand for a row whose record would now differ (a lost update), nor hide a duplicate, an invalid row or a
// record the ledger no longer holds as delivered.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AcceptedRecord } from '../../src/testing/receiver.js';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import {
  acceptedIds,
  defaultValue,
  exportConfig,
  exportCsv,
  header,
  range,
  repeats,
  rowCells,
  writeConfig,
} from '../helpers/exports.js';
import { keep, rawRows, retain } from '../helpers/native.js';

const key = 'e2e-raw-spans-key-5d81';

const e2e = useE2E({ key, receiver: { honourIdempotencyKey: false } });
const { start } = e2e;
let file: string;

beforeEach(() => {
  file = path.join(e2e.work, 'orders.csv');
});

type Summary = Record<string, unknown>;

interface PushOptions {
  /** The inputs (default: the test's orders.csv). */
  files?: string[];
  /** Default: the test's config. */
  config?: string;
  /** Flags after --json. */
  flags?: string[];
  /** REVIMPORT_RAW_SPANS=0: every row checked, as before raw spans. */
  off?: boolean;
  /** The ledger (default: the test's). */
  state?: string;
  rejects?: string;
  /** What the CLI reads on stdin (with `-` among the files). */
  stdin?: string;
}

interface Pushed {
  code: number | null;
  summary: Summary;
  stdout: string;
  /** What the receiver stored from this push. */
  sent: AcceptedRecord[];
}

async function push(options: PushOptions = {}): Promise<Pushed> {
  const receiver = e2e.receiver;
  const before = receiver.accepted.length;
  const args = ['push', ...(options.files ?? [file]), '-c', options.config ?? e2e.config, '--json'];
  args.push(...(options.flags ?? []));
  if (options.rejects !== undefined) args.push('--rejects', options.rejects);
  const result = await runCli(args, {
    cwd: e2e.work,
    stdin: options.stdin,
    env: {
      ...e2e.env(receiver, key, options.state ?? e2e.state),
      // Raw spans are off on the row thread (`npm run test:row-thread` sets it): this file pins the main thread,
      // so it tests them whoever runs it.
      REVIMPORT_ROW_THREAD: undefined,
      REVIMPORT_RAW_SPANS: options.off ? '0' : undefined,
    },
  });
  expect(result.signal, result.stderr).toBeNull();
  expect(result.stdout, result.stderr).toMatch(/^\{/);
  return {
    code: result.code,
    summary: JSON.parse(result.stdout) as Summary,
    stdout: result.stdout,
    sent: e2e.receiver.accepted.slice(before),
  };
}

let copies = 0;

/** A copy of the test's ledger as it is now (WAL included), for a second run from the same state. */
function copyLedger(): string {
  const to = path.join(e2e.work, `off-${++copies}.db`);
  const db = retain(new Database(e2e.state, { fileMustExist: true }));
  try {
    keep(db).prepare('VACUUM INTO ?').run(to);
  } finally {
    db.close();
  }
  return to;
}

function editLedger(sql: string): void {
  const db = retain(new Database(e2e.state));
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

const one = (state: string, sql: string) => (rawRows(state, sql)[0] as { n: number }).n;

/** The records the noted raw spans stand for, in the test's ledger. */
const rawSpanRecords = () => one(e2e.state, 'SELECT coalesce(sum(records), 0) AS n FROM raw_spans');

/** A summary without what differs from run to run whatever it did. */
function outcome(stdout: string): Summary {
  const { runId, startedAt, finishedAt, durationMs, ...rest } = JSON.parse(stdout) as Summary;
  return rest;
}

/** The records a receiver stored, in one order whatever order the batches went in. */
const records = (sent: readonly AcceptedRecord[]) => sent.map((a) => JSON.stringify(a.record)).sort();

/** The ledger's last run as it noted it: command, files, counts, exit code, its report but the times. */
function lastRun(state: string): unknown {
  const run = rawRows(
    state,
    'SELECT id, command, files, counts, exit_code, report FROM runs ORDER BY id DESC LIMIT 1',
  )[0] as { report: string | null };
  const { startedAt, finishedAt, ...report } = JSON.parse(run.report ?? '{}') as Summary;
  return { ...run, report };
}

/** What the ledger holds of records and problems (not its spans: a run with raw spans off notes none). */
function ledgerView(state: string): unknown {
  return {
    records: rawRows(
      state,
      'SELECT target_id, key, content_hash, state FROM records ORDER BY target_id, key',
    ),
    inflight: rawRows(
      state,
      'SELECT target_id, key, content_hash, state FROM inflight ORDER BY target_id, key',
    ),
    staged: rawRows(state, 'SELECT target_id, key, content_hash FROM staged ORDER BY target_id, key, id'),
    known: rawRows(
      state,
      'SELECT target_id, fingerprint FROM known_problems ORDER BY target_id, fingerprint',
    ),
  };
}

const readOrNone = (at: string) => (existsSync(at) ? readFileSync(at, 'utf8') : null);

let pairs = 0;

/**
 * The same push twice from the ledger as it is: with raw spans into the test's ledger, then with them off into a
 * copy taken before, to the same receiver (so the same target), each with its own rejects file. Asserts every
 * outcome the same and returns both; the test's ledger goes on from the raw run.
 */
async function pushBoth(
  options: Omit<PushOptions, 'off' | 'state' | 'rejects'> = {},
): Promise<{ raw: Pushed; off: Pushed }> {
  const n = ++pairs;
  const offState = copyLedger();
  const rawRejects = path.join(e2e.work, `rejects-${n}-raw.csv`);
  const offRejects = path.join(e2e.work, `rejects-${n}-off.csv`);
  const raw = await push({ ...options, rejects: rawRejects });
  const off = await push({ ...options, off: true, state: offState, rejects: offRejects });
  // The two runs differ in the ledger's and the rejects file's names only: read as the raw run's.
  const same = (text: string) => text.replaceAll(offState, e2e.state).replaceAll(offRejects, rawRejects);
  expect(raw.code).toBe(off.code);
  expect(outcome(raw.stdout)).toEqual(outcome(same(off.stdout)));
  expect(records(raw.sent)).toEqual(records(off.sent));
  expect(readOrNone(rawRejects)).toEqual(readOrNone(offRejects));
  expect(lastRun(e2e.state)).toEqual(JSON.parse(same(JSON.stringify(lastRun(offState)))));
  expect(ledgerView(e2e.state)).toEqual(ledgerView(offState));
  return { raw, off };
}

/** The export of ids 1..900, with `valueFor`'s values. */
function export900(valueFor: (id: number) => string = defaultValue): string {
  return exportCsv({ to: 900, valueFor });
}

/** The data lines of an export (no header), each ending in a newline. */
const body = (csv: string) => csv.slice(csv.indexOf('\n') + 1);

/** An export of ids `from..to` in USD. */
const usdExport = (from: number, to: number) => exportCsv({ from, to }).replaceAll(',EUR,', ',USD,');

/** Shopify's orders export: its file and config in the test's folder (preset shopify). */
function shopifyExport(): { shop: string; config: string } {
  const shop = path.join(e2e.work, 'orders_export.csv');
  const config = path.join(e2e.work, 'shopify.json');
  writeFileSync(config, JSON.stringify({ timezone: 'Europe/Berlin', mapping: { preset: 'shopify' } }));
  return { shop, config };
}

const shopHeader = 'Name,Email,Financial Status,Paid at,Currency,Total,Created at,Lineitem name';

/** Order `id`'s row in shopifyExport's file (Name #1000+id): its own fields, its first line item. */
function order(id: number): string {
  const at = new Date(Date.UTC(2024, 2, 1) + id * 60_000).toISOString();
  const time = `${at.slice(0, 10)} ${at.slice(11, 19)} +0000`;
  return `#${1000 + id},buyer${id}@example.com,paid,${time},EUR,${defaultValue(id)},${time},Item ${id}\n`;
}

describe('raw spans', { timeout: 60_000 }, () => {
  it('a re-push of a delivered export: every row counted already sent, as a full check counts it', async () => {
    const r = await start();
    writeFileSync(file, export900());
    const first = await push();
    expect(first.summary).toMatchObject({ sent: 900, alreadySent: 0 });
    expect(first.sent).toHaveLength(900);
    // Every row is in a noted span (900 rows: spans of 128..1024 rows, cut on the rows' text).
    expect(rawSpanRecords()).toBe(900);

    const { raw } = await pushBoth();
    expect(raw.summary).toMatchObject({ rowsRead: 900, valid: 900, sent: 0, alreadySent: 900, changed: 0 });
    expect(r.accepted).toHaveLength(900);
    expect(rawSpanRecords()).toBe(900);
  });

  it('the skip happens: rows of a noted span are not checked against the ledger', async () => {
    // Made visible by a ledger that a row-by-row check would find wrong everywhere: every delivered record's
    // content hash replaced, with the triggers that would drop the spans dropped first, and the delivered spans
    // (records' digests, another skip) gone. A push with raw spans counts the rows already sent from the spans
    // alone; with them off, each record is checked and found changed. Fails if raw spans are not used.
    const r = await start();
    writeFileSync(file, export900());
    await push();
    const triggers = rawRows(
      e2e.state,
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'records'",
    ) as { name: string }[];
    expect(triggers.length).toBeGreaterThan(0);
    editLedger(
      `${triggers.map((t) => `DROP TRIGGER "${t.name}";`).join('\n')}
      DELETE FROM delivered_spans;
      UPDATE records SET content_hash = 'x';`,
    );
    expect(rawSpanRecords()).toBe(900);
    const offState = copyLedger();

    const raw = await push();
    expect(raw.summary).toMatchObject({ valid: 900, sent: 0, alreadySent: 900, changed: 0 });
    const off = await push({ off: true, state: offState });
    expect(off.summary).toMatchObject({ valid: 900, sent: 0, alreadySent: 0, changed: 900 });
    expect(r.accepted).toHaveLength(900);
  });

  it('rows added at the top of the export: only they are sent, the old rows counted already sent', async () => {
    const r = await start();
    writeFileSync(file, export900());
    const first = await push();
    // A newer export: 100 orders before the old ones, as a shop lists its newest first. The cuts after the first
    // old row that ends a span are the old ones (content-defined), so the spans after it are met again.
    writeFileSync(file, `${exportCsv({ from: 901, to: 1000 })}${body(export900())}`);
    const { raw } = await pushBoth();
    expect(raw.summary).toMatchObject({ rowsRead: 1000, sent: 100, alreadySent: 900, duplicates: 0 });
    expect(acceptedIds(raw.sent)).toEqual(range(901, 1000));
    const held = [...first.sent, ...raw.sent];
    expect(acceptedIds(held)).toEqual(range(1, 1000));
    expect(repeats(held).size).toBe(0);
    expect(r.accepted).toHaveLength(1000 + 100); // the first two pushes, and the off run's 100
  });

  it('an id of a noted span met elsewhere in the run: the span is checked, the duplicate found as before', async () => {
    // A new first row repeats id 417 with another value: with rows checked, it is the one found (changed since
    // delivered) and the old row 417 a duplicate. The span holding row 417 must not be counted already sent
    // past that first row; nor noted afterwards (its row 417 was a duplicate), so a third push gives the same.
    const r = await start();
    writeFileSync(file, export900());
    await push();
    const clash = `${rowCells(417, () => '12.34').join(',')}\n`;
    writeFileSync(file, `${header}\n${clash}${body(export900())}`);
    const { raw } = await pushBoth();
    expect(raw.summary).toMatchObject({ rowsRead: 901, sent: 0, duplicates: 1 });
    expect(raw.sent).toHaveLength(0);
    const again = await pushBoth();
    expect(again.raw.summary).toMatchObject({ rowsRead: 901, sent: 0, duplicates: 1 });

    // The same row at the bottom: the noted span, met first, puts its ids in the run's duplicate check, so the
    // last row is a duplicate of it as when every row is checked.
    writeFileSync(file, `${export900()}${clash}`);
    const last = await pushBoth();
    expect(last.raw.summary).toMatchObject({ rowsRead: 901, sent: 0, duplicates: 1 });
    expect(r.accepted).toHaveLength(900);
  });

  it('the same rows twice, in one file or in two: the second time they are duplicates, as before', async () => {
    const r = await start();
    writeFileSync(file, export900());
    await push();
    const twice = path.join(e2e.work, 'twice.csv');
    writeFileSync(twice, `${export900()}${body(export900())}`);
    const inOne = await pushBoth({ files: [twice] });
    expect(inOne.raw.summary).toMatchObject({ rowsRead: 1800, alreadySent: 900, duplicates: 900, sent: 0 });

    // A copy of the export under another name: its spans have the same digests (the name is not in them).
    const copy = path.join(e2e.work, 'orders (1).csv');
    writeFileSync(copy, export900());
    const inTwo = await pushBoth({ files: [file, copy] });
    expect(inTwo.raw.summary).toMatchObject({ rowsRead: 1800, alreadySent: 900, duplicates: 900, sent: 0 });
    expect(r.accepted).toHaveLength(900);
  });

  it('one value changed in the middle: that record is found changed, and stays found so', async () => {
    const r = await start();
    writeFileSync(file, export900());
    await push();
    writeFileSync(
      file,
      export900((id) => (id === 450 ? '999.99' : defaultValue(id))),
    );
    const { raw } = await pushBoth();
    expect(raw.summary).toMatchObject({ sent: 0, alreadySent: 899, changed: 1 });
    // The span holding the changed row is not noted at its new text: its record was not delivered at that content.
    const again = await pushBoth();
    expect(again.raw.summary).toMatchObject({ sent: 0, alreadySent: 899, changed: 1 });
    expect(r.accepted).toHaveLength(900);
  });

  it('a delivered record the ledger lost: its target spans go, the record is sent once, the spans noted again', async () => {
    const r = await start();
    writeFileSync(file, export900());
    const first = await push();
    expect(rawSpanRecords()).toBe(900);
    editLedger("DELETE FROM records WHERE key = 'id:417'");
    expect(one(e2e.state, 'SELECT count(*) AS n FROM raw_spans')).toBe(0);

    const { raw } = await pushBoth();
    expect(raw.summary).toMatchObject({ sent: 1, alreadySent: 899 });
    expect(acceptedIds(raw.sent)).toEqual([417]);
    const held = [...first.sent, ...raw.sent];
    expect(acceptedIds(held)).toEqual([...range(1, 417), ...range(417, 900)]);
    expect([...repeats(held).keys()]).toEqual(['417']);
    expect(rawSpanRecords()).toBe(900);
    expect(r.accepted).toHaveLength(900 + 1 + 1); // the raw and the off run each sent 417 once
  });

  it('an invalid row: its span is never noted, the next push reports it known as a full check does', async () => {
    const r = await start();
    writeFileSync(file, exportCsv({ to: 900, invalid: [450] }));
    const first = await push({ rejects: path.join(e2e.work, 'rejects-first.csv') });
    expect(first.summary).toMatchObject({ invalid: 1, sent: 899 });
    // The span holding row 450 is not noted: it has SPAN_MIN (128) rows at least, or is the file's last span
    // (rows 450..900).
    expect(rawSpanRecords()).toBeLessThanOrEqual(900 - 128);

    const { raw } = await pushBoth();
    expect(raw.summary).toMatchObject({
      rowsRead: 900,
      valid: 899,
      knownInvalid: 1,
      sent: 0,
      alreadySent: 899,
    });

    // A new invalid row in a later span, after spans counted known: written to the rejects file (under the
    // export's header) as when every row is checked; the known one is not written again.
    writeFileSync(file, exportCsv({ to: 900, invalid: [450, 800] }));
    const more = await pushBoth();
    expect(more.raw.summary).toMatchObject({ invalid: 2, knownInvalid: 1, alreadySent: 898 });
    expect(readFileSync(path.join(e2e.work, `rejects-${pairs}-raw.csv`), 'utf8')).toMatch(
      /^Order ID,.*\n800,/,
    );

    // One more new invalid row, over an error budget of none (--max-invalid 0: nothing sent, exit 1).
    writeFileSync(file, exportCsv({ to: 900, invalid: [450, 800, 850] }));
    const over = await pushBoth({ flags: ['--max-invalid', '0'] });
    expect(over.raw.code).toBe(1);
    expect(over.raw.summary).toMatchObject({ sent: 0 });
    expect(r.accepted).toHaveLength(899);
  });

  it('settings that change the records: a noted span never stands for rows that now make other records', async () => {
    // The fingerprint in every digest: the zone the config gives (each record's conversionTimezone and local
    // day), the same zone given by a flag, the mapping, and the file's header (the same rows under swapped
    // column names make other records). Each push comes out as with every row checked.
    await start();
    writeFileSync(file, export900());
    await push();
    expect(rawSpanRecords()).toBe(900);

    writeConfig(e2e.work, { timezone: 'Europe/Paris' });
    const zone = await pushBoth();
    expect(zone.raw.summary).toMatchObject({ rowsRead: 900, alreadySent: 0 });
    writeConfig(e2e.work);

    const flag = await pushBoth({ flags: ['--timezone', 'Europe/Paris'] });
    expect(flag.raw.summary).toMatchObject({ rowsRead: 900, alreadySent: 0 });

    writeConfig(e2e.work, {
      mapping: { fields: { ...exportConfig.mapping.fields, serviceId: 'Order ID' } },
    });
    const mapping = await pushBoth();
    expect(mapping.raw.summary).toMatchObject({ rowsRead: 900, alreadySent: 0 });
    writeConfig(e2e.work);

    // Order ID and Visitor ID swapped in the header only: ids v-1..v-900, new records, all sent.
    writeFileSync(file, `Visitor ID,Order ID,Amount,Currency,Time\n${body(export900())}`);
    const swapped = await pushBoth();
    expect(swapped.raw.summary).toMatchObject({ rowsRead: 900, sent: 900, alreadySent: 0 });
    expect(swapped.raw.sent.map((a) => a.record.conversionId)).toContain('v-417');
  });

  it("a file's date order decided again by a new row: the old rows' records change, none is taken as sent", async () => {
    // Etsy's Sale Date is MM/dd/yy or dd/MM/yy, decided per file from all its rows (record/date-order.ts). The
    // first export is month first (one row can only be read so); two new rows at its end make it day first, and
    // every old row of two readings now makes a record of another day, though its text is the same.
    await start();
    const etsy = path.join(e2e.work, 'EtsySoldOrders.csv');
    const config = path.join(e2e.work, 'etsy.json');
    writeFileSync(
      config,
      JSON.stringify({
        timezone: 'America/New_York',
        mapping: { preset: 'etsy', fields: { serviceId: 'Buyer User ID' } },
      }),
    );
    const etsyHeader =
      'Sale Date,Order ID,Buyer User ID,Currency,Order Total,Order Net,Adjusted Order Total,Adjusted Net Order Amount';
    const two = (n: number) => String(n).padStart(2, '0');
    const row = (date: string, id: number) =>
      `${date},${3100000000 + id},buyer${id},USD,${10 + (id % 50)}.00,9.00,0.00,0.00\n`;
    let rows = '';
    for (let id = 1; id < 900; id++) rows += row(`${two((id % 12) + 1)}/${two(((id * 5) % 12) + 1)}/24`, id);
    rows += row('03/25/24', 900);
    writeFileSync(etsy, `${etsyHeader}\n${rows}`);
    const first = await push({ files: [etsy], config });
    expect(first.summary).toMatchObject({ sent: 900, invalid: 0 });
    expect(rawSpanRecords()).toBe(900);

    writeFileSync(etsy, `${etsyHeader}\n${rows}${row('25/03/24', 901)}${row('26/03/24', 902)}`);
    const { raw } = await pushBoth({ files: [etsy], config });
    expect(raw.summary).toMatchObject({ rowsRead: 902, invalid: 1, sent: 2 });
    expect(raw.summary.changed).toBeGreaterThan(500);
  });

  it('a line item after a noted span: folded into its order as when the span is checked', async () => {
    // Shopify writes an order's line items as rows under it, folded into the order by Name (row-policy.ts: a
    // row whose Name is the row above's). A span counted known is not read: the row after it must still be
    // folded when it continues the span's last order, and read when it does not. The first export has one row
    // an order (every span noted); the next adds a line item under the last order of the first span, cut where
    // the first push's spans say (raw_spans.ids: the span's conversionIds in row order).
    await start();
    const { shop, config } = shopifyExport();
    const item = (id: number) => `#${1000 + id},buyer${id}@example.com,,,,,,Extra ${id}\n`;
    const orders = range(1, 900);
    writeFileSync(shop, `${shopHeader}\n${orders.map(order).join('')}`);
    const first = await push({ files: [shop], config });
    expect(first.summary).toMatchObject({ sent: 900, folded: 0 });
    expect(rawSpanRecords()).toBe(900);

    // The last order of each span but the file's last: a line item under each.
    const ends = (rawRows(e2e.state, 'SELECT ids FROM raw_spans') as { ids: string }[])
      .map((span) => (JSON.parse(span.ids) as string[]).at(-1)!)
      .filter((id) => id !== '#1900')
      .map((id) => Number(id.slice(1)) - 1000);
    expect(ends.length).toBeGreaterThan(0);
    const lines = orders.map((id) => (ends.includes(id) ? `${order(id)}${item(id)}` : order(id)));
    writeFileSync(shop, `${shopHeader}\n${lines.join('')}`);
    const { raw } = await pushBoth({ files: [shop], config });
    expect(raw.summary).toMatchObject({ rowsRead: 900 + ends.length, folded: ends.length, skipped: 0 });
    expect(raw.summary).toMatchObject({ sent: 0, alreadySent: 900 });
  });

  it('line items folded into their orders inside a span: counted folded from the span, as a full check counts them', async () => {
    // Shopify writes an order's line items as rows under it (row-policy.ts folds them by Name). A span holding
    // them is noted with their places, and a re-push counts them folded without reading them.
    await start();
    const { shop, config } = shopifyExport();
    const items = (id: number) =>
      id % 9 === 0 ? `#${1000 + id},,,,,,,Extra ${id}\n#${1000 + id},,,,,,,More\n` : '';
    writeFileSync(
      shop,
      `${shopHeader}\n${range(1, 900)
        .map((id) => order(id) + items(id))
        .join('')}`,
    );
    const first = await push({ files: [shop], config });
    expect(first.summary).toMatchObject({ sent: 900, folded: 200 });
    const { raw } = await pushBoth({ files: [shop], config });
    expect(raw.summary).toMatchObject({ rowsRead: 1100, folded: 200, sent: 0, alreadySent: 900 });
    // The spans counted known hold the folded rows: noted once, and every record of the export is in one (a span
    // whose first row folds into the row before it is checked, and noted again with the same digest).
    const folded = (rawRows(e2e.state, 'SELECT body FROM raw_spans') as { body: string }[])
      .map((span) => (JSON.parse(span.body) as { folded?: number[] }).folded?.length ?? 0)
      .reduce((sum, n) => sum + n, 0);
    expect(folded).toBe(200);
    expect(rawSpanRecords()).toBe(900);
  });

  it('rows skipped by a rule: counted skipped by reason from the span, in order, as a full check counts them', async () => {
    // A span may hold rows skipped as not revenue (mapping.skip here; a preset's status rules the same way): it is
    // noted with each skipped row's place and reason, and a re-push counts them skipped without reading them.
    await start();
    // Six rows skipped by two rules (four by visitor, two by currency): each its reason.
    const config = writeConfig(e2e.work, {
      mapping: {
        ...exportConfig.mapping,
        skip: [
          { column: 'Visitor ID', in: ['v-7', 'v-300', 'v-301', 'v-899'] },
          { column: 'Currency', in: ['XXX'] },
        ],
      },
    });
    const csv = export900()
      .replace('\n5,v-5,5.05,EUR,', '\n5,v-5,5.05,XXX,')
      .replace('\n6,v-6,6.06,EUR,', '\n6,v-6,6.06,XXX,');
    writeFileSync(file, csv);
    const first = await push({ config });
    expect(first.summary).toMatchObject({ rowsRead: 900, valid: 894, skipped: 6, sent: 894 });
    // Every span noted, its skipped rows with it: the records they stand for are every valid one.
    expect(rawSpanRecords()).toBe(894);
    const skipsNoted = (rawRows(e2e.state, 'SELECT body FROM raw_spans') as { body: string }[])
      .map((span) => (JSON.parse(span.body) as { skips?: { at: number[] } }).skips?.at.length ?? 0)
      .reduce((sum, n) => sum + n, 0);
    expect(skipsNoted).toBe(6);

    const { raw } = await pushBoth({ config });
    expect(raw.summary).toMatchObject({ rowsRead: 900, valid: 894, skipped: 6, sent: 0, alreadySent: 894 });
    expect(raw.summary.skippedReasons).toEqual(first.summary.skippedReasons);
  });

  it('--rejects-skipped: a span noted with skipped rows is checked, each skipped row written as a full check writes it', async () => {
    await start();
    const config = writeConfig(e2e.work, {
      mapping: { ...exportConfig.mapping, skip: [{ column: 'Visitor ID', in: ['v-10', 'v-500'] }] },
    });
    writeFileSync(file, export900());
    await push({ config });
    expect(rawSpanRecords()).toBe(898);
    const { raw } = await pushBoth({ config, flags: ['--rejects-skipped'] });
    expect(raw.summary).toMatchObject({ skipped: 2, sent: 0, alreadySent: 898 });
    // pushBoth compared the rejects files: both hold the two skipped rows.
    const rejects = readFileSync(path.join(e2e.work, `rejects-${pairs}-raw.csv`), 'utf8');
    expect(rejects).toContain('v-10');
    expect(rejects).toContain('v-500');
    // Its own spans are noted only without skipped rows (it writes each one): the others stay as noted.
    expect(rawSpanRecords()).toBe(898);
  });

  it('the value guard decides on noted spans and new rows at the same record as a full check', async () => {
    // The guard holds a run's first `holdRecords` valid records, then compares their values with the target's
    // history (pipeline/guard/run-guard.ts). Records of spans counted known are measured from their noted values
    // and count toward those held: the decision falls on the same record, with the same verdict and message, as
    // when every row is checked, and a run it stops stops at the same row.
    await start();
    writeFileSync(file, exportCsv({ to: 300 }));
    await push();
    expect(rawSpanRecords()).toBe(300);
    const old = body(exportCsv({ to: 300 }));
    const cents = (id: number) => String(Math.round(Number(defaultValue(id)) * 100));

    // Decided on 300 known records and 700 in cents: stopped, nothing sent.
    writeConfig(e2e.work, { guard: { holdRecords: 1000 } });
    writeFileSync(file, `${header}\n${old}${body(exportCsv({ from: 301, to: 1200, valueFor: cents }))}`);
    const shifted = await pushBoth();
    expect(shifted.raw.code).toBe(6);
    expect(shifted.raw.summary).toMatchObject({ sent: 0, guard: { verdict: 'stopped' } });

    // Decided within the known records (passed), then a currency the target never had: stopped there.
    writeConfig(e2e.work, { guard: { holdRecords: 200 } });
    writeFileSync(file, `${header}\n${old}${body(usdExport(301, 400))}`);
    const late = await pushBoth();
    expect(late.raw.code).toBe(6);
    expect(late.raw.summary).toMatchObject({ sent: 0, guard: { verdict: 'stopped' } });

    // Decided within the known records (passed), new rows of the same kind after them: sent.
    writeFileSync(file, `${header}\n${old}${body(exportCsv({ from: 301, to: 600 }))}`);
    const passed = await pushBoth();
    expect(passed.raw.code).toBe(0);
    expect(passed.raw.summary).toMatchObject({ sent: 300, alreadySent: 300, guard: { verdict: 'passed' } });
    expect(acceptedIds(passed.raw.sent)).toEqual(range(301, 600));
  });

  it('days of noted spans count in the daily series the guard checks for gaps, as their checked rows do', async () => {
    // Where a target's earlier deliveries cover consecutive days, a run's days leaving one out inside its range
    // are named (pipeline/guard/missing-days.ts). Records of spans counted known give their local days from the
    // ledger's note: the run's range and gaps come out as when every row is checked. Hourly orders: ten days
    // delivered, then twenty pushed with the fifteenth day left out (Berlin's 15 May: 22:00 UTC on the 14th to
    // 21:59 on the 15th, ids 334..357).
    await start();
    const hourly = (ids: number[]) =>
      `${header}\n${ids
        .map((id) => {
          const time = new Date(Date.UTC(2024, 4, 1) + id * 3_600_000).toISOString();
          return `${id},v-${id},${defaultValue(id)},EUR,${time}\n`;
        })
        .join('')}`;
    writeFileSync(file, hourly(range(1, 240)));
    await push();
    expect(rawSpanRecords()).toBe(240);
    writeFileSync(file, hourly(range(1, 480).filter((id) => id < 334 || id > 357)));
    const { raw } = await pushBoth();
    expect(raw.summary).toMatchObject({
      sent: 240 - 24,
      alreadySent: 240,
      guard: { missingDays: ['2024-05-15'] },
    });
  });

  it("another target: the spans noted for one are not another's", async () => {
    // Spans are noted per target (raw_spans.target_id): the same export pushed to a second CRM through the same
    // ledger is sent whole, as when every row is checked.
    const first = await start();
    writeFileSync(file, export900());
    await push();
    expect(rawSpanRecords()).toBe(900);
    const second = await start();
    const { raw } = await pushBoth();
    expect(raw.summary).toMatchObject({ sent: 900, alreadySent: 0 });
    expect(first.accepted).toHaveLength(900);
    expect(second.accepted).toHaveLength(900 * 2); // the raw and the off run
  });

  it('--resend sends every record again, as a full check does', async () => {
    const r = await start();
    writeFileSync(file, export900());
    const first = await push();
    const { raw } = await pushBoth({ flags: ['--resend'] });
    expect(raw.summary).toMatchObject({ sent: 900, alreadySent: 0 });
    const held = [...first.sent, ...raw.sent];
    expect(held).toHaveLength(1800);
    expect(repeats(held).size).toBe(900);
    expect(r.accepted).toHaveLength(900 * 3); // the first push, then each resend
  });

  it('delivered records in flight again (a --resend that failed): the next push retries them as before', async () => {
    // A --resend whose first body is answered 500, not retried: its 500 records stay in flight while records
    // still holds them delivered, so the spans standing for them stay noted. The next push resends them from
    // the ledger and reads the file: with raw spans as without.
    const r = await start();
    writeFileSync(file, export900());
    await push();
    r.script({ status: 500 });
    const failed = await push({ flags: ['--resend', '--retries', '0', '--concurrency', '1'] });
    expect(failed.code).toBe(4);
    const inFlight = one(e2e.state, 'SELECT count(*) AS n FROM inflight');
    expect(inFlight).toBeGreaterThan(0);
    expect(rawSpanRecords()).toBe(900);

    const { raw } = await pushBoth();
    expect(raw.summary).toMatchObject({ retriedSent: inFlight, sent: 0, alreadySent: 900 });
    expect(raw.sent).toHaveLength(inFlight);
  });

  it('rows read from stdin: a re-push comes out as a full check, and so does the same export from a file', async () => {
    // stdin is read once: its first rows are held by the date-order pass (pipeline/date-order.ts). Whether or not
    // its rows are kept in spans, a push of them comes out as with every row checked.
    const r = await start();
    const csv = export900();
    expect((await push({ files: ['-'], stdin: csv })).summary).toMatchObject({ sent: 900 });
    const { raw } = await pushBoth({ files: ['-'], stdin: csv });
    expect(raw.summary).toMatchObject({ sent: 0, alreadySent: 900 });
    writeFileSync(file, csv);
    const fromFile = await pushBoth();
    expect(fromFile.raw.summary).toMatchObject({ sent: 0, alreadySent: 900 });
    expect(r.accepted).toHaveLength(900);
  });

  it('a JSON-lines export: its rows are spans too, and a re-push comes out as a full check', async () => {
    const r = await start();
    const jsonl = path.join(e2e.work, 'orders.jsonl');
    const lines = (valueFor: (id: number) => string) =>
      range(1, 900)
        .map((id) => {
          const [orderId, visitor, amount, currency, time] = rowCells(id, valueFor);
          const row = {
            'Order ID': orderId,
            'Visitor ID': visitor,
            Amount: amount,
            Currency: currency,
            Time: time,
          };
          return `${JSON.stringify(row)}\n`;
        })
        .join('');
    writeFileSync(jsonl, lines(defaultValue));
    expect((await push({ files: [jsonl] })).summary).toMatchObject({ sent: 900 });
    expect(rawSpanRecords()).toBe(900);
    const { raw } = await pushBoth({ files: [jsonl] });
    expect(raw.summary).toMatchObject({ sent: 0, alreadySent: 900 });

    writeFileSync(
      jsonl,
      lines((id) => (id === 300 ? '77.77' : defaultValue(id))),
    );
    const changed = await pushBoth({ files: [jsonl] });
    expect(changed.raw.summary).toMatchObject({ sent: 0, alreadySent: 899, changed: 1 });
    expect(r.accepted).toHaveLength(900);
  });
});
