// Issue 19: the ledger follows the config, not the user. A push by hand and the same push from cron (another
// HOME, no XDG_STATE_HOME) share the ledger beside the config file; a ledger new to a target says so on
// stderr and in --json; -v names the config file and the ledger; the XDG ledger of earlier versions is taken
// over once; a config folder that cannot be written is a usage error naming it and `state`.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { bin, type CliResult, cleanEnv, runCli, tempDir } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { repeats, writeConfig, writeExport } from '../helpers/exports.js';
import { runProcess } from '../helpers/spawn.js';

const key = 'follows-config-secret-7c2e1';
// Stores every element it gets, repeats included: a CRM that ignores Idempotency-Key.
const e2e = useE2E({ key, startFirst: true, receiver: { honourIdempotencyKey: false } });
let besideLedger: string;

beforeEach(() => {
  besideLedger = path.join(e2e.work, 'revimport-ledger.db');
});

/** A person's shell: its own HOME and XDG_STATE_HOME, in the config's folder (the config is found by search). */
function byHand(home: string, args: string[]): Promise<CliResult> {
  return runCli(['push', ...args], {
    cwd: e2e.work,
    env: {
      HOME: home,
      XDG_STATE_HOME: path.join(home, 'state'),
      REVIMPORT_BASE_URL: e2e.receiver.url,
      REVIMPORT_API_KEY: key,
    },
  });
}

/** A cron job: another HOME, no XDG_STATE_HOME, another working directory, the config given with -c. */
function fromCron(home: string, args: string[]): Promise<CliResult> {
  return runCli(['push', ...args, '-c', e2e.config], {
    cwd: home,
    env: {
      HOME: home,
      XDG_STATE_HOME: undefined,
      REVIMPORT_BASE_URL: e2e.receiver.url,
      REVIMPORT_API_KEY: key,
    },
  });
}

const xdgLedger = (home: string) => path.join(home, 'state', 'revimport', 'ledger.db');

describe('by hand, then cron with another HOME and the same config', () => {
  it('resends 0: both runs use the ledger beside the config; only the first is new to the target', async () => {
    const file = writeExport(e2e.work, 'orders.csv', { to: 20 });
    const [ann, cron] = [tempDir(), tempDir()];

    const hand = await byHand(ann, [file, '--json']);
    expect(hand.code, hand.stderr).toBe(0);
    const again = await fromCron(cron, [file, '--json']);
    expect(again.code, again.stderr).toBe(0);

    expect(e2e.receiver.accepted).toHaveLength(20);
    expect(repeats(e2e.receiver.accepted).size).toBe(0);
    const [first, second] = [JSON.parse(hand.stdout), JSON.parse(again.stdout)];
    expect(first).toMatchObject({ sent: 20, ledger: besideLedger, firstRunOnLedger: true });
    expect(second).toMatchObject({ sent: 0, alreadySent: 20, ledger: besideLedger, firstRunOnLedger: false });
    // Neither user's XDG state folder got a ledger.
    expect(existsSync(xdgLedger(ann))).toBe(false);
    expect(existsSync(path.join(cron, '.local', 'state', 'revimport'))).toBe(false);
    // The first run said, before sending, that this ledger knew nothing of the target; the second did not.
    expect(hand.stderr).toContain(
      `warning: first run for ${e2e.receiver.url} on the ledger ${besideLedger}: it holds no record of deliveries there`,
    );
    expect(again.stderr).not.toContain('first run for');
    expect(hand.stderr + hand.stdout + again.stderr + again.stdout).not.toContain(key);
  });
});

describe('-v names the config file and the ledger', () => {
  it('for push, retry and history; without a config file, the user ledger', async () => {
    const file = writeExport(e2e.work, 'orders.csv', { to: 3 });
    const home = tempDir();
    const lines = [`config: ${e2e.config}`, `ledger: ${besideLedger} (beside the config file: no state set)`];

    const push = await byHand(home, [file, '-v']);
    expect(push.code, push.stderr).toBe(0);
    const retry = await runCli(['retry', '-v', '-c', e2e.config], {
      cwd: home,
      env: { HOME: home, REVIMPORT_BASE_URL: e2e.receiver.url, REVIMPORT_API_KEY: key },
    });
    expect(retry.code, retry.stderr).toBe(0);
    const history = await runCli(['history', '-v', '-c', e2e.config], { cwd: home, env: { HOME: home } });
    expect(history.code, history.stderr).toBe(0);
    for (const run of [push, retry, history])
      expect(run.stderr.split('\n')).toEqual(expect.arrayContaining(lines));

    const stateHome = path.join(home, 'state');
    const alone = await runCli(['history', '-v'], {
      cwd: home,
      env: { HOME: home, XDG_STATE_HOME: stateHome },
    });
    expect(alone.stderr.split('\n')).toEqual(
      expect.arrayContaining([
        'config: no config file',
        `ledger: ${xdgLedger(home)} (the user's default: no config file)`,
      ]),
    );
    const named = await runCli(['history', '-v', '-c', e2e.config, '--state', 'other.db'], { cwd: home });
    expect(named.stderr).toContain(`ledger: ${path.join(home, 'other.db')} (--state)`);
  });
});

describe('upgrading: a config without state whose deliveries are in the XDG ledger of earlier versions', () => {
  it('takes a copy of it beside the config once: nothing delivered before is sent again, by anyone', async () => {
    const [ann, cron] = [tempDir(), tempDir()];
    const old = xdgLedger(ann);
    // What an earlier version did with this config: its ledger in Ann's XDG state folder.
    const before = await byHand(ann, [writeExport(e2e.work, 'orders.csv', { to: 20 }), '--state', old]);
    expect(before.code, before.stderr).toBe(0);
    const oldBytes = readFileSync(old);

    const file = writeExport(e2e.work, 'orders.csv', { to: 30 });
    const upgraded = await byHand(ann, [file, '--json']);
    expect(upgraded.code, upgraded.stderr).toBe(0);
    expect(JSON.parse(upgraded.stdout)).toMatchObject({
      sent: 10,
      alreadySent: 20,
      ledger: besideLedger,
      firstRunOnLedger: false,
    });
    expect(upgraded.stderr).toContain(
      `this config's ledger is now ${besideLedger}, beside the config file, so every user and cron job running the config shares it; it starts as a copy of ${old}`,
    );
    // The user's ledger is left as it was (another config or a zero-config push may still use it).
    expect(readFileSync(old).equals(oldBytes)).toBe(true);
    expect(statSync(besideLedger).mode & 0o777).toBe(0o600);

    const later = await fromCron(cron, [file, '--json']);
    expect(later.code, later.stderr).toBe(0);
    expect(JSON.parse(later.stdout)).toMatchObject({ sent: 0, alreadySent: 30, ledger: besideLedger });
    expect(later.stderr).not.toContain('copy of');
    expect(e2e.receiver.accepted).toHaveLength(30);
    expect(repeats(e2e.receiver.accepted).size).toBe(0);
  });

  it('history reads the XDG ledger until the first push has copied it', async () => {
    const ann = tempDir();
    const old = xdgLedger(ann);
    const before = await byHand(ann, [writeExport(e2e.work, 'orders.csv', { to: 2 }), '--state', old]);
    expect(before.code, before.stderr).toBe(0);
    const history = await runCli(['history', '--json', '-v'], {
      cwd: e2e.work,
      env: { HOME: ann, XDG_STATE_HOME: path.join(ann, 'state') },
    });
    expect(JSON.parse(history.stdout)).toHaveLength(1);
    expect(history.stderr).toContain(
      `ledger: ${old} (the ledger earlier versions used: the next push or retry copies it to ${besideLedger})`,
    );
    expect(existsSync(besideLedger)).toBe(false);
  });
});

/** The CLI as an unprivileged user when the tests run as root (root writes into any folder). */
function runUnprivileged(args: string[], cwd: string): Promise<CliResult> {
  const asRoot = process.getuid?.() === 0;
  const argv = [process.execPath, bin, ...args];
  const [command, ...rest] = asRoot
    ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', ...argv]
    : argv;
  const env = cleanEnv({ REVIMPORT_BASE_URL: e2e.receiver.url, REVIMPORT_API_KEY: key, HOME: cwd });
  return runProcess(command!, rest, { cwd, env });
}

/**
 * Root writes anywhere, so the test runs the CLI as nobody, who must be able to run node and read the tree:
 * not so when either lives under a folder only root may enter (a mktemp -d). Then the case cannot be made here.
 */
function nobodyCanRunTheCli(): boolean {
  if (process.getuid?.() !== 0) return true;
  const probe = spawnSync(
    'setpriv',
    [
      '--reuid=nobody',
      '--regid=nogroup',
      '--clear-groups',
      '--',
      process.execPath,
      '-e',
      `require('node:fs').accessSync(${JSON.stringify(bin)})`,
    ],
    { stdio: 'ignore' },
  );
  return probe.status === 0;
}

describe('a config in a folder that cannot be written', () => {
  it.skipIf(!nobodyCanRunTheCli())(
    'stops with exit 2 naming the folder and state, before anything is sent',
    async () => {
      const folder = path.join(e2e.work, 'etc');
      mkdirSync(folder);
      const readOnly = writeConfig(folder);
      const file = writeExport(e2e.work, 'orders.csv', { to: 3 });
      chmodSync(folder, 0o555);
      chmodSync(e2e.work, 0o755);
      const result = await runUnprivileged(['push', file, '-c', readOnly], e2e.work);
      expect(result.stderr).toContain(
        `revimport: cannot create the ledger ${path.join(folder, 'revimport-ledger.db')} beside the config file ${readOnly}: the folder ${folder} is not writable`,
      );
      expect(result.stderr).toContain(`set state in ${readOnly}`);
      expect(result.code).toBe(2);
      expect(e2e.receiver.requests).toHaveLength(0);
    },
  );
});
