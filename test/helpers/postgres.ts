// A database of its own for each PostgreSQL test, on the server the global setup started
// (postgres-setup.ts). No server: the test fails with why, unless REVIMPORT_TEST_POSTGRES=skip outside CI.
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';

/** True when the PostgreSQL tests may be skipped: no server here, and the developer asked to skip them. */
export function skipPostgres(): boolean {
  return inject('postgresError') !== '' && process.env.REVIMPORT_TEST_POSTGRES === 'skip' && !process.env.CI;
}

/** The server's URL (its `postgres` database); throws why there is none. */
export function serverUrl(): string {
  const error = inject('postgresError');
  if (error) throw new Error(`no PostgreSQL server for the tests: ${error}`);
  return inject('postgresUrl');
}

/** Creates an empty database; resolves to its URL. */
export async function createDatabase(): Promise<string> {
  const url = serverUrl();
  const name = `t_${randomUUID().replaceAll('-', '')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return url.replace(/\/postgres$/, `/${name}`);
}

/** Drops a database made by createDatabase, ending any connection left to it. */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = postgres(serverUrl(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Runs one query on `databaseUrl` on a connection of its own: what another host would see. */
export async function query(databaseUrl: string, text: string, params: unknown[] = []) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    return await sql.unsafe(text, params as never[]);
  } finally {
    await sql.end();
  }
}
