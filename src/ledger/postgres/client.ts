// The PostgreSQL client (postgres.js) as the ledger and its lock use it: one configuration, which errors mean
// the server or the connection is gone, and what to tell the user when the ledger cannot be opened.
import { connect, type Socket } from 'node:net';
import postgres from 'postgres';
import { ConfigError, DeliveryError } from '../../errors.js';
import { type ConnectionSource, connectionOptions } from './connection.js';

/** Error codes and classes that mean the server or the connection went away, not a wrong statement. */
const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

/** Node's codes for a TLS certificate it refused (sslmode verify-ca / verify-full). */
function isCertificateError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('ERR_TLS_CERT') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code))
  );
}

export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  // 08: connection exception; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now.
  return connectionCodes.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code);
}

export type Sql = postgres.Sql<Record<string, never>>;
export type TransactionSql = postgres.TransactionSql<Record<string, never>>;

/** Client options shared by the ledger's connections and the lock's. */
export function clientFor(source: ConnectionSource, applicationName: string, onclose?: () => void): Sql {
  const options = connectionOptions(source);
  // `socket` is in postgres.js's options (connection.js createSocket), not in its types. Once the client is
  // ended no new socket is opened: postgres.js 3.4.9 went on reconnecting after end() to a server that
  // closes every connection at once, which kept the process alive (measured: 1,000 sockets a second).
  let ended = false;
  const socket = {
    socket: (target: Parameters<typeof connectNoDelay>[0]) =>
      ended ? new Promise<Socket>(() => {}) : connectNoDelay(target),
  };
  const sql = postgres({
    host: options.host,
    port: options.port,
    database: options.database,
    username: options.username,
    password: options.password,
    ssl: options.ssl,
    max: 1,
    onnotice: () => {},
    onclose,
    // postgres.js ends a connection after 30 to 60 minutes by default: the lock's must live as long as the run.
    max_lifetime: null,
    connect_timeout: options.connectTimeout ?? 10,
    // synchronous_commit on, whatever the database or role sets: a journal row must be durable before its
    // request goes out (settles lower it for their own transaction only).
    connection: { application_name: applicationName, ...options.connection, synchronous_commit: 'on' },
    ...(socket as object),
    // bigint ids and epoch ms are numbers, as the SQLite ledger returns them (exact below 2^53).
    types: {
      bigint: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) },
    } as unknown as Record<string, never>,
  }) as unknown as Sql;
  const end = sql.end.bind(sql);
  sql.end = (options) => {
    ended = true;
    return end(options);
  };
  return sql;
}

/** Why the ledger database could not be opened, said so that the user can act on it (exit 2). */
export function openError(error: unknown, location: string): unknown {
  if (error instanceof ConfigError) return error;
  const code = (error as { code?: unknown })?.code;
  const message = (error as Error)?.message ?? String(error);
  if (code === '28P01' || code === '28000') {
    return new ConfigError(`the ledger database ${location} refused the login: ${message}`, {
      hint: 'Check the user and password (in the URL, statePasswordFile, or PGPASSWORD).',
      cause: error,
    });
  }
  if (code === '3D000') {
    return new ConfigError(`the ledger database ${location} does not exist: ${message}`, {
      hint: 'Create it (createdb), or point --state at an existing database.',
      cause: error,
    });
  }
  if (code === '42501') {
    return new ConfigError(`no right to create the ledger's tables in ${location}: ${message}`, {
      hint: 'Grant the user CREATE on the database (for the schema "revimport"), or create it once as its owner.',
      cause: error,
    });
  }
  if (code === '53300' || code === '57P03') {
    return new DeliveryError(`the ledger database ${location} takes no more connections now: ${message}`, {
      hint: 'Run again later; each run uses up to three connections (the lock, the ledger, history).',
      cause: error,
    });
  }
  if (code === '42704' || code === '22023') {
    return new ConfigError(`the ledger database ${location} refused a setting: ${message}`, {
      hint: 'Check the options parameter of the ledger URL.',
      cause: error,
    });
  }
  if (isCertificateError(error)) {
    return new ConfigError(
      `the ledger database ${location} has a certificate this machine does not accept: ${message}`,
      {
        hint: 'For a private CA give Node its certificate: NODE_EXTRA_CA_CERTS=/path/ca.pem; or lower sslmode to require (encrypted, not verified).',
        cause: error,
      },
    );
  }
  if (isConnectionError(error)) {
    return new ConfigError(`cannot reach the ledger database ${location}: ${message}`, {
      hint: 'Check the host and port in --state (or PGHOST/PGPORT), that the server runs, and sslmode.',
      cause: error,
    });
  }
  return error;
}

/**
 * The connection's socket with Nagle's algorithm off: postgres.js pipelines queries on one connection, and
 * with Nagle on, a query written while the previous one is unacknowledged waited for the peer's delayed ACK
 * (~40 ms on Linux loopback): a re-run's lookups measured twice as slow (bench, 200,000 rows).
 */
function connectNoDelay(options: { host: string[]; port: number[]; path?: string }): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = options.path
      ? connect(options.path)
      : connect({ host: options.host[0], port: options.port[0] ?? 5432 });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        Object.assign(new Error(`connect timed out: ${options.host[0]}:${options.port[0]}`), {
          code: 'CONNECT_TIMEOUT',
        }),
      );
    }, 10_000);
    socket.setNoDelay(true);
    // A peer gone without a reset (a cut network) is noticed in about a minute, not after TCP's retransmissions.
    socket.setKeepAlive(true, 30_000);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      resolve(socket);
    });
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    socket.once('error', fail);
  });
}
