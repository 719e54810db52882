// Issue 23, a re-push near the cost of --check: the SQLite ledger notes spans of delivered records
// (pipeline/delivered-spans.ts) and a re-push looks a span up in one row. Judged by a receiver that stores every
// element it gets: a span must never claim a record the ledger no longer holds as delivered (it would be lost),
// nor let a delivered one through again (it would be doubled).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { acceptedIds, exportCsv, range, repeats } from '../helpers/exports.js';
import { keep, rawRows, retain } from '../helpers/native.js';

const key = 'e2e-delivered-spans-key-7c2a';

const e2e = useE2E({ key, receiver: { honourIdempotencyKey: false } });
const { start } = e2e;
let file: string;

beforeEach(() => {
  file = path.join(e2e.work, 'orders.csv');
});

async function push() {
  const result = await runCli(['push', file, '-c', e2e.config, '--json'], { cwd: e2e.work, env: e2e.env() });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, number>;
}

const spanRecords = () =>
  (rawRows(e2e.state, 'SELECT coalesce(sum(records), 0) AS n FROM delivered_spans')[0] as { n: number }).n;

function editLedger(sql: string): void {
  const db = retain(new Database(e2e.state));
  try {
    keep(db).prepare(sql).run();
  } finally {
    db.close();
  }
}

describe('delivered spans', () => {
  it('a push notes its spans; a re-push sends nothing, and sends a record the ledger lost since', async () => {
    const r = await start();
    writeFileSync(file, exportCsv({ to: 900 }));
    expect(await push()).toMatchObject({ sent: 900, alreadySent: 0 });
    // Every record is in a span noted delivered (900 records: several spans, cut by their keys).
    expect(spanRecords()).toBe(900);
    expect(
      (rawRows(e2e.state, 'SELECT count(*) AS n FROM delivered_spans')[0] as { n: number }).n,
    ).toBeGreaterThan(1);

    expect(await push()).toMatchObject({ sent: 0, alreadySent: 900 });
    expect(r.accepted).toHaveLength(900);

    // A delivered record leaves the ledger (an edit by hand, a tool): its target's spans go with it, so the
    // next push finds the record unknown and sends it, once.
    editLedger("DELETE FROM records WHERE key = 'id:417'");
    expect(spanRecords()).toBe(0);
    expect(await push()).toMatchObject({ sent: 1, alreadySent: 899 });
    expect(repeats(r.accepted).size).toBe(1);
    expect(acceptedIds(r.accepted)).toEqual([...range(1, 417), ...range(417, 900)]);
    expect(spanRecords()).toBe(900);
  });

  it("the hashes the writer thread took from a first push's content bytes are each record's own", async () => {
    // A first push's records are hashed on the ledger's writer thread, from content bytes their spans kept
    // (ledger/journal-draft.ts); 6,000 records take several dozen spans, each buffer used again and again. With
    // the spans dropped, a re-push compares every record's hash with the ledger's: one written from another
    // record's bytes would count as changed.
    const r = await start();
    writeFileSync(file, exportCsv({ to: 6000 }));
    expect(await push()).toMatchObject({ sent: 6000, alreadySent: 0 });
    editLedger('DELETE FROM delivered_spans');
    expect(await push()).toMatchObject({ sent: 0, alreadySent: 6000, changed: 0 });
    expect(r.accepted).toHaveLength(6000);
    // One value changed in the export: that record, and only it, is found changed.
    writeFileSync(file, exportCsv({ to: 6000 }).replace(/^(5000,.*?,)(\d+\.\d\d)/m, '$1999999.99'));
    const changed = await runCli(['push', file, '-c', e2e.config, '--json'], {
      cwd: e2e.work,
      env: e2e.env(),
    });
    expect(JSON.parse(changed.stdout)).toMatchObject({ sent: 0, alreadySent: 5999, changed: 1 });
  });

  it('rows added at the top of the export: only they are sent, the spans after them still hold', async () => {
    const r = await start();
    writeFileSync(file, exportCsv({ from: 101, to: 1000 }));
    expect(await push()).toMatchObject({ sent: 900 });
    const noted = rawRows(e2e.state, 'SELECT digest FROM delivered_spans ORDER BY digest');

    // A newer export: 100 orders before the old ones, as a shop lists its newest first.
    const older = exportCsv({ from: 101, to: 1000 }).split('\n').slice(1).join('\n');
    const newer = exportCsv({ from: 1, to: 100 });
    writeFileSync(file, `${newer}${older}`);
    expect(await push()).toMatchObject({ sent: 100, alreadySent: 900 });
    expect(acceptedIds(r.accepted)).toEqual(range(1, 1000));
    // The spans cut after the first old key that ends one are the same spans as before (content-defined cuts):
    // this push's spans add one or two digests (those holding new rows), not a new digest for every span.
    const after = rawRows(e2e.state, 'SELECT digest FROM delivered_spans');
    expect(noted.length).toBeGreaterThan(1);
    expect(after.length - noted.length).toBeGreaterThan(0);
    expect(after.length - noted.length).toBeLessThanOrEqual(2);
  });
});
