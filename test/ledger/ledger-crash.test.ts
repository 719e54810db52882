// Runs killed with SIGKILL (after marking records pending; after delivering, before the merge): the
// next run must find them.
// The child runs the real ledger and lock code, transpiled to plain JS (Node 20 runs no .ts).

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/ledger.js';
import { acquireLock } from '../../src/ledger/lock.js';
import { targetOf } from '../../src/ledger/target.js';
import { keep, retain } from '../helpers/native.js';
import { compileLedger } from './compile-ledger.mjs';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'revimport-crash-'));
  compileLedger(join(dir, 'code'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const child = `
import { openLedger } from './code/ledger/ledger.js';
import { acquireLock } from './code/ledger/lock.js';
import { targetOf } from './code/ledger/target.js';

const path = process.argv[2];
await acquireLock(path, { waitMs: 0 });
const ledger = openLedger(path);
const target = ledger.target(targetOf('https://crm.example', 'sk_test'));
const run = ledger.beginRun({ command: 'push', files: ['orders.csv'] });
const entry = (key, batch) => ({ key, contentHash: 'h-' + key, payload: '{"k":"' + key + '"}', idempotencyKey: batch });
ledger.markPending(target, run, [entry('id:1', 'b1'), entry('id:2', 'b1')]);
ledger.markDelivered(target, ['id:1', 'id:2'], 'b1');
ledger.markPending(target, run, [entry('id:3', 'b2'), entry('h:abc', 'b2')]);
process.kill(process.pid, 'SIGKILL');
`;

function runChild(script: string, ledgerPath: string): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [script, ledgerPath], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    proc.on('error', reject);
    proc.on('exit', (code, signal) =>
      code ? reject(new Error(`child exited ${code}: ${stderr}`)) : resolve(signal),
    );
  });
}

it('keeps what was marked pending before a SIGKILL, and the next run takes over the lock', async () => {
  const script = join(dir, 'child.mjs');
  const ledgerPath = join(dir, 'state', 'ledger.db');
  writeFileSync(script, child);

  expect(await runChild(script, ledgerPath)).toBe('SIGKILL');
  expect(JSON.parse(readFileSync(`${ledgerPath}.lock`, 'utf8')).pid).not.toBe(process.pid);

  const lock = await acquireLock(ledgerPath, { waitMs: 0, renewInThread: false });
  const ledger = openLedger(ledgerPath);
  try {
    const target = ledger.target(targetOf('https://crm.example', 'sk_test'));
    const [crashed] = ledger.history({ limit: 5 });
    expect(crashed).toMatchObject({
      command: 'push',
      files: ['orders.csv'],
      finishedAt: null,
      exitCode: null,
    });
    const run = ledger.beginRun({ command: 'retry', files: [] });
    expect(ledger.outstanding(target, run)).toEqual([
      { key: 'id:3', contentHash: 'h-id:3', payload: '{"k":"id:3"}', idempotencyKey: 'b2', state: 'pending' },
      {
        key: 'h:abc',
        contentHash: 'h-h:abc',
        payload: '{"k":"h:abc"}',
        idempotencyKey: 'b2',
        state: 'pending',
      },
    ]);
    expect(ledger.lookup(target, ['id:1', 'id:2']).get('id:2')).toEqual({
      state: 'delivered',
      contentHash: 'h-id:2',
    });
  } finally {
    ledger.close();
    lock.release();
  }
});

const stagedChild = `
import { openLedger } from './code/ledger/ledger.js';
import { targetOf } from './code/ledger/target.js';

const ledger = openLedger(process.argv[2]);
const target = ledger.target(targetOf('https://crm.example', 'sk_test'));
const run = ledger.beginRun({ command: 'push', files: ['orders.csv'] });
const entry = (key) => ({ key, contentHash: 'h-' + key, payload: '{}', idempotencyKey: 'b1' });
ledger.markPending(target, run, [entry('id:1'), entry('id:2'), entry('id:3')]);
ledger.markDelivered(target, ['id:1', 'id:2'], 'b1');
process.kill(process.pid, 'SIGKILL');
`;

it('merges what a run killed before its merge had staged when the ledger is next opened', async () => {
  const script = join(dir, 'staged-child.mjs');
  const ledgerPath = join(dir, 'staged', 'ledger.db');
  writeFileSync(script, stagedChild);

  expect(await runChild(script, ledgerPath)).toBe('SIGKILL');
  const sizes = () => {
    const db = retain(new Database(ledgerPath, { readonly: true }));
    try {
      return ['inflight', 'staged', 'records'].map(
        (table) => (keep(db).prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
      );
    } finally {
      db.close();
    }
  };
  expect(sizes()).toEqual([1, 2, 0]);

  const ledger = openLedger(ledgerPath);
  try {
    expect(sizes()).toEqual([1, 0, 2]);
    const target = ledger.target(targetOf('https://crm.example', 'sk_test'));
    expect(ledger.lookup(target, ['id:1', 'id:2', 'id:3'])).toEqual(
      new Map([
        ['id:1', { state: 'delivered', contentHash: 'h-id:1' }],
        ['id:2', { state: 'delivered', contentHash: 'h-id:2' }],
        ['id:3', { state: 'pending', contentHash: 'h-id:3' }],
      ]),
    );
  } finally {
    ledger.close();
  }
});
