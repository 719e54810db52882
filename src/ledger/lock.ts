// One run at a time per ledger: an exclusive lock file `<ledger>.lock` holding {pid, startedAt, host, renewedAt,
// staleAfterMs, token}, renewed while held (lease.ts). A lock whose holder stopped renewing it for the stale
// period, on any host, or whose process is gone on this host, is taken over; a live one is waited for, then
// refused with LockError.

import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { LockError } from '../errors.js';
import {
  createLease,
  type Lease,
  type LockHolder,
  leaseGuard,
  lockContent,
  type OwnLock,
  parseHolder,
  type Renewal,
  renewalEveryMs,
  renewLease,
  renewOnTimer,
  startRenewal,
  stopRenewal,
} from './lease.js';
import {
  errorCode,
  readRaw,
  readWithMtime,
  removeQuietly,
  replaceWhole,
  tryCreate,
  underGuard,
  underGuardWaiting,
} from './lock-files.js';
import { lockPathFor } from './paths.js';

export type { LockHolder } from './lease.js';

/** A lock not renewed for this long is presumed dead, on any host (README "Ledger"). */
export const defaultStaleMs = 60_000;

export interface AcquireLockOptions {
  /** How long to wait for a live holder before throwing LockError; 0 fails at once. */
  readonly waitMs: number;
  /** Interval between checks while waiting. Default 200 ms. */
  readonly pollMs?: number;
  /** Written into the lock and checked on this host. Default process.pid. */
  readonly pid?: number;
  /** Default os.hostname(). A pid is checked only on its own host; the lease counts on every host. */
  readonly host?: string;
  /** Wall clock in epoch ms (compared with renewal times and file mtimes). Default Date.now. */
  readonly now?: () => number;
  /** Default: a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** An empty or unparsable lock older than this is stale: its writer died mid-write. Default 5000 ms. */
  readonly unreadableStaleMs?: number;
  /**
   * A lock not renewed for this long is taken over (the holder's own period when that is longer); this
   * lock is renewed every twelfth of it. Default 60 s.
   */
  readonly staleMs?: number;
  /** Default true: a thread renews the lock. False: the caller calls `renew()` (tests, with `now`). */
  readonly renewInThread?: boolean;
  /**
   * Default true: the lock is handed back once its renewal thread runs. False: at once, the thread still starting;
   * the caller waits for `started` before its own work goes on (a push: with its ledger's writer thread, so that the
   * two isolates start side by side while the ledger opens).
   */
  readonly awaitThread?: boolean;
}

/** The stale lock an acquisition replaced, for the note the CLI prints. */
export interface ReplacedLock {
  /** Undefined for a lock file left empty or half-written. */
  readonly holder: LockHolder | undefined;
  readonly reason: 'dead' | 'not renewed' | 'unreadable';
  /** Epoch ms: its `renewedAt`, or its file's mtime when that is later (or when it has none). */
  readonly lastRenewedMs: number;
}

export interface HeldLock {
  /** For a thread that writes the ledger: its guard is `leaseGuard(lease)`. */
  readonly lease: Lease;
  readonly replaced: ReplacedLock | undefined;
  /** Settles once the renewal thread runs (or failed to start; see lease.ts), or at once without one. */
  readonly started: Promise<void>;
  /** Throws (LedgerLockLost: exit 4) once another run took the lock over. Call before each ledger write. */
  check(): void;
  /** Renews the lock now, as the thread does. */
  renew(): Renewal;
  /**
   * Ends the lease's own thread for a ledger whose writer, on a thread of its own, renews the lease from a timer,
   * and starts such a timer on this thread until the hand-back (lease.ts renewOnTimer): while either thread is busy,
   * the other renews. The lease thread was a whole isolate, ~7 MiB of a push's peak (bench/README.md, "Session 23").
   * Returns the hand-back, once the writer ended: the lease thread starts again, and this thread's timer stops once
   * it runs (the hand-back does not wait for it). Nothing
   * to hand over without a lease thread (`renewInThread`).
   */
  handOver(): () => Promise<void>;
  /** Stops renewing and removes the lock if it is still this one's. Idempotent. */
  release(): void;
}

type Observation =
  | { readonly kind: 'gone' }
  | { readonly kind: 'held'; readonly raw: string; readonly holder: LockHolder; readonly mtimeMs: number }
  | { readonly kind: 'unreadable'; readonly raw: string; readonly mtimeMs: number };

type Verdict = { readonly state: 'live' | ReplacedLock['reason']; readonly lastRenewedMs: number };

/** Takes the lock on `ledgerPath`. */
export async function acquireLock(ledgerPath: string, options: AcquireLockOptions): Promise<HeldLock> {
  const { waitMs, pollMs = 200, pid = process.pid, host = hostname(), now = Date.now } = options;
  const { sleep = (ms: number) => delay(ms), unreadableStaleMs = 5000, staleMs = defaultStaleMs } = options;
  const lockPath = lockPathFor(ledgerPath);
  mkdirSync(dirname(lockPath), { recursive: true, mode: 0o700 });
  const deadline = now() + waitMs;
  const token = randomUUID();
  const hold = (own: OwnLock, replaced?: ReplacedLock) =>
    held(
      createLease(lockPath, own),
      replaced,
      options.renewInThread !== false,
      now,
      options.awaitThread !== false,
    );

  for (;;) {
    const own: OwnLock = {
      pid,
      startedAt: new Date(now()).toISOString(),
      host,
      staleAfterMs: staleMs,
      token,
    };
    const ours = lockContent(own, now());
    if (tryCreate(lockPath, ours)) return hold(own);
    const seen = observe(lockPath);
    if (seen.kind === 'gone') continue;
    const verdict: Verdict =
      seen.kind === 'held'
        ? judgeLock(seen.holder, seen.mtimeMs, { now: now(), host, staleMs, isAlive })
        : {
            state: now() - seen.mtimeMs > unreadableStaleMs ? 'unreadable' : 'live',
            lastRenewedMs: seen.mtimeMs,
          };
    if (verdict.state !== 'live' && takeOver(lockPath, seen.raw, ours, now)) {
      const holder = seen.kind === 'held' ? seen.holder : undefined;
      return hold(own, { holder, reason: verdict.state, lastRenewedMs: verdict.lastRenewedMs });
    }
    if (now() >= deadline) throw lockError(ledgerPath, lockPath, seen, { host, now: now(), staleMs });
    await sleep(pollMs);
  }
}

/**
 * Whether a readable lock is live (pure). On this host a dead pid is stale at once; on any host a lock not
 * renewed for the stale period (ours, or the holder's own when longer) is. A lock of revimport 0.1 has no
 * lease: its file's mtime counts as its renewal, and on this host its live pid keeps it (it never renews).
 */
export function judgeLock(
  holder: LockHolder,
  mtimeMs: number,
  context: { now: number; host: string; staleMs: number; isAlive: (pid: number) => boolean },
): Verdict {
  const sameHost = holder.host === context.host;
  const lastRenewedMs = Math.max(mtimeMs, Date.parse(holder.renewedAt ?? '') || Number.NEGATIVE_INFINITY);
  if (sameHost && !context.isAlive(holder.pid)) return { state: 'dead', lastRenewedMs };
  if (sameHost && holder.renewedAt === undefined) return { state: 'live', lastRenewedMs };
  const staleMs = Math.max(context.staleMs, holder.staleAfterMs ?? 0);
  return { state: context.now - lastRenewedMs > staleMs ? 'not renewed' : 'live', lastRenewedMs };
}

async function held(
  lease: Lease,
  replaced: ReplacedLock | undefined,
  thread: boolean,
  now: () => number,
  awaitThread: boolean,
): Promise<HeldLock> {
  const everyMs = renewalEveryMs(lease);
  let renewal = thread ? startRenewal(lease, everyMs) : undefined;
  const started = renewal?.started ?? Promise.resolve();
  if (awaitThread) await started;
  /** The main thread's own renewals, between a hand-over and its hand-back (beside the writer's). */
  let stopTimer: (() => void) | undefined;
  let released = false;
  return {
    lease,
    replaced,
    started,
    check: leaseGuard(lease),
    renew: () => renewLease(lease, { now }),
    handOver() {
      const own = renewal;
      if (!own || released) return async () => {};
      renewal = undefined;
      stopTimer = renewOnTimer(lease, everyMs);
      const ended = own.end();
      return async () => {
        await ended;
        if (released || renewal) return;
        const again = startRenewal(lease, everyMs, false);
        renewal = again;
        // Not waited for (what is left of a run, its history and report, goes on while the isolate starts: a run
        // waited ~60 ms for it): this thread's timer renews until the thread runs, or until the release.
        void again.started.then(() => {
          if (renewal !== again || released) return;
          stopTimer?.();
          stopTimer = undefined;
        });
      };
    },
    release() {
      if (released) return;
      released = true;
      stopTimer?.();
      stopRenewal(lease);
      // Only our own lock: after a takeover (we were presumed dead) the file belongs to someone else. Under the
      // guard, so that no takeover or renewal lands between the check and the removal.
      const remove = (ensureHeld: () => void) => {
        if (parseHolder(readRaw(lease.lockPath) ?? '')?.token !== lease.holder.token) return;
        ensureHeld();
        removeQuietly(lease.lockPath);
      };
      if (!underGuardWaiting(lease.lockPath, now, remove)) remove(() => {});
    },
  };
}

/**
 * Replaces a stale lock. Two processes may judge the same lock stale at once, and its holder may renew it
 * meanwhile, so the swap happens under the guard file, after re-checking that the lock still holds what was
 * judged stale (a renewal changes `renewedAt`).
 */
function takeOver(lockPath: string, staleRaw: string, ours: string, now: () => number): boolean {
  const outcome = underGuard(lockPath, now, (ensureHeld) => {
    if (readRaw(lockPath) !== staleRaw) return false;
    ensureHeld();
    replaceWhole(lockPath, ours);
    return readRaw(lockPath) === ours;
  });
  // Broken: another taker cleared this guard (stopped inside it) and may hold the lock our write replaced; it
  // finds ours at its next renewal and stops, and this acquirer waits: the lock it wrote goes stale unrenewed.
  return outcome?.value === true && !outcome.broken;
}

function observe(lockPath: string): Observation {
  const read = readWithMtime(lockPath);
  if (!read) return { kind: 'gone' };
  const holder = parseHolder(read.raw);
  return holder === undefined ? { kind: 'unreadable', ...read } : { kind: 'held', holder, ...read };
}

/** Signal 0 checks existence only. EPERM: the process exists but belongs to another user. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/** The note for a takeover: whose lock it was, and when it was last renewed. */
export function describeReplaced(replaced: ReplacedLock, ledgerPath: string, nowMs: number): string {
  const when = renewedAgo(replaced.lastRenewedMs, nowMs);
  if (!replaced.holder) return `took over the unreadable lock file of ${ledgerPath} (written ${when})`;
  const why = replaced.reason === 'dead' ? 'its process is gone' : 'it was not renewed';
  return `took over the lock of ${ledgerPath} (${describeHolder(replaced.holder)}, last renewed ${when}): ${why}`;
}

function lockError(
  ledgerPath: string,
  lockPath: string,
  seen: Observation,
  context: { host: string; now: number; staleMs: number },
): LockError {
  if (seen.kind !== 'held') {
    return new LockError(`another run is active on ${ledgerPath} (lock file being written)`, {
      hint: `Wait for it to finish (--wait <seconds>). If no revimport is running, delete ${lockPath}.`,
    });
  }
  const { holder, mtimeMs } = seen;
  const { lastRenewedMs } = judgeLock(holder, mtimeMs, { ...context, isAlive: () => true });
  const where = holder.host === context.host ? '' : ` on ${holder.host}`;
  const who = `pid ${holder.pid}${where}, started ${holder.startedAt}, last renewed ${renewedAgo(lastRenewedMs, context.now)}`;
  // A lock of revimport 0.1 on this host is never renewed: only its pid ending frees it.
  const legacy = holder.renewedAt === undefined && holder.host === context.host;
  const seconds = Math.round(Math.max(context.staleMs, holder.staleAfterMs ?? 0) / 1000);
  return new LockError(`another run is active on ${ledgerPath} (${who})`, {
    hint: legacy
      ? `Wait for it to finish (--wait <seconds>). If no revimport is running, delete ${lockPath}.`
      : `Wait for it to finish (--wait <seconds>). A run that stops renewing its lock for ${seconds} s is presumed dead, and its lock taken over.`,
  });
}

function describeHolder(holder: LockHolder): string {
  return `pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}`;
}

function renewedAgo(atMs: number, nowMs: number): string {
  return `${new Date(atMs).toISOString()} (${Math.max(0, Math.round((nowMs - atMs) / 1000))} s ago)`;
}
