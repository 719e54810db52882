// sslmode on the PostgreSQL ledger (issue 15), against a server of its own serving TLS with the tests'
// certificate (test/fixtures/tls, a private CA): require encrypts without checking; verify-full refuses the
// certificate (exit 2, with the NODE_EXTRA_CA_CERTS hint) until Node is given the CA; disable stays plain.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../src/ledger/postgres/client.js';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { root, runCli, tempDir } from '../helpers/cli.js';
import { pushEnv, writeConfig, writeExport } from '../helpers/exports.js';
import { skipPostgres } from '../helpers/postgres.js';
import { type PostgresServer, startPostgres } from '../helpers/postgres-server.js';

const tls = path.join(root, 'test/fixtures/tls');
const key = 'pg-tls-key-42aa';

describe.skipIf(skipPostgres())('sslmode', () => {
  let server: PostgresServer;
  let receiver: Receiver;
  beforeAll(async () => {
    server = await startPostgres({
      tls: { cert: path.join(tls, 'server.pem'), key: path.join(tls, 'server.key') },
    });
    receiver = await startReceiver({ apiKey: key });
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await server?.stop();
  });

  it.each([
    ['require', true],
    ['prefer', true],
    ['disable', false],
  ])('sslmode=%s: the connection is encrypted: %s', async (mode, encrypted) => {
    const sql = clientFor({ url: `${server.url}?sslmode=${mode}`, env: {} }, 'revimport tls test');
    try {
      const [row] = await sql.unsafe('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
      expect(row!.ssl).toBe(encrypted);
    } finally {
      await sql.end();
    }
  });

  it('verify-full: exit 2 naming the certificate problem, then with NODE_EXTRA_CA_CERTS the push goes', async () => {
    const work = tempDir();
    const config = writeConfig(work);
    const file = writeExport(work, 'a.csv', { to: 20 });
    const env = pushEnv(receiver.url, key, `${server.url}?sslmode=verify-full`);
    const refused = await runCli(['push', file, '-c', config, '--json'], { cwd: work, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('has a certificate this machine does not accept');
    expect(refused.stderr).toContain('NODE_EXTRA_CA_CERTS');
    expect(refused.stderr).not.toContain(server.password);
    expect(receiver.requests).toHaveLength(0);
    const trusted = await runCli(['push', file, '-c', config, '--json'], {
      cwd: work,
      env: { ...env, NODE_EXTRA_CA_CERTS: path.join(tls, 'ca.pem') },
    });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(JSON.parse(trusted.stdout)).toMatchObject({ sent: 20 });
  });
});
