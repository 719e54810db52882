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
const writer = new WorkerLedger(ledger, { lock });
const entry = { key: 'id:1', contentHash: 'hash-id:1', currency: 'EUR', value: 1 };
await writer.settleBatch(await writer.journalBatch(target, run, 'k1', [entry], '[{"id":"1"}]'));
writeFileSync(path + '.lock', JSON.stringify({ pid: process.ppid, startedAt: 'x', host: 'elsewhere', token: 't' }));
const renewal = lock.renew();
const closed = await writer.close().then(() => 'closed', (error) => error.name + ': ' + error.message);
process.stdout.write(JSON.stringify({ renewal, closed }));
`;

/**
 * Runs `source` as a script beside the compiled ledger code, on a new ledger file in a temp folder (its only
 * argument), from the project's folder; returns its exit code and what it printed, parsed as JSON.
 */
async function runScript(name: string, source: string): Promise<{ code: unknown; printed: unknown }> {
  const dir = mkdtempSync(join(tmpdir(), 'revimport-worker-'));
  try {
    const script = join(code, name);
    writeFileSync(script, source);
    const child = spawn(process.execPath, [script, join(dir, 'ledger.db')], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const exit = await new Promise((resolve) => child.once('close', resolve));
    return { code: exit, printed: exit === 0 ? JSON.parse(stdout) : stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

it("a writer thread whose close fails answers with the close's error", async () => {
  const { code: exit, printed } = await runScript('losing-run.mjs', losingRun);
  expect(exit).toBe(0);
  expect(printed).toEqual({
    renewal: 'lost',
    closed: expect.stringMatching(/^LedgerLockLost: lost the run lock \S+: another run took it over/),
  });
});

// Journal rows cross to the writer in buffers moved there and back (journal-slots.ts): whatever their size,
// given as bytes or as text, each row holds exactly its body and its keys, as the same text; a drafted row's keys
// with the hashes its writer took from the records' content bytes (journal-draft.ts).
const journalingRun = `
import { createRequire } from 'node:module';
import { openLedger } from './code/ledger/ledger.js';
import { targetOf } from './code/ledger/target.js';
import { WorkerLedger } from './code/ledger/worker-ledger.js';
import { JournalDraft } from './code/ledger/journal-draft.js';
import { ContentBytes, contentHash } from './code/ledger/record-key.js';
const path = process.argv[2];
const ledger = openLedger(path);
const target = ledger.target(targetOf('https://crm.example', 'k'));
const run = ledger.beginRun({ command: 'push', files: ['a.csv'] });
const writer = new WorkerLedger(ledger);
const draft = new JournalDraft();
const sent = [];
const inFlight = [];
for (let n = 0; n < 30; n++) {
  // Sizes around and past a buffer (384 KiB), text past ASCII, a body given as a string now and then.
  const records = Array.from({ length: 1 + ((n * 37) % 9) }, (_, i) => ({ conversionId: 'é' + n + '-' + i, conversionName: 'x'.repeat(n % 7 === 3 ? 200000 : n * 50) }));
  const text = JSON.stringify(records);
  const body = n % 5 === 0 ? text : Buffer.from(text, 'utf8');
  let entries = records.map((r, i) => [ 'id:' + r.conversionId, 'h' + i, 'EUR', i + 0.5 ]);
  // Five rows in flight at a time: five buffers out at once.
  if (n % 3 !== 1) {
    inFlight.push(writer.journalBatch(target, run, 'k' + n, entries, body));
  } else {
    // Drafted (journal-draft.ts): every other record's hash taken on the writer's thread from its content bytes.
    entries = records.map((r, i) => [ 'id:' + r.conversionId, contentHash(r), 'EUR', i + 0.5 ]);
    draft.clear();
    // The records' bytes one after another, as a span holds them (read when the draft is sent).
    const bytes = new ContentBytes();
    records.forEach((r, i) => {
      if (i % 2 === 1) return draft.add(entries[i][0], entries[i][1], 'EUR', i + 0.5);
      const from = bytes.length;
      bytes.content(r);
      draft.addContent(entries[i][0], bytes, from, bytes.length, 'EUR', i + 0.5);
    });
    inFlight.push(writer.journalDraft(target, run, 'k' + n, draft, body));
  }
  if (inFlight.length === 5) await Promise.all(inFlight.splice(0));
  sent.push({ body: text, keys: JSON.stringify(entries) });
  if (n === 12) {
    // A row the writer refuses (no idempotency key: NOT NULL) answers with its error, its buffer kept there;
    // the rows after it are written as before.
    await Promise.all(inFlight.splice(0));
    const refused = await writer.journalBatch(target, run, null, entries, body).then(() => 'written', (error) => error.message);
    if (!/NOT NULL/.test(refused)) throw new Error('the refused row: ' + refused);
  }
}
await Promise.all(inFlight);
await writer.close();
ledger.close();
const Database = createRequire(process.cwd() + '/package.json')('better-sqlite3');
const db = new Database(path, { readonly: true });
const stored = db.prepare('SELECT b.keys, typeof(b.keys) AS keysType, bb.body, typeof(bb.body) AS bodyType FROM batches b JOIN batch_bodies bb ON bb.batch_id = b.id ORDER BY b.id').all();
process.stdout.write(JSON.stringify({ sent, stored }));
`;

it('journal rows crossing to the writer in moved buffers are stored exactly, as text', async () => {
  const { code: exit, printed } = await runScript('journaling-run.mjs', journalingRun);
  expect(exit).toBe(0);
  const { sent, stored } = printed as {
    sent: { body: string; keys: string }[];
    stored: { keys: string; keysType: string; body: string; bodyType: string }[];
  };
  expect(stored.length).toBe(30);
  expect(stored.map((row) => [row.bodyType, row.keysType])).toEqual(sent.map(() => ['text', 'text']));
  expect(stored.map((row) => ({ body: row.body, keys: row.keys }))).toEqual(sent);
});

// A run waits for its ledger threads to run before its first row (WorkerLedger.started): settled once a thread
// runs, also one whose ledger cannot be opened (it runs, then fails), whose calls then fail instead of hanging.
const startingRun = `
import { openLedger } from './code/ledger/ledger.js';
import { WorkerLedger } from './code/ledger/worker-ledger.js';
import { dirname } from 'node:path';
const path = process.argv[2];
const ledger = openLedger(path);
const good = new WorkerLedger(ledger);
await good.started();
const started = await good.merge();
await good.close();
ledger.close();
// The folder is no ledger file: the thread's open fails as it starts.
const bad = new WorkerLedger({ path: dirname(path) });
await bad.started();
const failed = await bad.merge().then(() => 'answered', (error) => error.name);
await bad.close().catch(() => undefined);
process.stdout.write(JSON.stringify({ started, failed }));
`;

it('a worker ledger is started once its thread runs, also when the thread then fails', async () => {
  const { code: exit, printed } = await runScript('starting-run.mjs', startingRun);
  expect(exit).toBe(0);
  expect(printed).toEqual({ started: 0, failed: 'LedgerWorkerExit' });
});
