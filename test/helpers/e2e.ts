// The end-to-end tests' one set-up: before each test a temp working folder with revimport.config.json and a
// ledger path in it; receivers (the real one, src/testing/receiver.ts) started on demand or before each
// test, with the test's API key, and all closed after it; the REVIMPORT_* environment a push to them needs.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type Receiver, type ReceiverOptions, startReceiver } from '../../src/testing/receiver.js';
import { type CliResult, runCli, tempDir } from './cli.js';
import { pushEnv, writeConfig } from './exports.js';

export interface E2EOptions {
  /** The API key the receivers want and env() sends. */
  key: string;
  /** What every receiver gets under the test's own options (e.g. honourIdempotencyKey: false). */
  receiver?: ReceiverOptions;
  /** Start a receiver before each test (before the folder is made); default: only when a test calls start(). */
  startFirst?: boolean;
  /** The ledger's path inside the working folder; default 'ledger.db'. */
  ledger?: string;
  /** One folder and receiver for the whole file (beforeAll/afterAll), for tests that each use their own ledger. */
  once?: boolean;
}

export interface E2E {
  /** This test's temp working folder. */
  readonly work: string;
  /** Its ledger path (options.ledger in work); nothing is created there. */
  readonly state: string;
  /** Its config file, written by writeConfig (exports.ts). */
  readonly config: string;
  /** The receiver started last in this test. */
  readonly receiver: Receiver;
  /** A receiver for this test with options.receiver, then `options`; closed after the test. */
  start(options?: ReceiverOptions): Promise<Receiver>;
  /** REVIMPORT_BASE_URL, _API_KEY and _STATE of a push to `receiver` (default: the last one started). */
  env(receiver?: Receiver, apiKey?: string, state?: string): Record<string, string>;
}

/**
 * Registers the set-up (beforeEach, or beforeAll with `once`) and the closing of every receiver (afterEach or
 * afterAll): call at a file's top level.
 */
export function useE2E(options: E2EOptions): E2E {
  let folder = { work: '', state: '', config: '' };
  let receivers: Receiver[] = [];
  const start = async (over: ReceiverOptions = {}) => {
    const receiver = await startReceiver({ apiKey: options.key, ...options.receiver, ...over });
    receivers.push(receiver);
    return receiver;
  };
  const last = () => {
    const receiver = receivers.at(-1);
    if (receiver === undefined) throw new Error('no receiver started in this test');
    return receiver;
  };
  (options.once ? beforeAll : beforeEach)(async () => {
    if (options.startFirst) await start();
    const work = tempDir();
    folder = { work, state: path.join(work, options.ledger ?? 'ledger.db'), config: writeConfig(work) };
  });
  (options.once ? afterAll : afterEach)(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    receivers = [];
  });
  return {
    get work() {
      return folder.work;
    },
    get state() {
      return folder.state;
    },
    get config() {
      return folder.config;
    },
    get receiver() {
      return last();
    },
    start,
    env: (receiver = last(), apiKey = options.key, state = folder.state) =>
      pushEnv(receiver.url, apiKey, state),
  };
}

/**
 * `push <inputs> -c <config> --base-url <the receiver> --json` with the key, into its own ledger `<ledger>.db`
 * in the working folder: how the fixture-folder and preset tests run each folder against one receiver.
 */
export function pushFolder(
  e2e: E2E,
  key: string,
  inputs: string[],
  config: string,
  ledger: string,
): Promise<CliResult> {
  return runCli(['push', ...inputs, '-c', config, '--base-url', e2e.receiver.url, '--json'], {
    env: { REVIMPORT_API_KEY: key, REVIMPORT_STATE: path.join(e2e.work, `${ledger}.db`) },
  });
}

/**
 * `push <file> -c <the config> --json` to the last receiver started, into the ledger `ledger` in the working
 * folder, with `preload` loaded first (`NODE_OPTIONS=--import`) and `env` added: how the memory tests read a
 * push's heap from inside it.
 */
export function pushWithPreload(
  e2e: E2E,
  file: string,
  ledger: string,
  preload: string,
  env: Record<string, string> = {},
): Promise<CliResult> {
  return runCli(['push', file, '-c', e2e.config, '--json'], {
    cwd: e2e.work,
    env: {
      ...e2e.env(e2e.receiver, undefined, path.join(e2e.work, ledger)),
      NODE_OPTIONS: `--import ${preload}`,
      ...env,
    },
  });
}
