// A ledger already holding M delivered records (ids disjoint from any generated file), built once with
// the ledger's own API in big transactions and cached in bench/.data/; each round pushes into a copy.
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { currencies, orderId } from './generate.js';

const ENTRIES_PER_CALL = 50_000;
/** Prefilled ids start here: far above any generated file's row indexes. */
const ID_OFFSET = 5_000_000_000;
const PREFILL_URL = 'http://127.0.0.1:1';
/** Bumped when the ledger's schema changes in place (unreleased): a cached file of another layout is rebuilt. */
const LAYOUT = 'records-rowid-v10-filter-log-sealed';

const isCurrent = (meta, count) => meta.count === count && meta.layout === LAYOUT;

/** Builds (or reuses) `<dir>/ledger-prefilled-<count>.db`; returns its path. */
export async function ensurePrefilled(dir, count, apiKey, log) {
  const file = path.join(dir, `ledger-prefilled-${count}.db`);
  const meta = `${file}.meta.json`;
  if (existsSync(file) && existsSync(meta) && isCurrent(JSON.parse(readFileSync(meta, 'utf8')), count)) {
    return file;
  }
  rmSync(file, { force: true });
  for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
  const { openLedger } = await import('../dist/ledger/ledger.js');
  const { targetOf } = await import('../dist/ledger/target.js');
  const ledger = openLedger(file);
  try {
    const targetId = ledger.target(targetOf(PREFILL_URL, apiKey));
    const runId = ledger.beginRun({ command: 'push', files: ['(prefill)'] });
    const started = Date.now();
    for (let from = 0; from < count; from += ENTRIES_PER_CALL) {
      const entries = [];
      for (let i = from; i < Math.min(count, from + ENTRIES_PER_CALL); i++) {
        entries.push({
          key: `id:${orderId(ID_OFFSET + i)}`,
          contentHash: i.toString(16).padStart(32, '0'),
          // The generated data's currencies and values (generate.js), so the value guard finds this
          // history like the pushed file and lets the push through, as it would a shop's next export.
          ...prefillValue(i),
        });
      }
      // One journal row per call, settled at once: merged into records in the ledger's own bulk steps.
      ledger.settleBatch(ledger.journalBatch(targetId, runId, `prefill-${from}`, entries, '[]'));
      if ((from / ENTRIES_PER_CALL) % 20 === 0) {
        log(
          `  prefill: ${from + entries.length} / ${count} (${Math.round((Date.now() - started) / 1000)} s)`,
        );
      }
    }
    ledger.finishRun(runId, { counts: { sent: count }, exitCode: 0, durationMs: Date.now() - started });
  } finally {
    ledger.close();
  }
  // Fold the WAL into the file so one copy of the .db is the whole ledger.
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  writeFileSync(meta, JSON.stringify({ count, layout: LAYOUT }));
  return file;
}

/** Currency and value of prefilled record `i`: generate.js's mix (4 EUR, 3 USD, 2 GBP, 1 JPY in 10), spread alike. */
function prefillValue(i) {
  const currency = currencies[i % currencies.length];
  const amount = 99 + ((Math.imul(i, 0x9e3779b1) >>> 0) % 50_000);
  return { currency, value: currency === 'JPY' ? amount + 1 : amount / 100 };
}

/** A fresh copy of the prefilled ledger at `target`, its one target pointed at `baseUrl`. */
export function copyPrefilled(source, target, baseUrl) {
  removeLedger(target);
  copyFileSync(source, target);
  const db = new Database(target);
  db.prepare('UPDATE targets SET base_url = ?').run(baseUrl.replace(/\/+$/, ''));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

export function removeLedger(file) {
  for (const suffix of ['', '-wal', '-shm', '.lock']) rmSync(file + suffix, { force: true });
}
