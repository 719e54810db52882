// Which proxy a run uses (pure): precedence, both cases of the variables, NO_PROXY as curl reads it,
// loopback, masking of credentials. The real proxy is exercised in test/e2e/network.test.ts.
import { describe, expect, it } from 'vitest';
import { ConfigError, UsageError } from '../../src/errors.js';
import {
  chooseProxy,
  describeProxy,
  maskProxy,
  noProxyMatch,
  type ProxySettings,
  proxyEnv,
  proxyFailure,
} from '../../src/transport/proxy.js';

const https = new URL('https://crm.example.com/api/revenues');
const settings = (over: Partial<ProxySettings> = {}): ProxySettings => ({
  flag: undefined,
  config: undefined,
  env: {},
  ...over,
});
const chosen = (target: URL, over: Partial<ProxySettings>) => {
  const choice = chooseProxy(target, settings(over));
  return { url: choice.url?.href, source: choice.source, bypass: choice.bypass };
};

describe('chooseProxy', () => {
  it('uses no proxy when none is configured', () => {
    expect(chosen(https, {})).toEqual({ url: undefined, source: undefined, bypass: undefined });
  });

  it('reads https_proxy before HTTPS_PROXY, then falls back to http_proxy / HTTP_PROXY for an https target', () => {
    const env = {
      HTTPS_PROXY: 'http://upper:1',
      https_proxy: 'http://lower:1',
      http_proxy: 'http://h:1',
      HTTP_PROXY: 'http://H:1',
    };
    expect(chosen(https, { env }).source).toBe('https_proxy');
    expect(chosen(https, { env: { ...env, https_proxy: ' ' } }).source).toBe('HTTPS_PROXY');
    expect(chosen(https, { env: { HTTP_PROXY: 'http://H:1' } })).toMatchObject({
      url: 'http://h:1/',
      source: 'HTTP_PROXY',
    });
  });

  it('an http target reads only http_proxy / HTTP_PROXY', () => {
    const target = new URL('http://crm.example.com/api/revenues');
    expect(chosen(target, { env: { HTTPS_PROXY: 'http://s:1' } }).url).toBeUndefined();
    expect(chosen(target, { env: { HTTP_PROXY: 'http://p:1' } }).url).toBe('http://p:1/');
  });

  it('precedence: --proxy > environment > config key; --no-proxy and --proxy "" connect directly', () => {
    const env = { HTTPS_PROXY: 'http://env:1' };
    expect(chosen(https, { flag: 'http://flag:1', env, config: 'http://cfg:1' }).source).toBe('--proxy');
    expect(chosen(https, { env, config: 'http://cfg:1' }).source).toBe('HTTPS_PROXY');
    expect(chosen(https, { config: 'http://cfg:1' })).toMatchObject({
      url: 'http://cfg:1/',
      source: 'proxy (config)',
    });
    expect(chosen(https, { flag: false, env, config: 'http://cfg:1' }).url).toBeUndefined();
    expect(chosen(https, { flag: '', env }).url).toBeUndefined();
  });

  it('reads a proxy without a scheme as http://, as curl does', () => {
    expect(chosen(https, { env: { HTTPS_PROXY: 'proxy.corp:3128' } }).url).toBe('http://proxy.corp:3128/');
  });

  it('refuses other schemes and garbage, without showing credentials: usage error for --proxy, config error otherwise', () => {
    expect(() => chooseProxy(https, settings({ flag: 'socks5://u:pw@h:1080' }))).toThrow(UsageError);
    expect(() => chooseProxy(https, settings({ flag: 'socks5://u:pw@h:1080' }))).toThrow(
      '--proxy: socks5 proxies are not supported (socks5://***:***@h:1080)',
    );
    expect(() => chooseProxy(https, settings({ env: { HTTPS_PROXY: 'http://u:pw@[bad' } }))).toThrow(
      ConfigError,
    );
    expect(() => chooseProxy(https, settings({ env: { HTTPS_PROXY: 'http://u:pw@[bad' } }))).toThrow(
      'HTTPS_PROXY: "http://***:***@[bad" is not a proxy URL',
    );
    // A password holding `/` or `@` is masked whole: up to the last @.
    for (const value of ['http://alice:pa/ss@proxy.corp:3128', 'http://alice:p@ss@proxy:99999']) {
      let message = '';
      try {
        chooseProxy(https, settings({ env: { HTTPS_PROXY: value } }));
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^HTTPS_PROXY: /);
      expect(message).not.toMatch(/alice|pa\/ss|ss@/);
    }
  });

  it('an environment proxy is not used for loopback targets; a named one is', () => {
    const env = { HTTPS_PROXY: 'http://env:1' };
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '127.8.9.10']) {
      const target = new URL(`https://${host}:8443/api/revenues`);
      expect(chosen(target, { env }).url).toBeUndefined();
      expect(chosen(target, { env }).bypass).toContain('is this machine');
      expect(chosen(target, { flag: 'http://flag:1' }).url).toBe('http://flag:1/');
      expect(chosen(target, { config: 'http://cfg:1' }).url).toBe('http://cfg:1/');
    }
  });

  it('NO_PROXY (no_proxy first) exempts the target from every source', () => {
    expect(chosen(https, { flag: 'http://f:1', env: { NO_PROXY: 'example.com' } })).toMatchObject({
      url: undefined,
      bypass: 'NO_PROXY has example.com',
    });
    expect(
      chosen(https, { env: { HTTPS_PROXY: 'http://e:1', no_proxy: 'crm.example.com', NO_PROXY: 'other' } })
        .bypass,
    ).toBe('no_proxy has crm.example.com');
    expect(chosen(https, { config: 'http://c:1', env: { NO_PROXY: 'other.com' } }).url).toBe('http://c:1/');
  });
});

describe('noProxyMatch', () => {
  const url = (text: string) => new URL(text);
  it('matches a host and its subdomains, with or without a leading dot or *.', () => {
    for (const entry of ['example.com', '.example.com', '*.example.com', 'EXAMPLE.COM']) {
      expect(noProxyMatch(url('https://crm.example.com'), entry)).toBe(entry);
      expect(noProxyMatch(url('https://example.com'), entry)).toBe(entry);
    }
    expect(noProxyMatch(url('https://notexample.com'), 'example.com')).toBeUndefined();
    expect(noProxyMatch(url('https://example.com.evil.net'), 'example.com')).toBeUndefined();
  });

  it('* alone matches everything; lists split on commas and spaces', () => {
    expect(noProxyMatch(url('https://anything.net'), '*')).toBe('*');
    expect(noProxyMatch(url('https://b.org'), ' a.com,  b.org c.net')).toBe('b.org');
    expect(noProxyMatch(url('https://d.org'), 'a.com, b.org')).toBeUndefined();
  });

  it('a port limits the entry to that port (443/80 when the URL has none)', () => {
    expect(noProxyMatch(url('https://crm.example.com'), 'crm.example.com:443')).toBe('crm.example.com:443');
    expect(noProxyMatch(url('https://crm.example.com:8443'), 'crm.example.com:443')).toBeUndefined();
    expect(noProxyMatch(url('http://crm.example.com'), 'crm.example.com:80')).toBe('crm.example.com:80');
  });

  it('IP addresses match exactly, CIDR blocks their members, IPv6 with or without brackets', () => {
    expect(noProxyMatch(url('https://10.1.2.3'), '10.1.2.3')).toBe('10.1.2.3');
    expect(noProxyMatch(url('https://10.1.2.3'), '10.1.2.4')).toBeUndefined();
    expect(noProxyMatch(url('https://10.1.2.3'), '10.0.0.0/8')).toBe('10.0.0.0/8');
    expect(noProxyMatch(url('https://11.1.2.3'), '10.0.0.0/8')).toBeUndefined();
    expect(noProxyMatch(url('https://crm.example.com'), '10.0.0.0/8')).toBeUndefined();
    expect(noProxyMatch(url('https://[fd00::5]'), 'fd00::/8')).toBe('fd00::/8');
    expect(noProxyMatch(url('https://[::1]:8443'), '[::1]:8443')).toBe('[::1]:8443');
    expect(noProxyMatch(url('https://[::1]'), '::1')).toBe('::1');
  });
});

describe('messages', () => {
  it('mask the user and password of a proxy', () => {
    expect(maskProxy(new URL('http://ops:s3cret@proxy.corp:3128'))).toBe('http://***:***@proxy.corp:3128');
    expect(maskProxy(new URL('http://proxy.corp:3128'))).toBe('http://proxy.corp:3128');
    const choice = chooseProxy(
      https,
      settings({ env: { https_proxy: 'http://ops:s3cret@proxy.corp:3128' } }),
    );
    expect(describeProxy(choice)).toBe('proxy: http://***:***@proxy.corp:3128 (from https_proxy)');
    expect(describeProxy(chooseProxy(https, settings()))).toBeUndefined();
  });

  it('proxyEnv keeps only the proxy variables', () => {
    expect(proxyEnv({ HTTPS_PROXY: 'a', no_proxy: 'b', REVIMPORT_API_KEY: 'secret', PATH: '/bin' })).toEqual({
      HTTPS_PROXY: 'a',
      no_proxy: 'b',
    });
  });

  it.each([
    ['ECONNREFUSED', 'refused the connection: nothing listens at its address and port (ECONNREFUSED)'],
    ['ENOTFOUND', 'could not be found: its host name did not resolve (ENOTFOUND)'],
    ['UND_ERR_CONNECT_TIMEOUT', 'did not accept the connection in time (UND_ERR_CONNECT_TIMEOUT)'],
    ['PROXY_502', 'answered HTTP 502 to the tunnel to crm.example.com'],
  ])('a failure at the proxy (%s) names it, login masked, and says the CRM was not reached', (code, what) => {
    const proxy = new URL('http://ops:s3cret@proxy.corp:3128');
    expect(proxyFailure(code, proxy, https)).toBe(
      `the proxy http://***:***@proxy.corp:3128 ${what}; the CRM was not reached`,
    );
  });

  it.each(['ECONNRESET', 'ETIMEDOUT', 'UND_ERR_SOCKET'])(
    'a failure that may be the CRM behind the proxy (%s) is left to its code',
    (code) => {
      expect(proxyFailure(code, new URL('http://proxy.corp:3128'), https)).toBeUndefined();
    },
  );
});
