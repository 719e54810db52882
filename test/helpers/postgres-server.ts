// A real PostgreSQL server for the tests: initdb into a temp folder, started on a free 127.0.0.1 port,
// stopped at the end. The binaries come from $REVIMPORT_PG_BIN, else the newest Debian
// /usr/lib/postgresql/<version>/bin (.ci/run installs Debian's postgresql), else PATH. initdb and postgres
// refuse to run as root, so under root they run as `nobody` (setpriv), in a folder given to that user.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresServer {
  /** postgres://revimport:<password>@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  readonly password: string;
  /** Stops the server (fast shutdown) and removes its folder. */
  stop(): Promise<void>;
  /** Stops the server, keeping its data (for a restart with `start`). */
  halt(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
}

/** Where initdb, pg_ctl and postgres are, or a clear error. */
export function postgresBinDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REVIMPORT_PG_BIN) return env.REVIMPORT_PG_BIN;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], 'bin');
  }
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      "no PostgreSQL server binaries (initdb, postgres): install Debian's postgresql (apt-get install postgresql), or set REVIMPORT_PG_BIN to their folder",
    );
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const asRoot = process.getuid?.() === 0;

/** argv for running `command` as the unprivileged user when we are root. */
function asUser(command: string, args: string[]): [string, string[]] {
  if (!asRoot) return [command, args];
  return ['setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', command, ...args]];
}

export interface StartOptions {
  /** Serve TLS too (ssl=on) with this certificate and key (PEM file paths). */
  readonly tls?: { readonly cert: string; readonly key: string };
}

export async function startPostgres(startOptions: StartOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (!existsSync(join(bin, 'initdb'))) throw new Error(`no initdb in ${bin} (REVIMPORT_PG_BIN)`);
  const dir = mkdtempSync(join(tmpdir(), 'revimport-pg-'));
  const data = join(dir, 'data');
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`);
  if (asRoot) {
    chownSync(dir, 65534, 65534);
    chownSync(pwfile, 65534, 65534);
  }
  chmodSync(dir, 0o700);
  const [initdb, initArgs] = asUser(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'revimport',
    '--pwfile',
    pwfile,
    '-A',
    'scram-sha-256',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  execFileSync(initdb, initArgs, { stdio: 'pipe' });
  const tlsOptions: string[] = [];
  if (startOptions.tls) {
    // The server reads its key only when the server's user owns it with mode 0600.
    for (const [name, source] of [
      ['server.crt', startOptions.tls.cert],
      ['server.key', startOptions.tls.key],
    ] as const) {
      copyFileSync(source, join(dir, name));
      chmodSync(join(dir, name), 0o600);
      if (asRoot) chownSync(join(dir, name), 65534, 65534);
    }
    tlsOptions.push(
      '-c ssl=on',
      `-c ssl_cert_file=${join(dir, 'server.crt')}`,
      `-c ssl_key_file=${join(dir, 'server.key')}`,
    );
  }
  const port = await freePort();
  const ctl = (args: string[]) => {
    const [command, argv] = asUser(join(bin, 'pg_ctl'), ['-D', data, ...args]);
    execFileSync(command, argv, { stdio: 'pipe', timeout: 60_000 });
  };
  const options = [
    `-p ${port}`,
    '-h 127.0.0.1',
    `-k ${dir}`,
    // A test server: no fsync (a stopped or killed server still leaves its writes in the OS cache, which is
    // what the restart tests need); commits stay synchronous, so a commit answered is in the WAL.
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
    ...tlsOptions,
  ].join(' ');
  const start = async () => {
    ctl(['-w', '-l', join(dir, 'log'), '-o', options, 'start']);
  };
  const halt = async () => {
    ctl(['-w', '-m', 'immediate', 'stop']);
  };
  await start();
  let stopped = false;
  return {
    url: `postgres://revimport:${password}@127.0.0.1:${port}/postgres`,
    port,
    password,
    start,
    halt,
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        ctl(['-w', '-m', 'fast', 'stop']);
      } catch {
        // Already stopped (a test halted it).
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
