// A proxy that refuses is named as the proxy, its login masked, and the CRM as not reached (issue 20,
// "What it says"): the real CLI through a real local proxy (test/helpers/proxy.ts) to the https receiver.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Receiver } from '../../src/testing/receiver.js';
import { root, runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { writeExport } from '../helpers/exports.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';

const key = 'e2e-proxy-says-key-3b9e';
const e2e = useE2E({ key });

describe('a refused proxy', () => {
  const tls = path.join(root, 'test/fixtures/tls');
  const proxyVariables = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
  let receiver: Receiver | undefined;
  let proxy: TestProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    receiver = undefined;
    proxy = undefined;
  });

  /** The https receiver (test CA) under the name crm.test, which only the proxy can reach. */
  async function crm(): Promise<string> {
    receiver = await e2e.start({
      tls: {
        key: readFileSync(path.join(tls, 'server.key')),
        cert: readFileSync(path.join(tls, 'server.pem')),
      },
    });
    return receiver.url.replace('127.0.0.1', 'crm.test');
  }

  function push(target: string, proxyUrl: string, limit: string[] = ['--retries', '1']) {
    const cleared = Object.fromEntries(proxyVariables.map((name) => [name, undefined]));
    const env = {
      ...cleared,
      NODE_EXTRA_CA_CERTS: path.join(tls, 'ca.pem'),
      REVIMPORT_BASE_URL: target,
      REVIMPORT_API_KEY: key,
      REVIMPORT_STATE: path.join(e2e.work, 'ledger.db'),
    };
    const input = writeExport(e2e.work, 'a.csv', { to: 3 });
    return runCli(['push', input, '-c', e2e.config, ...limit, '--proxy', proxyUrl], { env });
  }

  it('where nothing listens: the proxy is named (login masked) and the CRM was not reached; kept for the next run', async () => {
    const target = await crm();
    const closed = await startProxy();
    await closed.close();
    const result = await push(target, `http://ops:s3cret@127.0.0.1:${closed.port}`);
    expect(result.code).toBe(4);
    expect(result.stdout).toContain(
      `gave up after 2 attempts: the proxy http://***:***@127.0.0.1:${closed.port} refused the connection: nothing listens at its address and port (ECONNREFUSED); the CRM was not reached; kept for the next run`,
    );
    expect(result.stdout).not.toContain('nothing listens at that address');
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/s3cret|ops:/);
    expect(receiver!.connections).toBe(0);
  });

  // Without --retries only the time budget ends the retries (the default): the failure still names the cause
  // it last met, not only that the budget was spent.
  it('where nothing listens, retried until the time budget: the batch names the proxy, not only the budget', async () => {
    const target = await crm();
    const closed = await startProxy();
    await closed.close();
    const result = await push(target, `http://ops:s3cret@127.0.0.1:${closed.port}`, [
      '--max-retry-time',
      '1',
    ]);
    expect(result.code).toBe(4);
    expect(result.stdout).toMatch(
      new RegExp(
        `gave up after \\d+ attempts in \\d+ s, the retry time budget \\(--max-retry-time\\): the proxy http://\\*\\*\\*:\\*\\*\\*@127\\.0\\.0\\.1:${closed.port} refused the connection`,
      ),
    );
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/s3cret|ops:/);
    expect(receiver!.connections).toBe(0);
  });

  it('refusing the CONNECT (403): exit 2 at once naming the proxy, and the CRM was not reached', async () => {
    const target = await crm();
    proxy = await startProxy({ refuseConnect: 403 });
    const result = await push(target, `http://ops:s3cret@127.0.0.1:${proxy.port}`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `revimport: the proxy http://***:***@127.0.0.1:${proxy.port} refused to connect to ${new URL(target).host} (HTTP 403); the CRM was not reached, the run stopped`,
    );
    expect(result.stderr).not.toContain('s3cret');
    expect(proxy.refused).toBe(1);
    expect(receiver!.connections).toBe(0);
  });

  it('answering the CONNECT 502 (it cannot reach the CRM): retried, then named with the tunnel it refused', async () => {
    const target = await crm();
    proxy = await startProxy({ refuseConnect: 502 });
    const result = await push(target, proxy.url);
    expect(result.code).toBe(4);
    expect(result.stdout).toContain(
      `gave up after 2 attempts: the proxy ${proxy.url} answered HTTP 502 to the tunnel to ${new URL(target).host}; the CRM was not reached; kept for the next run`,
    );
    expect(result.stdout).not.toContain('PROXY_502');
    expect(proxy.refused).toBe(2);
    expect(receiver!.connections).toBe(0);
  });
});
