// Which proxy, if any, carries a run's requests. Pure, decided once per run (a run talks to one origin):
// `--proxy` (or `--no-proxy`) > the environment, read like curl and npm > the `proxy` config key, and
// NO_PROXY exempts hosts whatever the source. Credentials in a proxy URL are never shown.
import { BlockList, isIP } from 'node:net';
import { ConfigError, UsageError } from '../errors.js';

export interface ProxySettings {
  /** `--proxy <url>`; false (`--no-proxy`) or '' connects directly whatever the environment says. */
  flag: string | false | undefined;
  /** The `proxy` config key. */
  config: string | undefined;
  /** The environment (only the *_proxy variables are read). */
  env: Readonly<Record<string, string | undefined>>;
}

export interface ProxyChoice {
  /** The proxy to go through; undefined: connect directly. */
  url: URL | undefined;
  /** Where the proxy came from: `--proxy`, `HTTPS_PROXY`, `proxy (config)`... */
  source?: string;
  /** Why a configured proxy is not used. */
  bypass?: string;
}

/** For an https target curl and npm fall back from https_proxy to http_proxy; lower case is read first. */
const httpsProxyVariables = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];
const httpProxyVariables = ['http_proxy', 'HTTP_PROXY'];
const noProxyVariables = ['no_proxy', 'NO_PROXY'];

/** The proxy variables of an environment, for Settings. */
export function proxyEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of [...httpsProxyVariables, ...noProxyVariables]) {
    const value = env[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

const present = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** A proxy URL for messages: `http://***:***@proxy.corp:3128`, never the user name or password. */
export function maskProxy(url: URL): string {
  const credentials = url.username || url.password ? '***:***@' : '';
  return `${url.protocol}//${credentials}${url.host}`;
}

/** Masks `user:password@` in a value that may not even parse as a URL. */
function maskRaw(value: string): string {
  // Up to the last @: a password may hold `/` or `@` itself.
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/i, '$1***:***@');
}

/** A proxy as curl reads it: a missing scheme means http://; only http and https proxies are supported. */
export function parseProxy(value: string, source: string): URL {
  const text = value.trim();
  const Failure = source === '--proxy' ? UsageError : ConfigError;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new Failure(`${source}: "${maskRaw(text)}" is not a proxy URL`, {
      hint: 'example: http://proxy.example.com:3128 (user:password@ before the host if it needs a login)',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Failure(
      `${source}: ${url.protocol.replace(/:$/, '')} proxies are not supported (${maskProxy(url)})`,
      { hint: 'use an http:// or https:// proxy' },
    );
  }
  if (!url.hostname) throw new Failure(`${source}: "${maskRaw(text)}" names no proxy host`);
  return url;
}

function firstSet(env: ProxySettings['env'], names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = present(env[name]);
    if (value !== undefined) return { name, value };
  }
  return undefined;
}

const defaultPort = (url: URL) => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

/**
 * The NO_PROXY entry that exempts this target, if one does. As curl: comma (or space) separated; `*`
 * alone exempts every host; a name exempts itself and its subdomains (`example.com`, `.example.com`
 * and `*.example.com` alike); `host:port` only that port; an IP address itself, a CIDR block
 * (`10.0.0.0/8`) the addresses in it. Case does not matter.
 */
export function noProxyMatch(target: URL, noProxy: string): string | undefined {
  const host = target.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const port = defaultPort(target);
  const hostIp = isIP(host);
  for (const entry of noProxy.split(/[\s,]+/).filter(Boolean)) {
    if (entry === '*') return entry;
    let name = entry.toLowerCase();
    let entryPort: number | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(name);
    const withPort = /^([^:]+):(\d+)$/.exec(name);
    if (bracketed) {
      name = bracketed[1]!;
      entryPort = bracketed[2] === undefined ? undefined : Number(bracketed[2]);
    } else if (withPort) {
      name = withPort[1]!;
      entryPort = Number(withPort[2]);
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    const cidr = /^(.+)\/(\d{1,3})$/.exec(name);
    if (cidr) {
      const family = isIP(cidr[1]!);
      if (hostIp === 0 || family !== hostIp) continue;
      const blocks = new BlockList();
      const type = family === 6 ? 'ipv6' : 'ipv4';
      try {
        blocks.addSubnet(cidr[1]!, Number(cidr[2]), type);
      } catch {
        continue;
      }
      if (blocks.check(host, type)) return entry;
      continue;
    }
    if (isIP(name)) {
      if (name === host) return entry;
      continue;
    }
    name = name.replace(/^\*?\./, '').replace(/\.$/, '');
    if (name && (host === name || host.endsWith(`.${name}`))) return entry;
  }
  return undefined;
}

/**
 * The proxy for requests to `target`. A proxy from the environment is not used for a loopback target
 * (localhost, 127.x.x.x, ::1): a network's proxy cannot reach this machine's loopback. A proxy named
 * by `--proxy` or the config key is, unless NO_PROXY exempts the host.
 */
export function chooseProxy(target: URL, settings: ProxySettings): ProxyChoice {
  if (settings.flag === false || settings.flag?.trim() === '') {
    return { url: undefined, source: '--no-proxy', bypass: '--no-proxy' };
  }
  const fromEnv = firstSet(
    settings.env,
    target.protocol === 'https:' ? httpsProxyVariables : httpProxyVariables,
  );
  let source: string;
  let value: string;
  let explicit = true;
  if (settings.flag !== undefined) {
    source = '--proxy';
    value = settings.flag;
  } else if (fromEnv) {
    source = fromEnv.name;
    value = fromEnv.value;
    explicit = false;
  } else if (present(settings.config) !== undefined) {
    source = 'proxy (config)';
    value = settings.config!;
  } else {
    return { url: undefined };
  }
  // A named proxy must be valid even when it is bypassed; an inherited one only when it is used.
  const named = explicit ? parseProxy(value, source) : undefined;
  if (!explicit && isLoopback(target.hostname)) {
    return { url: undefined, source, bypass: `${target.hostname} is this machine (loopback)` };
  }
  const noProxy = firstSet(settings.env, noProxyVariables);
  const entry = noProxy ? noProxyMatch(target, noProxy.value) : undefined;
  if (entry !== undefined) return { url: undefined, source, bypass: `${noProxy!.name} has ${entry}` };
  return { url: named ?? parseProxy(value, source), source };
}

/** Failures to reach the proxy itself, in words: with a proxy in use, every connection goes to it. */
const proxyConnectFailures: Record<string, string> = {
  ECONNREFUSED: 'refused the connection: nothing listens at its address and port',
  ENOTFOUND: 'could not be found: its host name did not resolve',
  EAI_AGAIN: 'could not be found for now: DNS did not answer for its host name',
  EHOSTUNREACH: 'is unreachable',
  ENETUNREACH: 'is on a network this machine cannot reach',
  UND_ERR_CONNECT_TIMEOUT: 'did not accept the connection in time',
};

/**
 * Why a request through `proxy` got no answer, when the proxy is the cause: it could not be reached, or it
 * answered the tunnel with a server error (it could not reach the CRM). Undefined when the failure may be
 * the CRM's (a reset inside the tunnel, a time-out): then the code alone says it. Issue 20: a refused proxy
 * must not read as "nothing listens" at the CRM's address.
 */
export function proxyFailure(code: string, proxy: URL, target: URL): string | undefined {
  const label = maskProxy(proxy);
  const what = proxyConnectFailures[code];
  if (what !== undefined) return `the proxy ${label} ${what} (${code}); the CRM was not reached`;
  const status = /^PROXY_(\d{3})$/.exec(code)?.[1];
  if (status !== undefined) {
    return `the proxy ${label} answered HTTP ${status} to the tunnel to ${target.host}; the CRM was not reached`;
  }
  return undefined;
}

/** One line for --verbose: which proxy is used, or why none is; undefined when no proxy is configured. */
export function describeProxy(choice: ProxyChoice): string | undefined {
  if (choice.url) return `proxy: ${maskProxy(choice.url)} (from ${choice.source})`;
  if (choice.bypass === '--no-proxy') return 'proxy: none (--no-proxy)';
  if (choice.bypass) return `proxy: none, connecting directly: ${choice.bypass} (${choice.source} not used)`;
  return undefined;
}
