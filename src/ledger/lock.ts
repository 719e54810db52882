// One run at a time per ledger: an exclusive lock file `<ledger>.lock` holding {pid, startedAt, host}.
// A lock whose process is gone is taken over; a live one is waited for, then refused with LockError.

import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { LockError } from '../errors.js';
import { lockPathFor } from './paths.js';

/** What the lock file holds. */
export interface LockHolder {
  readonly pid: number;
  /** ISO 8601, for the person reading the file or the error. */
  readonly startedAt: string;
  readonly host: string;
}

export interface AcquireLockOptions {
  /** How long to wait for a live holder before throwing LockError; 0 fails at once. */
  readonly waitMs: number;
  /** Interval between checks while waiting. Default 200 ms. */
  readonly pollMs?: number;
  /** Written into the lock and checked on release. Default process.pid. */
  readonly pid?: number;
  /** Default os.hostname(). A holder on another host is never presumed dead. */
  readonly host?: string;
  /** Wall clock in epoch ms (compared with file mtimes). Default Date.now. */
  readonly now?: () => number;
  /** Default: a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** An empty or unparsable lock older than this is stale: its writer died mid-write. Default 5000 ms. */
  readonly unreadableStaleMs?: number;
}

type Observation =
  | { readonly kind: 'gone' }
  | { readonly kind: 'held'; readonly raw: string; readonly holder: LockHolder }
  | { readonly kind: 'unreadable'; readonly raw: string; readonly mtimeMs: number };

/** Takes the lock on `ledgerPath`; resolves to its release function (idempotent). */
export async function acquireLock(ledgerPath: string, options: AcquireLockOptions): Promise<() => void> {
  const { waitMs, pollMs = 200, pid = process.pid, host = hostname(), now = Date.now } = options;
  const { sleep = (ms: number) => delay(ms), unreadableStaleMs = 5000 } = options;
  const lockPath = lockPathFor(ledgerPath);
  mkdirSync(dirname(lockPath), { recursive: true, mode: 0o700 });
  const deadline = now() + waitMs;

  for (;;) {
    const ours = `${JSON.stringify({ pid, startedAt: new Date(now()).toISOString(), host })}\n`;
    if (tryCreate(lockPath, ours)) return releaser(lockPath, ours);
    const seen = observe(lockPath);
    if (seen.kind === 'gone') continue;
    const stale =
      seen.kind === 'held'
        ? seen.holder.host === host && !isAlive(seen.holder.pid)
        : now() - seen.mtimeMs > unreadableStaleMs;
    if (stale && takeOver(lockPath, seen.raw, ours, now, unreadableStaleMs)) return releaser(lockPath, ours);
    if (now() >= deadline) throw lockError(ledgerPath, lockPath, seen, host);
    await sleep(pollMs);
  }
}

function tryCreate(path: string, content: string): boolean {
  try {
    writeFileSync(path, content, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Replaces a stale lock. Two processes may judge the same lock stale at once, so the swap happens
 * under a second exclusive file, `<lock>.takeover`, after re-checking that the lock still holds
 * what was judged stale. The temp-file rename keeps the lock file whole at every instant.
 */
function takeOver(lockPath: string, staleRaw: string, ours: string, now: () => number, staleMs: number) {
  const guard = `${lockPath}.takeover`;
  if (!tryCreate(guard, ours)) {
    // A takeover crashed between creating and removing the guard (a narrow window): clear it.
    const age = fileAge(guard, now);
    if (age !== undefined && age > staleMs) removeQuietly(guard);
    return false;
  }
  try {
    if (readRaw(lockPath) !== staleRaw) return false;
    const temp = `${lockPath}.${randomUUID()}.tmp`;
    writeFileSync(temp, ours, { mode: 0o600 });
    renameSync(temp, lockPath);
    return readRaw(lockPath) === ours;
  } finally {
    removeQuietly(guard);
  }
}

function releaser(lockPath: string, ours: string): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // Only our own lock: after a takeover (we were presumed dead) the file belongs to someone else.
    if (readRaw(lockPath) === ours) removeQuietly(lockPath);
  };
}

function observe(lockPath: string): Observation {
  let raw: string;
  let mtimeMs: number;
  try {
    raw = readFileSync(lockPath, 'utf8');
    mtimeMs = statSync(lockPath).mtimeMs;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { kind: 'gone' };
    throw error;
  }
  const holder = parseHolder(raw);
  return holder === undefined ? { kind: 'unreadable', raw, mtimeMs } : { kind: 'held', raw, holder };
}

function parseHolder(raw: string): LockHolder | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return undefined;
    const { pid, startedAt, host } = value as Record<string, unknown>;
    // pid 0 or negative would make process.kill signal a whole process group.
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
    if (typeof startedAt !== 'string' || typeof host !== 'string') return undefined;
    return { pid, startedAt, host };
  } catch {
    return undefined;
  }
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

function lockError(ledgerPath: string, lockPath: string, seen: Observation, host: string): LockError {
  const who =
    seen.kind === 'held'
      ? `pid ${seen.holder.pid}${seen.holder.host === host ? '' : ` on ${seen.holder.host}`}, started ${seen.holder.startedAt}`
      : 'lock file being written';
  return new LockError(`another run is active on ${ledgerPath} (${who})`, {
    hint: `Wait for it to finish. If no revimport is running, delete ${lockPath}.`,
  });
}

function readRaw(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function fileAge(path: string, now: () => number): number | undefined {
  try {
    return now() - statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String(error.code) : undefined;
}
