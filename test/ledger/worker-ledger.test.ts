// The ledger's writer thread (worker-ledger.ts) answers a failed close with its error: the final merge of a
// run that lost its lock (or hit a full disk) is reported as such, not as "its worker thread ended".
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileLedger } from './compile-ledger.mjs';

// The worker is a file: the child runs the real ledger code, transpiled to plain JS (Node 20 runs no .ts).
let code: string;
beforeAll(() => {
  code = mkdtempSync(join(tmpdir(), 'revimport-worker-code-'));
  compileLedger(join(code, 'code'));
});
afterAll(() => {
  rmSync(code, { recursive: true, force: true });
});

// Journals and settles one batch on the writer thread (its close merges it), then loses the lock to another
// run: the close's merge is refused by the guard before the ledger write.
const losingRun = `
import { writeFileSync } from 'node:fs';
import { acquireLock } from './code/ledger/lock.js';
import { openLedger } from './code/ledger/ledger.js';
import { targetOf } from './code/ledger/target.js';
import { WorkerLedger } from './code/ledger/worker-ledger.js';
const path = process.argv[2];
const lock = await acquireLock(path, { waitMs: 0, renewInThread: false });
const ledger = openLedger(path, { guard: lock.check });
const target = ledger.target(targetOf('https://crm.example', 'k'));
const run = ledger.beginRun({ command: 'push', files: ['a.csv'] });
const writer = new WorkerLedger(ledger, { lease: lock.lease });
const entry = { key: 'id:1', contentHash: 'hash-id:1', currency: 'EUR', value: 1 };
await writer.settleBatch(await writer.journalBatch(target, run, 'k1', [entry], '[{"id":"1"}]'));
writeFileSync(path + '.lock', JSON.stringify({ pid: process.ppid, startedAt: 'x', host: 'elsewhere', token: 't' }));
const renewal = lock.renew();
const closed = await writer.close().then(() => 'closed', (error) => error.name + ': ' + error.message);
process.stdout.write(JSON.stringify({ renewal, closed }));
`;

it("a writer thread whose close fails answers with the close's error", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'revimport-worker-'));
  try {
    const script = join(code, 'losing-run.mjs');
    writeFileSync(script, losingRun);
    const child = spawn(process.execPath, [script, join(dir, 'ledger.db')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      renewal: 'lost',
      closed: expect.stringMatching(/^LedgerLockLost: lost the run lock \S+: another run took it over/),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
