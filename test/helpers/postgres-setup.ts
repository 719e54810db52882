// Vitest global setup: one PostgreSQL server for the whole run (postgres-server.ts), its URL provided to the
// tests (postgres.ts gives each test a database of its own). A server that cannot start is reported to the
// PostgreSQL tests, which then fail: REVIMPORT_TEST_POSTGRES=skip lets them skip, outside CI only.
import type { TestProject } from 'vitest/node';
import { type PostgresServer, startPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresError: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: PostgresServer | undefined;
  try {
    server = await startPostgres();
    project.provide('postgresUrl', server.url);
    project.provide('postgresError', '');
  } catch (error) {
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    project.provide('postgresUrl', '');
    project.provide('postgresError', `${(error as Error).message}\n${output}`.trim());
  }
  return async () => {
    await server?.stop();
  };
}
