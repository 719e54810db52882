// One run at a time per target across hosts: a session-level PostgreSQL advisory lock, held on a connection
// of its own for the whole run. A held lock is waited for (--wait), then refused with LockError (exit 5).
import { hash } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { DeliveryError, LockError } from '../../errors.js';
import type { Target } from '../target.js';
import { clientFor, openError, type Sql } from './client.js';
import type { ConnectionSource } from './connection.js';
import { connectionOptions, maskUrl } from './connection.js';

// The server releases the lock when its connection ends, so a host that dies or is cut off never leaves a
// stale lock; a run that loses it (the connection dropped) stops before its next ledger write (`lost`).

export interface AdvisoryLockOptions {
  /** How long to wait for another run's lock before throwing LockError; 0 fails at once. */
  readonly waitMs: number;
  /** Interval between tries while waiting. Default 200 ms. */
  readonly pollMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

export interface AdvisoryLock {
  /** Throws (DeliveryError) once the lock's connection was lost: another run may hold it now. */
  check(): void;
  /** Unlocks and closes the connection. Idempotent. */
  release(): Promise<void>;
}

/** How long the lock's first query may take, in connect timeouts (postgres.js retries within it). */
const connectTries = 3;
const heartbeatMs = 30_000;
const keepSession = [
  'SET idle_session_timeout = 0',
  'SET tcp_keepalives_idle = 60',
  'SET tcp_keepalives_interval = 10',
  'SET tcp_keepalives_count = 6',
];

/** The first query's answer, or a CONNECT_TIMEOUT error (a connection error: exit 2 via openError). */
async function firstAnswer(sql: Sql, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error(`no answer from the server within ${ms / 1000} s`), {
            code: 'CONNECT_TIMEOUT',
          }),
        ),
      ms,
    );
  });
  try {
    await Promise.race([sql.unsafe('SELECT 1'), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The advisory lock's two int4 keys: revimport's namespace, and the target (base URL and account: every key of one account takes turns, issue 19). */
export function lockKeys(target: Target): [number, number] {
  const namespace = hash('sha256', 'revimport', 'buffer').readInt32BE(0);
  const of = hash('sha256', `${target.baseUrl}\n${target.account}`, 'buffer').readInt32BE(0);
  return [namespace, of];
}

export async function acquireAdvisoryLock(
  source: ConnectionSource,
  target: Target,
  options: AdvisoryLockOptions,
): Promise<AdvisoryLock> {
  const { now = Date.now } = options;
  const location = maskUrl(source.url);
  const started = new Date(now()).toISOString();
  // Another host's LockError names this one by it (pg_stat_activity.application_name, 64 bytes at most).
  // One connection (max 1): the lock is that connection's, and its closing means the lock is gone.
  const session: LockSession = { held: false, lost: undefined };
  const sql = clientFor(source, `revimport lock ${process.pid}@${hostname()} ${started}`.slice(0, 63), () => {
    if (session.held) session.lost ??= new Error('the connection holding the lock closed');
  });
  const keys = lockKeys(target);
  const deadline = now() + options.waitMs;
  try {
    await openSession(sql, source);
    await takeLock(sql, keys, deadline, options, async () => {
      const holder = await holderOf(sql, ...keys);
      return new LockError(`another run is active for ${target.baseUrl} on the ledger ${location}${holder}`, {
        hint: 'Wait for it to finish (--wait <seconds>). The lock is released when that run ends or its connection drops.',
      });
    });
    session.held = true;
    return heldLock(sql, keys, session, location);
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => undefined);
    if (error instanceof LockError) throw error;
    // The lock is the run's first connection: a wrong URL, login or certificate is reported from here.
    throw openError(error, location);
  }
}

/** Whether the lock is held, and why its connection was lost once it was. */
interface LockSession {
  held: boolean;
  lost: Error | undefined;
}

async function openSession(sql: Sql, source: ConnectionSource): Promise<void> {
  // The lock is the run's first connection. A server that accepts TCP and closes it at once made the
  // client reconnect forever (postgres.js 3.4.9 waiting on its TLS offer): the first answer has a deadline.
  await firstAnswer(sql, connectTries * (connectionOptions(source).connectTimeout ?? 10) * 1000);
  // The lock's connection is idle for the whole run: a server's idle_session_timeout (PostgreSQL 14+, often
  // set on managed services) would end it and the run with it; keepalives make the server notice a host
  // that vanished without closing it, so the lock does not outlive it for hours. Each may be refused
  // (older servers): the lock still works.
  for (const setting of keepSession) await sql.unsafe(setting).catch(() => undefined);
}

/** Tries the lock every `pollMs` until it is taken, or throws `refusal()` once the deadline has passed. */
async function takeLock(
  sql: Sql,
  [namespace, key]: [number, number],
  deadline: number,
  { pollMs = 200, sleep = (ms: number) => delay(ms), now = Date.now }: AdvisoryLockOptions,
  refusal: () => Promise<LockError>,
): Promise<void> {
  for (;;) {
    const rows = await sql.unsafe('SELECT pg_try_advisory_lock($1, $2) AS locked', [namespace, key]);
    if (rows[0]!.locked === true) return;
    if (now() >= deadline) throw await refusal();
    await sleep(pollMs);
  }
}

/** The held lock: a heartbeat on its connection, `check` for a lost connection, `release` once. */
function heldLock(
  sql: Sql,
  [namespace, key]: [number, number],
  session: LockSession,
  location: string,
): AdvisoryLock {
  let released = false;
  // A query now and then keeps the session alive through idle timeouts of poolers and firewalls, and finds a
  // lost connection before the next ledger write does.
  const heartbeat = setInterval(() => {
    sql.unsafe('SELECT 1').catch(() => undefined);
  }, heartbeatMs);
  heartbeat.unref();
  return {
    check() {
      if (!session.lost) return;
      throw new DeliveryError(`lost the run lock on the ledger ${location}: ${session.lost.message}`, {
        hint: 'What was not recorded as delivered stays outstanding: run the same command again.',
        cause: session.lost,
      });
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      try {
        // Closing the connection releases the lock too; the unlock makes it immediate on a pooled server.
        if (!session.lost) await sql.unsafe('SELECT pg_advisory_unlock($1, $2)', [namespace, key]);
      } catch {
        // The connection is gone: so is the lock.
      } finally {
        session.held = false;
        await sql.end({ timeout: 5 });
      }
    },
  };
}

/** Who holds the lock, as `pg_stat_activity` tells it: " (revimport lock 123@host 2026-...)". */
async function holderOf(connection: Sql, namespace: number, key: number): Promise<string> {
  try {
    const rows = await connection.unsafe(
      `SELECT a.application_name, a.client_addr::text AS addr FROM pg_locks AS l
        JOIN pg_stat_activity AS a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
        AND l.classid = ($1::bigint & 4294967295)::text::oid AND l.objid = ($2::bigint & 4294967295)::text::oid`,
      [namespace, key],
    );
    const row = rows[0];
    if (!row) return '';
    const name = String(row.application_name ?? '').replace(/^revimport lock /, '');
    return ` (${name || 'another client'}${row.addr ? ` from ${row.addr}` : ''})`;
  } catch {
    return '';
  }
}
