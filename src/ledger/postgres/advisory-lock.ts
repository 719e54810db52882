// One run at a time per target across hosts: a session-level PostgreSQL advisory lock, held on a connection
// of its own for the whole run. The server releases it when that connection ends, so a host that dies or
// is cut off never leaves a stale lock; a run that loses it (the connection dropped) stops before its
// next ledger write (`lost`). A held lock is waited for (--wait), then refused with LockError (exit 5).
import { hash } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { DeliveryError, LockError } from '../../errors.js';
import type { Target } from '../target.js';
import { clientFor, openError, type Sql } from './client.js';
import type { ConnectionSource } from './connection.js';
import { connectionOptions, maskUrl } from './connection.js';

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
  const { waitMs, pollMs = 200, sleep = (ms: number) => delay(ms), now = Date.now } = options;
  const location = maskUrl(source.url);
  const started = new Date(now()).toISOString();
  // Another host's LockError names this one by it (pg_stat_activity.application_name, 64 bytes at most).
  // One connection (max 1): the lock is that connection's, and its closing means the lock is gone.
  let held = false;
  let lost: Error | undefined;
  const sql = clientFor(source, `revimport lock ${process.pid}@${hostname()} ${started}`.slice(0, 63), () => {
    if (held) lost ??= new Error('the connection holding the lock closed');
  });
  const [namespace, key] = lockKeys(target);
  let released = false;
  const deadline = now() + waitMs;
  let heartbeat: NodeJS.Timeout | undefined;
  try {
    // The lock is the run's first connection. A server that accepts TCP and closes it at once made the
    // client reconnect forever (postgres.js 3.4.9 waiting on its TLS offer): the first answer has a deadline.
    await firstAnswer(sql, connectTries * (connectionOptions(source).connectTimeout ?? 10) * 1000);
    // The lock's connection is idle for the whole run: a server's idle_session_timeout (PostgreSQL 14+, often
    // set on managed services) would end it and the run with it; keepalives make the server notice a host
    // that vanished without closing it, so the lock does not outlive it for hours. Each may be refused
    // (older servers): the lock still works.
    for (const setting of keepSession) await sql.unsafe(setting).catch(() => undefined);
    for (;;) {
      const rows = await sql.unsafe('SELECT pg_try_advisory_lock($1, $2) AS locked', [namespace, key]);
      if (rows[0]!.locked === true) break;
      if (now() >= deadline) {
        const holder = await holderOf(sql, namespace, key);
        throw new LockError(
          `another run is active for ${target.baseUrl} on the ledger ${location}${holder}`,
          {
            hint: 'Wait for it to finish (--wait <seconds>). The lock is released when that run ends or its connection drops.',
          },
        );
      }
      await sleep(pollMs);
    }
    held = true;
    // A query now and then keeps the session alive through idle timeouts of poolers and firewalls, and finds a
    // lost connection before the next ledger write does.
    heartbeat = setInterval(() => {
      sql.unsafe('SELECT 1').catch(() => undefined);
    }, heartbeatMs);
    heartbeat.unref();
    return {
      check() {
        if (!lost) return;
        throw new DeliveryError(`lost the run lock on the ledger ${location}: ${lost.message}`, {
          hint: 'What was not recorded as delivered stays outstanding: run the same command again.',
          cause: lost,
        });
      },
      async release() {
        if (released) return;
        released = true;
        clearInterval(heartbeat);
        try {
          // Closing the connection releases the lock too; the unlock makes it immediate on a pooled server.
          if (!lost) await sql.unsafe('SELECT pg_advisory_unlock($1, $2)', [namespace, key]);
        } catch {
          // The connection is gone: so is the lock.
        } finally {
          held = false;
          await sql.end({ timeout: 5 });
        }
      },
    };
  } catch (error) {
    clearInterval(heartbeat);
    await sql.end({ timeout: 1 }).catch(() => undefined);
    if (error instanceof LockError) throw error;
    // The lock is the run's first connection: a wrong URL, login or certificate is reported from here.
    throw openError(error, location);
  }
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
