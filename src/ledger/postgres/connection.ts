// How revimport reaches a PostgreSQL ledger: the `--state postgres://...` URL turned into client options,
// with the password from the URL, a password file, or PGPASSWORD (and PGHOST, PGUSER... for what the URL
// leaves out, as libpq does), and `sslmode` honoured. The URL is only ever shown with its password masked.
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../errors.js';

export { isPostgresUrl } from '../paths.js';

/**
 * The URL with any password replaced by `***`, for messages, history and --json. Also for a URL that does not
 * parse (a password holding an unencoded `/`, `?`, `#` or `@`): everything from the first `:` of the user
 * part to the last `@` is masked, which may hide more than the password but never less.
 */
export function maskUrl(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? '';
  const rest = url.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  const colon = rest.indexOf(':');
  const masked =
    at !== -1 && colon !== -1 && colon < rest.indexOf('@')
      ? `${scheme}${rest.slice(0, colon)}:***${rest.slice(at)}`
      : url;
  return masked.replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/** URL parameters passed on to the server as they are (libpq's own names). */
const passedOn = new Set(['application_name', 'options']);

/** libpq parameters revimport does not implement, with what to do instead. */
const unsupportedHints: Record<string, string> = {
  sslrootcert: 'For a private CA give Node its certificate instead: NODE_EXTRA_CA_CERTS=/path/ca.pem.',
  sslcert:
    'Client certificates are not supported; log in with a password (URL, statePasswordFile or PGPASSWORD).',
  sslkey:
    'Client certificates are not supported; log in with a password (URL, statePasswordFile or PGPASSWORD).',
  target_session_attrs: 'Point --state at the primary server itself.',
};

/** What `sslmode` asks for, as libpq spells it. */
export const sslModes = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof sslModes)[number];

export interface PostgresOptions {
  readonly host?: string;
  readonly port?: number;
  readonly database?: string;
  readonly username?: string;
  readonly password?: string;
  /** false: plain; 'prefer' etc.: TLS as postgres.js reads those words; 'verify-full': TLS with the server checked. */
  readonly ssl: false | 'prefer' | 'require' | 'verify-full';
  /** `connect_timeout` from the URL, in seconds. */
  readonly connectTimeout?: number;
  /** URL parameters passed on to the server as startup settings (application_name, options). */
  readonly connection: Record<string, string>;
}

export interface ConnectionSource {
  /** The ledger URL, as given to --state / REVIMPORT_STATE / config `state`. */
  readonly url: string;
  /** A file holding the password (config `statePasswordFile`, REVIMPORT_STATE_PASSWORD_FILE). */
  readonly passwordFile?: string;
  /** PGPASSWORD, PGSSLMODE (the client library reads PGHOST, PGPORT, PGUSER, PGDATABASE itself). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Client options from the URL and its fallbacks; a ConfigError names what is wrong without the password. */
export function connectionOptions(source: ConnectionSource): PostgresOptions {
  const { url, passwordFile, env } = source;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new ConfigError(`the ledger URL ${maskUrl(url)} is not a valid URL`, {
      hint: 'Write it as postgres://user@host:5432/database (percent-encode special characters).',
      cause: error,
    });
  }
  const params = Object.fromEntries(parsed.searchParams);
  const { sslmode: urlSslMode, password: queryPassword, connect_timeout, ...connection } = params;
  // Only what is known reaches the server as a startup setting: anything else made it end the connection
  // ("unrecognized configuration parameter"), reported as an internal error (review of issue 15).
  for (const name of Object.keys(connection)) {
    if (passedOn.has(name)) continue;
    throw new ConfigError(`the ledger URL ${maskUrl(url)} has a parameter revimport does not use: ${name}`, {
      hint:
        unsupportedHints[name] ??
        `Remove ${name}; revimport reads sslmode, connect_timeout, ${[...passedOn].join(', ')}.`,
    });
  }
  const connectTimeout = connect_timeout === undefined ? undefined : Number(connect_timeout);
  if (connectTimeout !== undefined && !(Number.isInteger(connectTimeout) && connectTimeout > 0)) {
    throw new ConfigError(
      `connect_timeout in the ledger URL ${maskUrl(url)} must be a whole number of seconds`,
    );
  }
  const mode = (urlSslMode ?? env.PGSSLMODE ?? 'prefer') as SslMode;
  if (!sslModes.includes(mode)) {
    throw new ConfigError(`sslmode "${mode}" in the ledger URL ${maskUrl(url)} is not one PostgreSQL knows`, {
      hint: `Use one of ${sslModes.join(', ')}.`,
    });
  }
  let password = parsed.password === '' ? queryPassword : decodeURIComponent(parsed.password);
  if (password === undefined && passwordFile !== undefined) password = readPasswordFile(passwordFile);
  if (password === undefined && env.PGPASSWORD) password = env.PGPASSWORD;
  return {
    host: parsed.hostname === '' ? undefined : decodeURIComponent(parsed.hostname).replace(/^\[|\]$/g, ''),
    port: parsed.port === '' ? undefined : Number(parsed.port),
    database: parsed.pathname.length > 1 ? decodeURIComponent(parsed.pathname.slice(1)) : undefined,
    username: parsed.username === '' ? undefined : decodeURIComponent(parsed.username),
    password,
    ssl: sslOption(mode),
    ...(connectTimeout === undefined ? {} : { connectTimeout }),
    connection,
  };
}

/**
 * libpq's modes on postgres.js: disable → plain; allow/prefer → TLS if the server offers it, unverified;
 * require → TLS, unverified (as libpq without a root certificate); verify-ca/verify-full → TLS with the
 * server's certificate checked against the system's CAs (NODE_EXTRA_CA_CERTS adds one).
 */
function sslOption(mode: SslMode): PostgresOptions['ssl'] {
  if (mode === 'disable') return false;
  if (mode === 'allow' || mode === 'prefer') return 'prefer';
  if (mode === 'require') return 'require';
  return 'verify-full';
}

function readPasswordFile(file: string): string {
  try {
    return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    throw new ConfigError(`cannot read the ledger password file ${file}`, {
      hint: 'Give statePasswordFile (or REVIMPORT_STATE_PASSWORD_FILE) a readable file holding only the password.',
      cause: error,
    });
  }
}
