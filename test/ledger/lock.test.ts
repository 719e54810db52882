import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LockError } from '../../src/errors.js';
import {
  type AcquireLockOptions,
  acquireLock,
  describeReplaced,
  isAlive,
  judgeLock,
} from '../../src/ledger/lock.js';
import { guardStaleMs } from '../../src/ledger/lock-files.js';
import { compileLedger } from './compile-ledger.mjs';

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
type Written = {
  pid: number;
  startedAt: string;
  host: string;
  renewedAt?: string;
  staleAfterMs?: number;
  token?: string;
};
const holder = () => JSON.parse(readFileSync(lockPath, 'utf8')) as Written;
// Both processes are alive for the whole test: the runner and its parent.
const me = process.pid;
const other = process.ppid;

/** In this process the tests renew by hand (`renew()`), on an injected clock. */
const acquire = (options: AcquireLockOptions) =>
  acquireLock(ledgerPath, { renewInThread: false, ...options });

/** A lock file as another process wrote it, its mtime set to `mtimeMs`. */
function writeLock(content: Written, mtimeMs = Date.now()): void {
  writeFileSync(lockPath, JSON.stringify(content));
  utimesSync(lockPath, new Date(mtimeMs), new Date(mtimeMs));
}

/** A process's state letter from /proc (Linux): R running, S sleeping, T stopped. */
function processState(pid: number): string {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] ?? '';
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${condition}`);
    await delay(10);
  }
}

/** Spawns a process that exits at once, and returns its (now free) pid. */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['-e', '']);
    proc.on('error', reject);
    proc.on('exit', () => resolve(proc.pid!));
  });
}

describe('judgeLock', () => {
  const now = Date.parse('2024-05-01T12:10:00.000Z');
  const ago = (s: number) => new Date(now - s * 1000).toISOString();
  const context = { now, host: 'cron-a', staleMs: 60_000, isAlive: (pid: number) => pid === 100 };
  it.each([
    ['this host, pid gone, renewed now', { pid: 200, host: 'cron-a', renewedAt: ago(0) }, 600, 'dead'],
    ['this host, pid alive, renewed 10 s ago', { pid: 100, host: 'cron-a', renewedAt: ago(10) }, 600, 'live'],
    [
      'this host, pid alive (reused), renewed 61 s ago',
      { pid: 100, host: 'cron-a', renewedAt: ago(61) },
      600,
      'not renewed',
    ],
    [
      'another host, its pid not ours to check, renewed 10 s ago',
      { pid: 200, host: 'pod-x', renewedAt: ago(10) },
      600,
      'live',
    ],
    ['another host, renewed 61 s ago', { pid: 100, host: 'pod-x', renewedAt: ago(61) }, 600, 'not renewed'],
    [
      'another host, renewedAt old but the file written 5 s ago',
      { pid: 100, host: 'pod-x', renewedAt: ago(600) },
      5,
      'live',
    ],
    [
      'another host, its own longer stale period',
      { pid: 100, host: 'pod-x', renewedAt: ago(90), staleAfterMs: 120_000 },
      600,
      'live',
    ],
    [
      'another host, its shorter stale period does not shorten ours',
      { pid: 100, host: 'pod-x', renewedAt: ago(30), staleAfterMs: 1000 },
      600,
      'live',
    ],
    ['0.1 lock (no lease), another host, file 61 s old', { pid: 100, host: 'pod-x' }, 61, 'not renewed'],
    ['0.1 lock (no lease), another host, file 10 s old', { pid: 100, host: 'pod-x' }, 10, 'live'],
    ['0.1 lock (no lease), this host, pid alive, file 1 h old', { pid: 100, host: 'cron-a' }, 3600, 'live'],
    ['0.1 lock (no lease), this host, pid gone', { pid: 200, host: 'cron-a' }, 3600, 'dead'],
  ])('%s', (_label, fields, fileAgeS, state) => {
    const lock = { startedAt: ago(3600), ...fields };
    expect(judgeLock(lock, now - fileAgeS * 1000, context).state).toBe(state);
  });
});

describe('acquireLock', () => {
  it('writes {pid, startedAt, host, renewedAt, staleAfterMs, token} with mode 0600 and removes it on release', async () => {
    const lock = await acquire({ waitMs: 0, now: () => started, staleMs: 30_000 });
    expect(holder()).toEqual({
      pid: me,
      startedAt: '2024-05-01T12:00:00.000Z',
      host: hostname(),
      renewedAt: '2024-05-01T12:00:00.000Z',
      staleAfterMs: 30_000,
      token: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(statSync(lockPath).mode & 0o777).toBe(0o600);
    expect(lock.replaced).toBeUndefined();
    lock.release();
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a second acquirer while a live process holds it, naming pid, start and last renewal', async () => {
    const lock = await acquire({ waitMs: 0, pid: me, now: () => started });
    const second = acquire({ waitMs: 0, pid: other, now: () => started + 4000 });
    await expect(second).rejects.toThrow(LockError);
    await expect(second).rejects.toThrow(
      `another run is active on ${ledgerPath} (pid ${me}, started 2024-05-01T12:00:00.000Z, last renewed `,
    );
    expect(holder().pid).toBe(me);
    lock.release();
  });

  it('gives up after waitMs, polling every pollMs', async () => {
    const lock = await acquire({ waitMs: 0, pid: me });
    let clock = Date.now();
    const sleeps: number[] = [];
    const waiting = acquire({
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
    lock.release();
  });

  it('hands the lock to a waiter once the holder releases it', async () => {
    const events: string[] = [];
    const first = await acquire({ waitMs: 0, pid: me });
    let polls = 0;
    const second = acquire({
      waitMs: 60_000,
      pollMs: 1,
      pid: other,
      sleep: async () => {
        events.push('second waits');
        polls += 1;
        if (polls === 2) {
          first.release();
          events.push('first released');
        }
      },
    }).then((lock) => {
      events.push('second acquired');
      return lock;
    });
    const lock = await second;
    expect(events).toEqual(['second waits', 'second waits', 'first released', 'second acquired']);
    expect(holder().pid).toBe(other);
    first.release();
    expect(holder().pid).toBe(other);
    lock.release();
  });

  it('takes over a lock left by a dead process on this host at once, leaving no temp files', async () => {
    const dead = await deadPid();
    expect(isAlive(dead)).toBe(false);
    writeLock({ pid: dead, startedAt: '2024-01-01T00:00:00.000Z', host: hostname() });
    const lock = await acquire({ waitMs: 0, pid: me });
    expect(holder().pid).toBe(me);
    expect(lock.replaced).toMatchObject({ reason: 'dead', holder: { pid: dead } });
    expect(readdirSync(dir)).toEqual(['ledger.db.lock']);
    lock.release();
  });

  it('lets exactly one of two simultaneous acquirers take over a stale lock', async () => {
    const dead = await deadPid();
    writeLock({ pid: dead, startedAt: '2024-01-01T00:00:00.000Z', host: hostname() });
    const results = await Promise.allSettled([
      acquire({ waitMs: 0, pid: me }),
      acquire({ waitMs: 0, pid: other }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const winner = results.findIndex((r) => r.status === 'fulfilled');
    expect(holder().pid).toBe([me, other][winner]);
  });

  it('waits on a lock renewed on another host; takes it over, with a note, once it went unrenewed for the stale period', async () => {
    let clock = Date.now();
    const theirs = await acquire({ waitMs: 0, host: 'pod-a', pid: 4242, now: () => clock });
    const startedAt = holder().startedAt;
    clock += 50_000;
    expect(theirs.renew()).toBe('renewed');
    clock += 50_000;
    // 100 s after it started, 50 s after its last renewal: live.
    await expect(acquire({ waitMs: 0, host: 'pod-b', now: () => clock })).rejects.toThrow(
      `(pid 4242 on pod-a, started ${startedAt}, last renewed ${new Date(clock - 50_000).toISOString()} (50 s ago))`,
    );
    clock += 11_000;
    const ours = await acquire({ waitMs: 0, host: 'pod-b', pid: me, now: () => clock });
    expect(holder()).toMatchObject({ pid: me, host: 'pod-b' });
    expect(ours.replaced).toEqual({
      holder: expect.objectContaining({ pid: 4242, host: 'pod-a', startedAt }),
      reason: 'not renewed',
      lastRenewedMs: clock - 61_000,
    });
    expect(describeReplaced(ours.replaced!, ledgerPath, clock)).toBe(
      `took over the lock of ${ledgerPath} (pid 4242 on pod-a, started ${startedAt}, last renewed ` +
        `${new Date(clock - 61_000).toISOString()} (61 s ago)): it was not renewed`,
    );
    ours.release();
  });

  it('takes over a lock of revimport 0.1 (no lease) from another host once its file is older than the stale period', async () => {
    const dead = { pid: 4242, startedAt: '2024-01-01T00:00:00.000Z', host: 'build-07' };
    writeLock(dead, Date.now() - 30_000);
    await expect(acquire({ waitMs: 0 })).rejects.toThrow(
      `(pid 4242 on build-07, started 2024-01-01T00:00:00.000Z, last renewed `,
    );
    writeLock(dead, Date.now() - 61_000);
    const lock = await acquire({ waitMs: 0, pid: me });
    expect(lock.replaced).toMatchObject({ holder: dead, reason: 'not renewed' });
    expect(holder().pid).toBe(me);
    lock.release();
  });

  it('a holder whose lock was taken over finds out at its next renewal and check, and leaves the new lock alone', async () => {
    let clock = Date.now();
    const first = await acquire({ waitMs: 0, host: 'pod-a', now: () => clock });
    clock += 61_000;
    const second = await acquire({ waitMs: 0, host: 'pod-b', pid: 4343, now: () => clock });
    expect(first.check).not.toThrow();
    expect(first.renew()).toBe('lost');
    expect(first.check).toThrow(
      expect.objectContaining({
        name: 'LedgerLockLost',
        message: expect.stringContaining(
          `lost the run lock ${lockPath}: another run took it over (pid 4343 on pod-b, started `,
        ),
      }),
    );
    const taken = readFileSync(lockPath, 'utf8');
    first.release();
    expect(readFileSync(lockPath, 'utf8')).toBe(taken);
    second.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('check() confirms the lock itself when renewals stalled past half the stale period', async () => {
    // Nothing renews (no thread): 30 ms later the lease is past half its 40 ms.
    const kept = await acquire({ waitMs: 0, staleMs: 40 });
    const before = holder().renewedAt;
    await delay(30);
    expect(kept.check).not.toThrow();
    expect(holder().renewedAt).not.toBe(before);
    kept.release();

    const lost = await acquire({ waitMs: 0, staleMs: 40, host: 'pod-a' });
    const taker = await acquire({ waitMs: 0, staleMs: 40, host: 'pod-b', now: () => Date.now() + 1000 });
    await delay(30);
    expect(lost.check).toThrow('another run took it over');
    taker.release();
  });

  it('a renewal waits for the guard file another process holds, and clears one left by a dead process', async () => {
    const lock = await acquire({ waitMs: 0 });
    const content = readFileSync(lockPath, 'utf8');
    writeFileSync(`${lockPath}.takeover`, '1\n');
    expect(lock.renew()).toBe('busy');
    expect(readFileSync(lockPath, 'utf8')).toBe(content);
    const old = new Date(Date.now() - 10_000);
    utimesSync(`${lockPath}.takeover`, old, old);
    expect(lock.renew()).toBe('renewed');
    expect(readdirSync(dir)).toEqual(['ledger.db.lock']);
    lock.release();
  });

  it.each([
    ['empty', ''],
    ['truncated', '{"pid": 12'],
    ['pid 0', JSON.stringify({ pid: 0, startedAt: 'x', host: hostname() })],
  ])('waits on a young %s lock file, takes it over once old', async (_label, content) => {
    writeFileSync(lockPath, content);
    await expect(acquire({ waitMs: 0 })).rejects.toThrow('(lock file being written)');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPath, old, old);
    const lock = await acquire({ waitMs: 0, pid: me });
    expect(holder().pid).toBe(me);
    expect(lock.replaced).toMatchObject({ holder: undefined, reason: 'unreadable' });
    lock.release();
  });

  it('release leaves a lock that someone else took over', async () => {
    const lock = await acquire({ waitMs: 0, pid: me });
    const theirs = JSON.stringify({ pid: other, startedAt: '2024-01-01T00:00:00.000Z', host: hostname() });
    writeFileSync(lockPath, theirs);
    lock.release();
    expect(readFileSync(lockPath, 'utf8')).toBe(theirs);
  });
});

describe('a holder in a process of its own', () => {
  // The child runs the real lock code, transpiled to plain JS (Node 20 runs no .ts; the thread is a file).
  let code: string;
  beforeAll(() => {
    code = mkdtempSync(join(tmpdir(), 'revimport-lock-code-'));
    compileLedger(join(code, 'code'));
  });
  afterAll(() => {
    rmSync(code, { recursive: true, force: true });
  });

  // The main thread spins until the test creates argv[3]: a long synchronous stretch (a big merge). `before`: what
  // the holder does between taking the lock and spinning. `idle`: it waits on a timer instead, its event loop free.
  // `awaitThread`: acquireLock's option (false: the lock comes back while its thread is still starting).
  const busyHolder = (before = '', idle = false, awaitThread = true) => `
import { existsSync } from 'node:fs';
import { acquireLock } from './code/ledger/lock.js';
import { openLedger } from './code/ledger/ledger.js';
import { WorkerLedger } from './code/ledger/worker-ledger.js';
const lock = await acquireLock(process.argv[2], { waitMs: 0, host: 'pod-a', staleMs: 1000, awaitThread: ${awaitThread} });
let end = async () => {};
${before}
process.stdout.write('held\\n');
while (!existsSync(process.argv[3])) ${idle ? 'await new Promise((resolve) => setTimeout(resolve, 50));' : '{}'}
await end();
lock.release();
`;

  /** Runs the holder; 1.2, 1.8 and 2.5 s into its busy stretch (each past the 1 s stale period), tries to take the lock. */
  async function attemptsAgainst(holderScript: string): Promise<string[]> {
    const script = join(code, 'busy-holder.mjs');
    const done = join(code, 'done');
    rmSync(done, { force: true });
    writeFileSync(script, holderScript);
    const child = spawn(process.execPath, [script, ledgerPath, done], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const attempts: string[] = [];
    for (const pause of [1200, 600, 700]) {
      await delay(pause);
      const attempt = await acquire({ waitMs: 0, host: 'pod-b', staleMs: 1000 }).then(
        (lock) => {
          lock.release();
          return 'taken over';
        },
        (error: Error) => error.message,
      );
      attempts.push(attempt);
    }
    writeFileSync(done, '');
    expect(await exited).toBe(0);
    return attempts;
  }

  const refusedEachTime = [
    expect.stringContaining('on pod-a'),
    expect.stringContaining('on pod-a'),
    expect.stringContaining('on pod-a'),
  ];

  it('keeps the lock renewed while the main thread is busy for longer than the stale period', async () => {
    expect(await attemptsAgainst(busyHolder())).toEqual(refusedEachTime);
    expect(readdirSync(dir)).toEqual([]);
  });

  // A ledger whose writer runs on a thread of its own renews the lease there (lock.ts handOver): the lease thread
  // ends while the writer runs, and starts again once it has ended.
  it('a hand-over ends the lease thread: with the main thread busy and no writer, the lock goes stale', async () => {
    const attempts = await attemptsAgainst(busyHolder('lock.handOver();'));
    expect(attempts[0]).toBe('taken over');
  });

  // The main thread's own timer renews from the hand-over (the writer's is the other): without it, taken over.
  it('between a hand-over and its hand-back, a main thread that is not busy renews the lease', async () => {
    const attempts = await attemptsAgainst(busyHolder('lock.handOver();', true));
    expect(attempts).toEqual(refusedEachTime);
    expect(readdirSync(dir)).toEqual([]);
  });

  // A push takes the lock without waiting for its thread to run (it waits later, with its writer's): the thread then
  // starts by itself, and renews while the main thread is busy from the moment it has the lock.
  it('a lock handed back before its thread runs is renewed by that thread once it does', async () => {
    const before = `
const first = await Promise.race([
  lock.started.then(() => 'started'),
  new Promise((resolve) => setImmediate(() => resolve('not yet'))),
]);
if (first !== 'not yet') throw new Error('the thread ran before acquireLock returned: ' + first);`;
    expect(await attemptsAgainst(busyHolder(before, false, false))).toEqual(refusedEachTime);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a hand-back starts the lease thread again', async () => {
    const attempts = await attemptsAgainst(busyHolder('await lock.handOver()();'));
    expect(attempts).toEqual(refusedEachTime);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a worker ledger's writer renews the lease it was handed while the main thread is busy", async () => {
    const writer = `
const ledger = openLedger(process.argv[2], { guard: lock.check });
const worker = new WorkerLedger(ledger, { lock });
await worker.started();
worker.renewInWriter();
end = async () => {
  await worker.close();
  ledger.close();
};`;
    const attempts = await attemptsAgainst(busyHolder(writer));
    expect(attempts).toEqual(refusedEachTime);
  });

  // Stops itself (SIGSTOP) at one point of a renewal, as a run suspended by Ctrl-Z or a frozen VM may: its file
  // calls are wrapped (syncBuiltinESMExports: the lock code's named imports see the wrappers). A line on stdin
  // names the point and starts the renewal; `check()` follows, as before a ledger write.
  const stoppingHolder = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
let stopAt = '';
const stop = (point) => {
  if (stopAt !== point) return;
  stopAt = '';
  process.kill(process.pid, 'SIGSTOP');
};
const { readFileSync, renameSync, unlinkSync } = fs;
fs.readFileSync = (path, ...rest) => {
  const read = readFileSync(path, ...rest);
  if (String(path).endsWith('.lock')) stop('after reading its own lock');
  return read;
};
fs.renameSync = (from, to) => {
  if (to.endsWith('.lock')) stop('right before its write');
  renameSync(from, to);
  if (to.endsWith('.lock')) stop('after its write');
};
fs.unlinkSync = (path) => {
  unlinkSync(path);
  if (path.endsWith('.takeover')) stop('after leaving the guard');
};
syncBuiltinESMExports();
const { acquireLock } = await import('./code/ledger/lock.js');
const lock = await acquireLock(process.argv[2], { waitMs: 0, host: 'pod-a', staleMs: 100, renewInThread: false });
process.stdout.write('held\\n');
process.stdin.setEncoding('utf8').once('data', (line) => {
  stopAt = line.trim();
  const renewal = lock.renew();
  let check = 'passed';
  try {
    lock.check();
  } catch (error) {
    check = error.message;
  }
  process.stdout.write(JSON.stringify({ renewal, check }) + '\\n');
  lock.release();
  process.stdin.destroy();
});
`;

  /**
   * Starts the stopping holder, has it stop at `point` of a renewal, takes its lock over as the next run (and
   * releases it when `nextEnds`), resumes it: what its renewal and check said, and the next run's lock.
   */
  async function stopInRenewal(point: string, nextEnds: boolean) {
    const script = join(code, 'stopping-holder.mjs');
    writeFileSync(script, stoppingHolder);
    const child = spawn(process.execPath, [script, ledgerPath], { stdio: ['pipe', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await until(() => stdout.includes('held'));
      child.stdin.write(`${point}\n`);
      await until(() => processState(child.pid!) === 'T');
      // Inside the guard, the renewal holds it (the next run clears it once older than guardStaleMs).
      expect(readdirSync(dir).includes('ledger.db.lock.takeover')).toBe(point !== 'after leaving the guard');
      // Stopped past its 100 ms stale period, as its own clock will tell it; the next run's clock is past the
      // guard's stale age too (5 s), which the test does not wait for.
      await delay(150);
      const next = await acquire({
        waitMs: 0,
        staleMs: 100,
        host: 'pod-b',
        pid: me,
        now: () => Date.now() + guardStaleMs + 1000,
      });
      expect(next.replaced).toMatchObject({ reason: 'not renewed', holder: { host: 'pod-a' } });
      const nextLock = readFileSync(lockPath, 'utf8');
      if (nextEnds) next.release();
      child.kill('SIGCONT');
      await until(() => stdout.includes('renewal'));
      const said = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { renewal: string; check: string };
      expect(await exited).toBe(0);
      return { said, next, nextLock };
    } finally {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
  }

  it.each(
    ['after reading its own lock', 'after its write', 'after leaving the guard'].flatMap((point) => [
      { point, next: 'still holds it', nextEnds: false },
      { point, next: 'has ended and released it', nextEnds: true },
    ]),
  )(
    'a holder stopped in its renewal $point, whose lock the next run took over and $next, finds out and leaves the lock to it',
    async ({ point, nextEnds }) => {
      const { said, next, nextLock } = await stopInRenewal(point, nextEnds);
      expect(said.check, JSON.stringify(said)).toContain(`lost the run lock ${lockPath}: `);
      if (nextEnds) {
        expect(readdirSync(dir)).toEqual([]);
      } else {
        expect(readFileSync(lockPath, 'utf8')).toBe(nextLock);
        expect(next.renew()).toBe('renewed');
        next.release();
      }
    },
  );

  // Between its last look at its guard and the rename, nothing keeps a renewal from a write it may no longer
  // make: it finds out after (its guard was cleared), and both runs stop before their next ledger write.
  it('a holder stopped right before its write, whose lock the next run took over, finds out, and so does the next run', async () => {
    const { said, next } = await stopInRenewal('right before its write', false);
    expect(said).toEqual({
      renewal: 'lost',
      check: expect.stringContaining(`lost the run lock ${lockPath}: `),
    });
    expect(next.renew()).toBe('lost');
    expect(next.check).toThrow('lost the run lock');
    next.release();
  });
});
