// The file operations behind the ledger's run lock (lock.ts) and its lease (lease.ts): exclusive creation,
// whole-file replacement, and the `<lock>.takeover` guard under which a lock file is replaced or removed
// (a takeover, a renewal, a release), so that no two of those interleave between their check and their write.

import { randomUUID } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';

/**
 * A guard file older than this was left by a process that died (or was suspended) inside the guard, a window
 * of a few system calls: it is cleared.
 */
export const guardStaleMs = 5000;

/** Creates `path` with `content` unless it exists (O_EXCL, also on NFS v3+). */
export function tryCreate(path: string, content: string): boolean {
  try {
    writeFileSync(path, content, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/** The file's content, or undefined when it does not exist. */
export function readRaw(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Content and mtime of one and the same file (one descriptor: a rename in between cannot mix two). */
export function readWithMtime(path: string): { raw: string; mtimeMs: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { mtimeMs } = fstatSync(fd);
    return { raw: readFileSync(fd, 'utf8'), mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** Replaces `path` by a new file holding `content`: a temp file renamed over it keeps it whole at every instant. */
export function replaceWhole(path: string, content: string): void {
  const temp = `${path}.${randomUUID()}.tmp`;
  try {
    writeFileSync(temp, content, { mode: 0o600 });
    renameSync(temp, path);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
}

export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

export function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String(error.code) : undefined;
}

/**
 * What `critical` did under the guard. `broken`: while it ran, another process cleared the guard as stale (this
 * one was stopped inside it for guardStaleMs: Ctrl-Z, a frozen VM) and may have written meanwhile, so a write
 * of `critical` may have replaced theirs.
 */
export interface Guarded<T> {
  readonly value: T;
  readonly broken: boolean;
}

/** Thrown by `ensureHeld` inside `critical`: the guard is no longer this one's, so `critical` writes nothing. */
class GuardLost extends Error {}

/**
 * Runs `critical` holding the exclusive file `<lock>.takeover`. Undefined when another process holds it, or
 * when `critical`'s `ensureHeld()` (called right before its write) found the guard cleared meanwhile; a guard
 * older than guardStaleMs (its holder died or was stopped inside) is cleared and taken. Each acquisition writes
 * a token of its own into the guard, so that a holder resumed after its guard was cleared knows it, and leaves
 * the new holder's guard in place.
 */
export function underGuard<T>(
  lockPath: string,
  now: () => number,
  critical: (ensureHeld: () => void) => T,
): Guarded<T> | undefined {
  const guard = `${lockPath}.takeover`;
  const mine = `${process.pid} ${randomUUID()}\n`;
  if (!tryCreate(guard, mine)) {
    const age = fileAge(guard, now);
    if (age === undefined || age <= guardStaleMs) return undefined;
    removeQuietly(guard);
    if (!tryCreate(guard, mine)) return undefined;
  }
  const held = () => readRaw(guard) === mine;
  try {
    const value = critical(() => {
      if (!held()) throw new GuardLost();
    });
    return { value, broken: !held() };
  } catch (error) {
    if (error instanceof GuardLost) return undefined;
    throw error;
  } finally {
    if (held()) removeQuietly(guard);
  }
}

/**
 * underGuard for a caller that must not give up at once (a release, a check before a ledger write): tries
 * every few ms, on this thread, until `maxMs` has passed. Another holder keeps the guard for microseconds.
 */
export function underGuardWaiting<T>(
  lockPath: string,
  now: () => number,
  critical: (ensureHeld: () => void) => T,
  maxMs = guardStaleMs * 2,
): Guarded<T> | undefined {
  const deadline = Date.now() + maxMs;
  for (;;) {
    const outcome = underGuard(lockPath, now, critical);
    if (outcome || Date.now() >= deadline) return outcome;
    sleepSync(5);
  }
}

const nap = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` (Atomics.wait on a value nothing changes). */
export function sleepSync(ms: number): void {
  Atomics.wait(nap, 0, 0, ms);
}

function fileAge(path: string, now: () => number): number | undefined {
  try {
    return now() - statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}
