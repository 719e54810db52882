// Measures Ledger.lookup throughput (rows/s) for 1M keys against an empty ledger and one holding
// 5M delivered records. A script, not a test: `node test/ledger/bench-lookup.mjs [stored=5000000]`.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileLedger } from './compile-ledger.mjs';

const stored = Number(process.argv[2] ?? 5_000_000);
const probes = 1_000_000;
const batch = 500;
const dir = mkdtempSync(join(tmpdir(), 'revimport-bench-'));
try {
  const { openLedger } = await import(pathToFileURL(compileLedger(join(dir, 'code'))).href);
  const ledger = openLedger(join(dir, 'ledger.db'));
  const target = ledger.target({ baseUrl: 'https://crm.example', keyFingerprint: '0123456789abcdef' });
  const run = ledger.beginRun({ command: 'push', files: ['bench.csv'] });
  // Scattered like real order ids or UUIDs: consecutive rows land on unrelated B-tree pages.
  const key = (i) => `id:${(Math.imul(i, 2654435761) >>> 0).toString(16).padStart(8, '0')}-${i}`;
  const hash = (i) => `${i.toString(16).padStart(8, '0')}${'c'.repeat(24)}`;

  const measure = (label) => {
    // Half the probes hit stored keys (when there are any), half miss: a re-run on an overlapping file.
    const started = performance.now();
    let found = 0;
    for (let start = 0; start < probes; start += batch) {
      const keys = [];
      for (let i = start; i < start + batch; i++) keys.push(key(i % 2 === 0 ? i : stored + i));
      found += ledger.lookup(target, keys).size;
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${label}: ${probes} keys in ${seconds.toFixed(2)} s = ${Math.round(probes / seconds)} rows/s (found ${found})`,
    );
  };

  measure('lookup against 0 stored');

  const filling = performance.now();
  for (let start = 0; start < stored; start += 5000) {
    const entries = [];
    for (let i = start; i < Math.min(stored, start + 5000); i++) {
      entries.push({ key: key(i), contentHash: hash(i), payload: '{}', idempotencyKey: `b${start}` });
    }
    ledger.markPending(target, run, entries);
    ledger.markDelivered(
      target,
      entries.map((e) => e.key),
      `b${start}`,
    );
  }
  const fillSeconds = (performance.now() - filling) / 1000;
  console.log(
    `filled ${stored} records (markPending + markDelivered) in ${fillSeconds.toFixed(1)} s = ${Math.round(stored / fillSeconds)} records/s`,
  );

  measure(`lookup against ${stored} stored`);

  // A crashed run's leftovers among millions of delivered rows must not cost a scan.
  const crashed = ledger.beginRun({ command: 'push', files: ['bench.csv'] });
  const leftovers = [];
  for (let i = 0; i < 1000; i++) {
    leftovers.push({
      key: key(stored + i),
      contentHash: hash(i),
      payload: '{}',
      idempotencyKey: `x${i >> 8}`,
    });
  }
  ledger.markPending(target, crashed, leftovers);
  const next = ledger.beginRun({ command: 'retry', files: [] });
  const outstandingStarted = performance.now();
  const outstanding = ledger.outstanding(target, next);
  console.log(
    `outstanding: ${outstanding.length} records in ${(performance.now() - outstandingStarted).toFixed(1)} ms`,
  );
  ledger.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
