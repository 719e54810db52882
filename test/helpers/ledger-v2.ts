// The crashed schema-2 ledger of test/fixtures/ledger-v2 (see its README) as the tests that carry it over
// use it: a copy pointed at this test's receiver, and the export the crashed run was pushing.
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { root } from './cli.js';
import { keep, retain } from './native.js';

/** The key the fixture's target was written with. */
export const fixtureKey = 'fixture-key';

/** The export's ids: delivered (D), staged (S), failed (F), pending at the crash (P), never sent (N). */
const ids = ['D-1', 'D-2', 'S-1', 'F-1', 'P-1', 'P-2', 'N-1'];

export interface CrashedLedger {
  /** The ledger file, in `work`. */
  readonly state: string;
  /** The records pending at the crash, in send order, with the Idempotency-Key they went out with. */
  readonly stored: { key: string; k: string }[];
  /** Rows in its runs table. */
  readonly runs: number;
  /** PRAGMA user_version as copied (2: before the journal). */
  readonly schema: number;
}

/** Copies the fixture into `work` and points its target at `receiverUrl` (it was written for another port). */
export function crashedLedger(work: string, receiverUrl: string): CrashedLedger {
  const state = path.join(work, 'ledger.db');
  copyFileSync(path.join(root, 'test/fixtures/ledger-v2/ledger.db'), state);
  const db = retain(new Database(state));
  try {
    const schema = keep(db).prepare('PRAGMA user_version').pluck().get() as number;
    keep(db).prepare('UPDATE targets SET base_url = ?').run(receiverUrl);
    const stored = keep(db)
      .prepare("SELECT key, idempotency_key AS k FROM inflight WHERE state = 'pending' ORDER BY seq")
      .all() as { key: string; k: string }[];
    const runs = (keep(db).prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
    return { state, stored, runs, schema };
  } finally {
    db.close();
  }
}

/** The export the crashed run was pushing (`day2.csv`, values 10.00 to 70.00) and its config, in `work`. */
export function writeFixtureExport(work: string): { file: string; config: string } {
  const csv = ['id,time,value,currency,name,email']
    .concat(
      ids.map(
        (id, n) =>
          `${id},2026-11-01 11:00:00,${(n + 1) * 10}.00,EUR,purchase,${id.toLowerCase()}@example.com`,
      ),
    )
    .join('\n');
  const file = path.join(work, 'day2.csv');
  writeFileSync(file, `${csv}\n`);
  const config = path.join(work, 'revimport.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      timezone: 'Europe/Berlin',
      mapping: {
        fields: {
          conversionId: 'id',
          conversionDatetime: 'time',
          conversionValue: 'value',
          conversionCurrency: 'currency',
          conversionName: 'name',
          conversionEmail: 'email',
        },
      },
    }),
  );
  return { file, config };
}
