// Proxies and private CAs through the real CLI: a real CONNECT / forwarding proxy (test/helpers/proxy.ts)
// in front of the real receiver, over https with the test CA of test/fixtures/tls (see its README).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Receiver } from '../../src/testing/receiver.js';
import { root, runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { acceptedIds, range, writeConfig, writeExport } from '../helpers/exports.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';

const key = 'e2e-network-key-51f0';
const tls = path.join(root, 'test/fixtures/tls');
const ca = path.join(tls, 'ca.pem');
const serverTls = (cert = 'server.pem') => ({
  key: readFileSync(path.join(tls, 'server.key')),
  cert: readFileSync(path.join(tls, cert)),
});
const proxyVariables = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

const e2e = useE2E({ key });
let proxy: TestProxy | undefined;
let config: string;

beforeEach(() => {
  ({ config } = e2e);
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/** The receiver, over https with `cert` (of test/fixtures/tls) unless false. */
function receive(cert: string | false = 'server.pem'): Promise<Receiver> {
  return e2e.start(cert ? { tls: serverTls(cert) } : {});
}

async function proxyUp(credentials?: string): Promise<TestProxy> {
  proxy = await startProxy(credentials === undefined ? {} : { credentials });
  return proxy;
}

/** The environment of a push to `baseUrl`: no proxy variable or CA from the developer's shell, then `extra`. */
function env(baseUrl: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  const cleared = Object.fromEntries([...proxyVariables, 'NODE_EXTRA_CA_CERTS'].map((n) => [n, undefined]));
  return {
    ...cleared,
    REVIMPORT_BASE_URL: baseUrl,
    REVIMPORT_API_KEY: key,
    REVIMPORT_STATE: e2e.state,
    ...extra,
  };
}

function push(file: string, baseUrl: string, extra: Record<string, string> = {}, ...flags: string[]) {
  return runCli(['push', file, '-c', config, '--json', ...flags], {
    cwd: e2e.work,
    env: env(baseUrl, extra),
  });
}

/** The receiver's URL with another host name (the proxy reaches every name at 127.0.0.1). */
const named = (r: Receiver, host: string) => r.url.replace('127.0.0.1', host);

describe('a private CA', () => {
  it('without its certificate: exit 2 at the first request with the NODE_EXTRA_CA_CERTS hint; with it the records go', async () => {
    const r = await receive();
    const file = writeExport(e2e.work, 'a.csv', { to: 1000 });
    const refused = await push(file, r.url);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('unknown issuer');
    expect(refused.stderr).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    expect(refused.stderr).toContain('NODE_EXTRA_CA_CERTS');
    expect(refused.stderr).not.toContain('delivery failed');
    // One handshake, no retry, no request through.
    expect(r.connections).toBe(1);
    expect(r.requests).toHaveLength(0);
    const summary = JSON.parse(refused.stdout);
    expect([summary.sent, summary.failed, summary.retried]).toEqual([0, 0, 0]);
    expect(summary.error.message).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');

    // Nothing was marked failed or rejected: the next run (Node told about the CA) sends all 1000.
    const trusted = await push(file, r.url, { NODE_EXTRA_CA_CERTS: ca });
    expect(trusted.stderr).not.toContain('revimport:');
    expect(trusted.code).toBe(0);
    // The records the refused run left pending go first, counted apart (issue 20); then the rest of the file.
    const t = JSON.parse(trusted.stdout);
    expect(t.sent + t.retriedSent).toBe(1000);
    expect(t.sent + t.alreadySent).toBe(1000);
    expect(acceptedIds(r.accepted)).toEqual(range(1, 1000));
  });

  it('an expired certificate is exit 2 naming it, and the hint says NODE_EXTRA_CA_CERTS cannot fix it', async () => {
    const r = await receive('expired.pem');
    const result = await push(writeExport(e2e.work, 'a.csv', { to: 10 }), r.url, { NODE_EXTRA_CA_CERTS: ca });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the certificate has expired (CERT_HAS_EXPIRED)');
    expect(result.stderr).toContain('NODE_EXTRA_CA_CERTS only adds trusted CAs');
    expect(r.connections).toBe(1);
    expect(r.accepted).toHaveLength(0);
  });

  it('https to a server answering plain http is exit 2 at once, pointing at the base URL', async () => {
    const r = await receive(false);
    const result = await push(writeExport(e2e.work, 'a.csv', { to: 10 }), r.url.replace('http:', 'https:'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('does not answer TLS (is it plain http?) (ERR_SSL_WRONG_VERSION_NUMBER)');
    expect(result.stderr).toContain('check the base URL');
    expect(r.connections).toBe(1);
  });
});

describe('proxies', () => {
  for (const variable of ['HTTPS_PROXY', 'https_proxy']) {
    it(`${variable} with a login: the run goes through the CONNECT proxy; --verbose names it without the login`, async () => {
      const r = await receive();
      const p = await proxyUp('ops:s3cr%t pass');
      const proxyUrl = `http://ops:s3cr%25t%20pass@127.0.0.1:${p.port}`;
      const target = named(r, 'crm.test');
      const result = await push(
        writeExport(e2e.work, 'a.csv', { to: 600 }),
        target,
        { [variable]: proxyUrl, NODE_EXTRA_CA_CERTS: ca },
        '--verbose',
      );
      expect(result.code).toBe(0);
      expect(acceptedIds(r.accepted)).toEqual(range(1, 600));
      expect(p.tunnels.length).toBeGreaterThan(0);
      expect(new Set(p.tunnels)).toEqual(new Set([new URL(target).host]));
      expect(result.stderr).toContain(`proxy: http://***:***@127.0.0.1:${p.port} (from ${variable})`);
      for (const secret of ['ops', 's3cr', 'pass']) {
        expect(result.stderr).not.toContain(secret);
        expect(result.stdout).not.toContain(secret);
      }
    });
  }

  it('a proxy that wants a login it was not given: exit 2 at once naming 407, nothing retried', async () => {
    const r = await receive();
    const p = await proxyUp('ops:right');
    const result = await push(writeExport(e2e.work, 'a.csv', { to: 1000 }), named(r, 'crm.test'), {
      HTTPS_PROXY: `http://ops:wrong@127.0.0.1:${p.port}`,
      NODE_EXTRA_CA_CERTS: ca,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the proxy http://***:***@127.0.0.1:${p.port} asks for credentials`);
    expect(result.stderr).not.toContain('wrong');
    expect(p.refused).toBe(1);
    expect(r.connections).toBe(0);
  });

  it('a plain-http target through HTTP_PROXY is forwarded (absolute-form), not tunnelled', async () => {
    const r = await receive(false);
    const p = await proxyUp();
    const target = named(r, 'crm.test');
    const result = await push(
      writeExport(e2e.work, 'a.csv', { to: 50 }),
      target,
      { HTTP_PROXY: p.url },
      '--allow-http',
    );
    expect(result.code).toBe(0);
    expect(acceptedIds(r.accepted)).toEqual(range(1, 50));
    expect(p.forwarded).toEqual([`${target}/api/revenues`]);
    expect(p.tunnels).toEqual([]);
  });

  it('the proxy config key is used; HTTPS_PROXY wins over it; --proxy wins over both', async () => {
    const r = await receive();
    const p = await proxyUp();
    const dead = 'http://127.0.0.1:9'; // discard port: nothing listens
    const file = writeExport(e2e.work, 'a.csv', { to: 5 });
    const target = named(r, 'crm.test');
    config = writeConfig(e2e.work, { proxy: p.url });
    const fromConfig = await push(file, target, { NODE_EXTRA_CA_CERTS: ca }, '--verbose');
    expect(fromConfig.code).toBe(0);
    expect(fromConfig.stderr).toContain(`proxy: ${p.url} (from proxy (config))`);

    config = writeConfig(e2e.work, { proxy: dead });
    const fromEnv = await push(file, target, { NODE_EXTRA_CA_CERTS: ca, HTTPS_PROXY: p.url }, '--resend');
    expect(fromEnv.code).toBe(0);

    const fromFlag = await push(
      file,
      target,
      { NODE_EXTRA_CA_CERTS: ca, HTTPS_PROXY: dead },
      '--resend',
      '--proxy',
      p.url,
    );
    expect(fromFlag.code).toBe(0);
    // Each run's one request went through the proxy (a resend of the same body is stored once).
    expect(r.requests).toHaveLength(3);
    expect(p.tunnels).toHaveLength(3);
    expect(r.accepted).toHaveLength(5);
  });

  it('NO_PROXY exempts a host from --proxy; without it the same run is tunnelled', async () => {
    const r = await receive();
    const p = await proxyUp();
    const file = writeExport(e2e.work, 'a.csv', { to: 5 });
    const host = new URL(r.url).host;
    const exempt = await push(
      file,
      r.url,
      { NODE_EXTRA_CA_CERTS: ca, no_proxy: `example.com, ${host}` },
      '--proxy',
      p.url,
      '--verbose',
    );
    expect(exempt.code).toBe(0);
    expect(exempt.stderr).toContain(`proxy: none, connecting directly: no_proxy has ${host}`);
    expect(p.tunnels).toEqual([]);

    const tunnelled = await push(file, r.url, { NODE_EXTRA_CA_CERTS: ca }, '--proxy', p.url, '--resend');
    expect(tunnelled.code).toBe(0);
    expect(p.tunnels).toEqual([host]);
    expect(r.requests).toHaveLength(2);
  });

  it('a proxy from the environment is not used for a loopback target', async () => {
    const r = await receive();
    const p = await proxyUp();
    const result = await push(
      writeExport(e2e.work, 'a.csv', { to: 5 }),
      r.url,
      { NODE_EXTRA_CA_CERTS: ca, HTTPS_PROXY: p.url },
      '--verbose',
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('proxy: none, connecting directly: 127.0.0.1 is this machine');
    expect(p.tunnels).toEqual([]);
    expect(r.accepted).toHaveLength(5);

    // --no-proxy beats a config key that would apply to loopback.
    config = writeConfig(e2e.work, { proxy: p.url });
    const direct = await push(
      writeExport(e2e.work, 'b.csv', { from: 6, to: 10 }),
      r.url,
      { NODE_EXTRA_CA_CERTS: ca, HTTPS_PROXY: p.url },
      '--verbose',
      '--no-proxy',
    );
    expect(direct.code).toBe(0);
    expect(direct.stderr).toContain('proxy: none (--no-proxy)');
    expect(p.tunnels).toEqual([]);
    expect(r.accepted).toHaveLength(10);
  });

  it('a certificate for another name, met through the proxy, is a hostname mismatch (exit 2)', async () => {
    const r = await receive();
    const p = await proxyUp();
    const result = await push(writeExport(e2e.work, 'a.csv', { to: 5 }), named(r, 'other.test'), {
      NODE_EXTRA_CA_CERTS: ca,
      HTTPS_PROXY: p.url,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('hostname mismatch');
    expect(p.tunnels).toHaveLength(1);
    expect(r.accepted).toHaveLength(0);
  });

  it('an invalid --proxy is a usage error before anything is read', async () => {
    const result = await push(
      writeExport(e2e.work, 'a.csv', { to: 5 }),
      'https://crm.test',
      {},
      '--proxy',
      'socks5://me:pw@127.0.0.1:1080',
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--proxy: socks5 proxies are not supported (socks5://***:***@127.0.0.1:1080)',
    );
    expect(result.stderr).not.toContain('pw');
  });
});
