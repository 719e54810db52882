// The run lock's lease: its holder rewrites `renewedAt` in the lock file every staleAfterMs / 12 from a thread
// of its own (lease-worker.ts), or, while the ledger's writer thread runs, from timers on that thread and the main
// thread (lock.ts handOver), so a lock whose holder died, froze or was suspended goes stale on any host and
// is taken over (lock.ts). The holder finds out at its next renewal, or at the guard before its next ledger
// write, and stops there: the way the PostgreSQL advisory lock's `check()` stops a run that lost it.

import { Worker } from 'node:worker_threads';
import { startWorker } from '../young-generation.js';
import { readRaw, replaceWhole, underGuard, underGuardWaiting } from './lock-files.js';

/** What a lock file holds. */
export interface LockHolder {
  readonly pid: number;
  /** ISO 8601, for the person reading the file or the error. */
  readonly startedAt: string;
  readonly host: string;
  /** ISO 8601: the lease's last renewal. Absent from locks written by revimport 0.1 (no lease). */
  readonly renewedAt?: string;
  /** The holder's stale period: others may take the lock over once it is not renewed for this long. */
  readonly staleAfterMs?: number;
  /** Random per acquisition: tells this holder's lock from anyone else's, whatever its pid and host. */
  readonly token?: string;
}

/** The holder's own lock: every field but the renewal time, which each renewal sets. */
export type OwnLock = Required<Omit<LockHolder, 'renewedAt'>>;

/** A held lock's lease, shareable with another thread (workerData): the SharedArrayBuffer is shared, not copied. */
export interface Lease {
  readonly lockPath: string;
  readonly holder: OwnLock;
  /** Int32 [stop, lost, thread failed], then at byte 16 the last renewal (process.hrtime, ns; monotonic). */
  readonly shared: SharedArrayBuffer;
}

/** What a renewal found: renewed; the lock is someone else's now (or gone); the guard file was taken. */
export type Renewal = 'renewed' | 'lost' | 'busy';

const stop = 0;
const lost = 1;
const threadFailed = 2;

export function createLease(lockPath: string, holder: OwnLock): Lease {
  const lease = { lockPath, holder, shared: new SharedArrayBuffer(24) };
  Atomics.store(lastRenewal(lease), 0, process.hrtime.bigint());
  return lease;
}

export function lockContent(holder: OwnLock, renewedAtMs: number): string {
  const { pid, startedAt, host, staleAfterMs, token } = holder;
  const renewedAt = new Date(renewedAtMs).toISOString();
  return `${JSON.stringify({ pid, startedAt, host, renewedAt, staleAfterMs, token })}\n`;
}

/** The lock file's holder, or undefined for an empty, truncated or foreign file. */
export function parseHolder(raw: string): LockHolder | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { pid, startedAt, host, renewedAt, staleAfterMs, token } = value as Record<string, unknown>;
  // pid 0 or negative would make process.kill signal a whole process group.
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
  if (typeof startedAt !== 'string' || typeof host !== 'string') return undefined;
  return {
    pid,
    startedAt,
    host,
    ...(typeof renewedAt === 'string' ? { renewedAt } : {}),
    ...(typeof staleAfterMs === 'number' && staleAfterMs > 0 ? { staleAfterMs } : {}),
    ...(typeof token === 'string' ? { token } : {}),
  };
}

/**
 * Rewrites the lock with a new `renewedAt`, under the takeover guard, if it is still this lease's. `wait`: try
 * for a while when the guard is taken (a check before a ledger write) rather than report 'busy'.
 */
export function renewLease(lease: Lease, options: { now?: () => number; wait?: boolean } = {}): Renewal {
  const { now = Date.now, wait = false } = options;
  if (Atomics.load(flags(lease), lost) !== 0) return 'lost';
  // When the lock was last seen ours: a run stopped anywhere after this (past the write too) and resumed must
  // not count the stop as renewed, or its next ledger writes would skip confirming the lock.
  let seenOursAt = 0n;
  const renew = (ensureHeld: () => void): Renewal => {
    seenOursAt = process.hrtime.bigint();
    if (parseHolder(readRaw(lease.lockPath) ?? '')?.token !== lease.holder.token) return 'lost';
    const content = lockContent(lease.holder, now());
    // A holder stopped here past the guard's stale age may have lost the lock meanwhile (taken over, and even
    // released again): writing now would bring its lock back, and the run would go on writing the ledger.
    ensureHeld();
    replaceWhole(lease.lockPath, content);
    return 'renewed';
  };
  const outcome = wait
    ? underGuardWaiting(lease.lockPath, now, renew)
    : underGuard(lease.lockPath, now, renew);
  if (!outcome) return 'busy';
  // Broken: stopped after ensureHeld (before or after the write) while another process cleared the guard and
  // took the lock over: our write may even have replaced theirs. This run cannot know it still holds the lock:
  // it stops (and so does the other, should it find our lock at its next renewal).
  const renewal = outcome.broken ? 'lost' : outcome.value;
  if (renewal === 'lost') Atomics.store(flags(lease), lost, 1);
  else Atomics.store(lastRenewal(lease), 0, seenOursAt);
  return renewal;
}

/**
 * The check before each ledger write, on any thread: throws once the lock is lost. Renewals more than half the
 * stale period old mean the process was stopped (Ctrl-Z, a frozen VM) or its disk hung, and another run may
 * have taken the lock meanwhile: the lock is renewed here first, and the write waits for that answer.
 */
export function leaseGuard(lease: Lease): () => void {
  return () => {
    if (Atomics.load(flags(lease), lost) === 0 && sinceRenewalMs(lease) > lease.holder.staleAfterMs / 2) {
      let renewal: Renewal;
      try {
        renewal = renewLease(lease, { wait: true });
      } catch (error) {
        throw lockLostError(lease, `it could not be renewed (${(error as Error).message})`);
      }
      if (renewal === 'busy')
        throw lockLostError(lease, `its guard file ${lease.lockPath}.takeover stayed taken`);
    }
    if (Atomics.load(flags(lease), lost) !== 0) throw lockLostError(lease, takenBy(lease));
    if (Atomics.load(flags(lease), threadFailed) !== 0) {
      throw lockLostError(lease, 'the thread renewing it failed');
    }
  };
}

/** How often a lease is renewed: every twelfth of its stale period (10 ms at least). */
export function renewalEveryMs(lease: Lease): number {
  return Math.max(10, lease.holder.staleAfterMs / 12);
}

/** The lease's own thread, started by `startRenewal`. */
export interface RenewalThread {
  /** Settles once the thread runs (or failed to: see below), before the run's rows are read (young-generation.ts). */
  readonly started: Promise<void>;
  /** Ends the thread (`stopRenewal`); settles once it has. */
  end(): Promise<void>;
}

/**
 * Renews the lease every `everyMs` on a thread of its own until `stopRenewal`; the thread keeps no process alive.
 * `awaited`: its starter waits for `started`, so it keeps the process alive until it runs; else not even while it starts
 * (a run's last steps: the process may end before it ran, its lock released).
 */
export function startRenewal(lease: Lease, everyMs: number, awaited = true): RenewalThread {
  Atomics.store(flags(lease), stop, 0);
  const { worker, started } = startWorker(
    () => new Worker(new URL('./lease-worker.js', import.meta.url), { workerData: { lease, everyMs } }),
  );
  // Without renewals the lock would lapse during the next quiet stretch: the next ledger write stops the run.
  worker.on('error', () => Atomics.store(flags(lease), threadFailed, 1));
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // Unreferenced while it runs: only the waits for its start and its end keep the process alive (exit 13 otherwise).
  if (!awaited) worker.unref();
  return {
    started: started.then(() => void worker.unref()),
    end() {
      worker.ref();
      stopRenewal(lease);
      return ended;
    },
  };
}

/**
 * Renews the lease from this thread's event loop whenever its last renewal, by any thread, is `everyMs` old; returns
 * the timer's stop. A run's main thread and its ledger's writer thread both run one: while either is busy (a merge
 * on the writer, a long synchronous stretch on the main thread), the other renews. The timer keeps no process alive.
 */
export function renewOnTimer(lease: Lease, everyMs: number): () => void {
  const timer = setInterval(() => {
    if (sinceRenewalMs(lease) < everyMs) return;
    try {
      renewLease(lease);
    } catch {
      // As on the lease thread: tried again at the next tick, and the guard before a ledger write renews itself.
    }
  }, everyMs / 2);
  timer.unref();
  return () => clearInterval(timer);
}

/** Ends the lease thread (its wait wakes at once). */
export function stopRenewal(lease: Lease): void {
  Atomics.store(flags(lease), stop, 1);
  Atomics.notify(flags(lease), stop);
}

/** The renewal thread's sleep: true once `stopRenewal` was called. */
export function waitForStop(lease: Lease, ms: number): boolean {
  return Atomics.wait(flags(lease), stop, 0, ms) !== 'timed-out';
}

/** A run-ending error: another run may hold the ledger now (storage-error.ts makes it exit 4). */
export function lockLostError(lease: Lease, why: string): Error {
  const seconds = Math.round(sinceRenewalMs(lease) / 1000);
  const stale = Math.round(lease.holder.staleAfterMs / 1000);
  return Object.assign(
    new Error(
      `lost the run lock ${lease.lockPath}: ${why}; this run last renewed it ${seconds} s ago (a lock not renewed for ${stale} s is presumed dead)`,
    ),
    { name: 'LedgerLockLost' },
  );
}

function takenBy(lease: Lease): string {
  const now = parseHolder(readRaw(lease.lockPath) ?? '');
  if (!now) return 'its lock file is gone (another run took it over and ended, or it was deleted)';
  return `another run took it over (pid ${now.pid} on ${now.host}, started ${now.startedAt})`;
}

function sinceRenewalMs(lease: Lease): number {
  return Number(process.hrtime.bigint() - Atomics.load(lastRenewal(lease), 0)) / 1e6;
}

function flags(lease: Lease): Int32Array {
  return new Int32Array(lease.shared, 0, 3);
}

function lastRenewal(lease: Lease): BigInt64Array {
  return new BigInt64Array(lease.shared, 16, 1);
}
