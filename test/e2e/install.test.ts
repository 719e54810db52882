// README "Install", "Quick start" and "Running from cron" as a user copies them (issue 20): the packed
// tarball installed with `npm install -g` into a fresh prefix, then the quick start's commands and the
// crontab entry's command run by sh from folders outside the clone, with only that prefix's bin on the PATH.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { root, tempDir } from '../helpers/cli.js';
import {
  codeBlocks,
  cronEnvironment,
  parseCronEntry,
  readme,
  readmeSection,
  shellCommands,
} from '../helpers/readme.js';
import { runProcess } from '../helpers/spawn.js';

const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string })
  .version;
const key = 'install-test-key-5c2e';

interface ShellResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** sh -c, as a terminal or cron runs a line: asynchronous, so the in-process receiver can answer. */
async function sh(command: string, cwd: string, env: Record<string, string>): Promise<ShellResult> {
  // Code, stdout and stderr only: tests compare the whole result.
  const { code, stdout, stderr } = await runProcess('/bin/sh', ['-c', command], { cwd, env });
  return { code, stdout, stderr };
}

/** npm's own settings from the environment (cache, node headers), not those `npm test` sets for its script. */
function npmEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    const npmOwn = name.startsWith('npm_');
    if (!npmOwn || ['npm_config_cache', 'npm_config_nodedir', 'npm_config_userconfig'].includes(name)) {
      env[name] = value;
    }
  }
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

/**
 * better-sqlite3's install script fetches a prebuilt binary from GitHub, else compiles SQLite (minutes on a
 * busy box). The binary this checkout's node_modules already holds for this Node is handed to it as a
 * local prebuild (prebuild-install's `local-prebuilds`), so the install runs npm's real steps in seconds.
 */
function localPrebuild(dir: string): Record<string, string> {
  const require = createRequire(path.join(root, 'package.json'));
  const pkgDir = path.dirname(require.resolve('better-sqlite3/package.json'));
  const { version: sqliteVersion } = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const staging = path.join(dir, 'staging');
  mkdirSync(path.join(staging, 'build/Release'), { recursive: true });
  copyFileSync(
    path.join(pkgDir, 'build/Release/better_sqlite3.node'),
    path.join(staging, 'build/Release/better_sqlite3.node'),
  );
  const name = `better-sqlite3-v${sqliteVersion}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['czf', path.join(dir, name), '-C', staging, 'build']);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}

let work: string;
let prefix: string;
let tarball: string;
/** PATH for the user's shell: the install's bin and node, as on a machine with Node.js and revimport. */
let userPath: string;
let receiver: Receiver;

beforeAll(async () => {
  work = tempDir('revimport-install-');
  const packed = path.join(work, 'packed');
  mkdirSync(packed);
  // `npm pack` as the README says (the vitest global setup has just built dist/; prepare would again).
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packed], {
    cwd: root,
    env: npmEnv(),
    stdio: 'pipe',
  });
  tarball = path.join(packed, `revimport-${version}.tgz`);
  prefix = path.join(work, 'prefix');
  const prebuilds = path.join(work, 'prebuilds');
  mkdirSync(prebuilds);
  execFileSync('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', tarball], {
    cwd: work,
    env: { ...npmEnv(), ...localPrebuild(prebuilds) },
    stdio: 'pipe',
  });
  userPath = [path.join(prefix, 'bin'), path.dirname(process.execPath), '/usr/bin', '/bin'].join(':');
  receiver = await startReceiver({ apiKey: key });
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  // The install is ~30 MB: not left behind on every run.
  rmSync(prefix, { recursive: true, force: true });
});

describe('Install: npm pack, then npm install -g of the tarball', () => {
  it('the tarball holds bin/ and the built dist/', () => {
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(files).toContain('package/bin/revimport.js');
    expect(files).toContain('package/dist/cli/main.js');
    expect(files).toContain('package/package.json');
    expect(files.some((f) => f.startsWith('package/src/') || f.startsWith('package/test/'))).toBe(false);
  });

  it('the README installs it that way and checks it with revimport --version', async () => {
    const section = readmeSection('Install');
    const commands = codeBlocks(section, 'sh').flatMap(shellCommands);
    expect(commands.some((c) => /^npm ci && npm pack\b/.test(c))).toBe(true);
    expect(commands.some((c) => c.startsWith(`npm install -g ./revimport-${version}.tgz`))).toBe(true);
    expect(section).toContain('`npm link`');
    const check = commands.find((c) => c.startsWith('revimport --version'));
    expect(check).toBeDefined();
    const result = await sh(check ?? '', tempDir(), { PATH: userPath, HOME: work });
    expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('no example in the README or docs/ runs revimport through npx', () => {
    const docs = readdirSync(path.join(root, 'docs')).map((f) => path.join(root, 'docs', f));
    const examples = [readme(), ...docs.map((f) => readFileSync(f, 'utf8'))].flatMap((text) =>
      codeBlocks(text, '[a-z]*'),
    );
    expect(examples.length).toBeGreaterThan(20);
    for (const example of examples) {
      expect(example).not.toMatch(/\bnpx\b[^\n]*\brevimport\b/);
      // A container's command array: ["npx", "--yes", "revimport", ...].
      expect(example).not.toMatch(/"npx"/);
    }
  });
});

describe('Quick start, from a folder outside the clone', () => {
  const commands = codeBlocks(readmeSection('Quick start'), 'sh').flatMap(shellCommands);
  /** The command lines that run revimport, whatever the form. */
  const revimportCommands = commands.filter((c) => /revimport(\.js)?\b/.test(c) && !c.startsWith('npm '));

  let folder: string;
  /** The user's shell: only PATH and HOME, no REVIMPORT_* (the README's lines set what they need). */
  const userEnv = (extra: Record<string, string> = {}) => ({
    PATH: userPath,
    HOME: work,
    NO_COLOR: '1',
    // Never fetch a package named in a line (npx would ask the registry for an unpublished name).
    npm_config_offline: 'true',
    ...extra,
  });
  beforeAll(() => {
    folder = tempDir('revimport-user-');
    // What a user copies from the clone after reading the quick start.
    cpSync(path.join(root, 'fixtures/google-ads-style'), path.join(folder, 'fixtures/google-ads-style'), {
      recursive: true,
    });
    copyFileSync(
      path.join(root, 'fixtures/google-ads-style/conversions.csv'),
      path.join(folder, 'my-export.csv'),
    );
  });

  it('every command runs revimport from the PATH (no npx, no node bin/revimport.js)', () => {
    expect(revimportCommands.length).toBeGreaterThanOrEqual(4);
    for (const command of revimportCommands) {
      // Optional VAR=value assignments, then the program: revimport itself.
      expect(command).toMatch(/^(\w+=\S+ )*revimport [a-z]/);
    }
  });

  it('the first check reports the rows, then that a real push would need a key (exit 2)', async () => {
    const check = revimportCommands.find((c) => c.includes('--check'));
    const result = await sh(check ?? 'false', folder, userEnv());
    // The summary's first line as the README prints it.
    const shown = readmeSection('Quick start').match(/^check: .*$/m)?.[0];
    expect(result.stdout.split('\n')[0]).toBe(shown);
    expect(result.stderr).toContain('a real push would stop: no API key');
    expect(result.code).toBe(2);
  });

  it('the push to the receiver delivers the valid rows (exit 1 for the invalid ones)', async () => {
    const push = revimportCommands.find((c) => c.includes('push fixtures/') && !c.includes('--check'));
    expect(push).toMatch(/^REVIMPORT_API_KEY=\S+ revimport push/);
    // The README's receiver listens on 8787; the test's on a free port, set as a user would override it.
    const result = await sh(
      (push ?? 'false').replace(/^REVIMPORT_API_KEY=\S+/, `REVIMPORT_API_KEY=${key}`),
      folder,
      userEnv({ REVIMPORT_BASE_URL: receiver.url }),
    );
    expect(result.stderr).not.toContain('Error');
    expect(result.code).toBe(1);
    expect(receiver.accepted).toHaveLength(5);
    // The ledger beside the config, in the user's folder: the native SQLite module of the install works.
    expect(readdirSync(path.join(folder, 'fixtures/google-ads-style'))).toContain('revimport-ledger.db');
  });

  it('init writes a config for the user export', async () => {
    const init = revimportCommands.find((c) => /^revimport init /.test(c));
    const result = await sh(init ?? 'false', folder, userEnv());
    expect([0, 1]).toContain(result.code);
    // A mapping: the preset it detected (google-ads reads this sheet's Email layout), or columns it scored.
    expect(readFileSync(path.join(folder, 'revimport.config.yaml'), 'utf8')).toMatch(
      /^mapping:\n(.*\n)*? {2}(preset: "google-ads"|fields:\n(.*\n)*? {4}conversionValue:)/m,
    );
  });
});

describe('Running from cron: the entry command, as cron hands it to sh', () => {
  const crontab = codeBlocks(readmeSection('Running from cron'), 'cron')[0] ?? '';
  const entry = crontab
    .split('\n')
    .map(parseCronEntry)
    .find((e) => e !== undefined);
  /** The entry's machine paths, each moved into the test's folder. */
  const places = ['/srv/revimport', '/data/exports', '/var/log'];

  let base: string;
  let command: string;
  let env: Record<string, string>;
  beforeAll(() => {
    base = tempDir('revimport-cron-');
    for (const place of places) mkdirSync(path.join(base, place), { recursive: true });
    const config = JSON.parse(
      readFileSync(path.join(root, 'fixtures/google-ads-style/revimport.config.json'), 'utf8'),
    );
    // The config the section names, pointing at the test's receiver.
    writeFileSync(
      path.join(base, 'srv/revimport/revimport.config.yaml'),
      stringify({ ...config, baseUrl: receiver.url }),
    );
    writeFileSync(path.join(base, 'srv/revimport/crm.key'), `${key}\n`, { mode: 0o600 });
    const csv = readFileSync(path.join(root, 'fixtures/google-ads-style/conversions.csv'));
    writeFileSync(path.join(base, 'data/exports/conversions-2026-11-23.csv.gz'), gzipSync(csv));
    command = entry?.command ?? 'false';
    for (const place of places) command = command.replaceAll(place, path.join(base, place));
    // cron's PATH (the crontab's PATH= line, else /usr/bin:/bin), after the test prefix's bin and node.
    const cronPath = cronEnvironment(crontab).PATH ?? '/usr/bin:/bin';
    const home = path.join(base, 'home');
    mkdirSync(home);
    env = {
      PATH: [path.join(prefix, 'bin'), path.dirname(process.execPath), cronPath].join(':'),
      HOME: home,
      SHELL: '/bin/sh',
      npm_config_offline: 'true',
    };
  });

  it('names the machine paths the test moves, and runs revimport itself', () => {
    for (const place of places) expect(entry?.command).toContain(place);
    expect(entry?.command).toMatch(/(^|[\s;&|])revimport push /);
  });

  it('delivers, appends one JSON line per run, writes the rejects, and a second run sends nothing again', async () => {
    const first = await sh(command, env.HOME ?? base, env);
    const log = path.join(base, 'var/log/revimport.jsonl');
    const firstLines = readFileSync(log, 'utf8').trim().split('\n');
    expect(firstLines).toHaveLength(1);
    const run = JSON.parse(firstLines[0] ?? '');
    expect(run).toMatchObject({ exitCode: 1, rowsRead: 10, sent: 5, invalid: 5 });
    expect(run.ledger).toBe(path.join(base, 'srv/revimport/revimport-ledger.db'));
    expect(first.code).toBe(1);
    expect(receiver.requests.at(-1)?.headers['x-api-key']).toBe(key);
    // One file per day ({date} in the entry), named by the local date.
    const rejects = readdirSync(path.join(base, 'srv/revimport')).filter((f) => /^rejects-.*\.csv$/.test(f));
    expect(rejects).toEqual([`rejects-${localDate()}.csv`]);
    const rejectsFile = path.join(base, 'srv/revimport', rejects[0] ?? '');
    const firstRejects = readFileSync(rejectsFile, 'utf8');
    expect(readFileSync(path.join(base, 'var/log/revimport.err'), 'utf8')).not.toContain(key);

    const accepted = receiver.accepted.length;
    const second = await sh(command, env.HOME ?? base, env);
    // The same export an hour later: its invalid rows were reported, so nothing new, exit 0, and the day's
    // rejects file keeps the first run's rows without a second copy of them (issue 20).
    expect(second.code).toBe(0);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({
      exitCode: 0,
      sent: 0,
      alreadySent: 5,
      knownInvalid: 5,
    });
    expect(receiver.accepted).toHaveLength(accepted);
    expect(readFileSync(rejectsFile, 'utf8')).toBe(firstRejects);
  });
});

/** Today's local date, YYYY-MM-DD: what `{date}` in a rejects path becomes. */
function localDate(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
