import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockError } from '../../src/errors.js';
import { acquireLock, isAlive } from '../../src/ledger/lock.js';

let dir: string;
let ledgerPath: string;
let lockPath: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'revimport-lock-'));
  ledgerPath = join(dir, 'ledger.db');
  lockPath = `${ledgerPath}.lock`;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const started = Date.parse('2024-05-01T12:00:00.000Z');
const holder = () =>
  JSON.parse(readFileSync(lockPath, 'utf8')) as { pid: number; startedAt: string; host: string };
// Both processes are alive for the whole test: the runner and its parent.
const me = process.pid;
const other = process.ppid;

/** Spawns a process that exits at once, and returns its (now free) pid. */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['-e', '']);
    proc.on('error', reject);
    proc.on('exit', () => resolve(proc.pid!));
  });
}

describe('acquireLock', () => {
  it('writes {pid, startedAt, host} with mode 0600 and removes it on release', async () => {
    const release = await acquireLock(ledgerPath, { waitMs: 0, now: () => started });
    expect(holder()).toEqual({ pid: me, startedAt: '2024-05-01T12:00:00.000Z', host: hostname() });
    expect(statSync(lockPath).mode & 0o777).toBe(0o600);
    release();
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a second acquirer while a live process holds it, naming pid and start time', async () => {
    const release = await acquireLock(ledgerPath, { waitMs: 0, pid: me, now: () => started });
    const second = acquireLock(ledgerPath, { waitMs: 0, pid: other });
    await expect(second).rejects.toThrow(LockError);
    await expect(acquireLock(ledgerPath, { waitMs: 0, pid: other })).rejects.toThrow(
      `another run is active on ${ledgerPath} (pid ${me}, started 2024-05-01T12:00:00.000Z)`,
    );
    expect(holder().pid).toBe(me);
    release();
  });

  it('gives up after waitMs, polling every pollMs', async () => {
    const release = await acquireLock(ledgerPath, { waitMs: 0, pid: me });
    let clock = started;
    const sleeps: number[] = [];
    const waiting = acquireLock(ledgerPath, {
      waitMs: 1_000,
      pollMs: 250,
      pid: other,
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
    });
    await expect(waiting).rejects.toThrow(LockError);
    expect(sleeps).toEqual([250, 250, 250, 250]);
    release();
  });

  it('hands the lock to a waiter once the holder releases it', async () => {
    const events: string[] = [];
    const releaseFirst = await acquireLock(ledgerPath, { waitMs: 0, pid: me });
    let polls = 0;
    const second = acquireLock(ledgerPath, {
      waitMs: 60_000,
      pollMs: 1,
      pid: other,
      sleep: async () => {
        events.push('second waits');
        polls += 1;
        if (polls === 2) {
          releaseFirst();
          events.push('first released');
        }
      },
    }).then((release) => {
      events.push('second acquired');
      return release;
    });
    const releaseSecond = await second;
    expect(events).toEqual(['second waits', 'second waits', 'first released', 'second acquired']);
    expect(holder().pid).toBe(other);
    releaseFirst();
    expect(holder().pid).toBe(other);
    releaseSecond();
  });

  it('takes over a lock left by a dead process, leaving no temp files', async () => {
    const dead = await deadPid();
    expect(isAlive(dead)).toBe(false);
    writeFileSync(
      lockPath,
      JSON.stringify({ pid: dead, startedAt: '2024-01-01T00:00:00.000Z', host: hostname() }),
    );
    const release = await acquireLock(ledgerPath, { waitMs: 0, pid: me });
    expect(holder().pid).toBe(me);
    expect(readdirSync(dir)).toEqual(['ledger.db.lock']);
    release();
  });

  it('lets exactly one of two simultaneous acquirers take over a stale lock', async () => {
    const dead = await deadPid();
    writeFileSync(
      lockPath,
      JSON.stringify({ pid: dead, startedAt: '2024-01-01T00:00:00.000Z', host: hostname() }),
    );
    const results = await Promise.allSettled([
      acquireLock(ledgerPath, { waitMs: 0, pid: me }),
      acquireLock(ledgerPath, { waitMs: 0, pid: other }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const winner = results.findIndex((r) => r.status === 'fulfilled');
    expect(holder().pid).toBe([me, other][winner]);
  });

  it('does not presume a holder on another host dead', async () => {
    const dead = await deadPid();
    writeFileSync(
      lockPath,
      JSON.stringify({ pid: dead, startedAt: '2024-01-01T00:00:00.000Z', host: 'build-07' }),
    );
    await expect(acquireLock(ledgerPath, { waitMs: 0 })).rejects.toThrow(
      `(pid ${dead} on build-07, started 2024-01-01T00:00:00.000Z)`,
    );
  });

  it.each([
    ['empty', ''],
    ['truncated', '{"pid": 12'],
    ['pid 0', JSON.stringify({ pid: 0, startedAt: 'x', host: hostname() })],
  ])('waits on a young %s lock file, takes it over once old', async (_label, content) => {
    writeFileSync(lockPath, content);
    await expect(acquireLock(ledgerPath, { waitMs: 0 })).rejects.toThrow('(lock file being written)');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPath, old, old);
    const release = await acquireLock(ledgerPath, { waitMs: 0, pid: me });
    expect(holder().pid).toBe(me);
    release();
  });

  it('release leaves a lock that someone else took over', async () => {
    const release = await acquireLock(ledgerPath, { waitMs: 0, pid: me });
    const theirs = JSON.stringify({ pid: other, startedAt: '2024-01-01T00:00:00.000Z', host: hostname() });
    writeFileSync(lockPath, theirs);
    release();
    expect(readFileSync(lockPath, 'utf8')).toBe(theirs);
  });
});
