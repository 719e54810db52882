// Issue 24: a reader that closes stdout early (`| head -1`, `| true`) ends the output quietly, as git and
// grep do: no EPIPE stack trace, and the run's own exit code, the one its history records. Stdout is a
// pipe whose reading end this test closes before the CLI has started, so every write meets EPIPE.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { exportCsv, pushEnv, writeConfig } from '../helpers/exports.js';
import { startCli } from '../helpers/spawn.js';

const key = 'e2e-closed-stdout-key-24';
let work: string;
let env: Record<string, string>;
let receiver: Receiver | undefined;

beforeAll(() => {
  work = tempDir();
  writeConfig(work);
  writeFileSync(path.join(work, 'a.csv'), exportCsv({ to: 3 }));
  env = { REVIMPORT_STATE: path.join(work, 'ledger.db') };
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** Runs the CLI with its stdout closed by the reader from the start. */
async function closedStdout(args: string[], extra: Record<string, string> = {}) {
  const running = startCli(args, { cwd: work, env: { ...env, ...extra } });
  running.child.stdout.destroy();
  return running.done;
}

function quiet(result: { stderr: string }) {
  expect(result.stderr).not.toContain('EPIPE');
  expect(result.stderr).not.toContain('Error');
  expect(result.stderr).not.toContain('internal error');
}

describe('a closed stdout', () => {
  it('a real push --json that delivered: exit 0, as its history says', async () => {
    receiver = await startReceiver({ apiKey: key });
    const result = await closedStdout(
      ['push', 'a.csv', '--json'],
      pushEnv(receiver.url, key, env.REVIMPORT_STATE!),
    );
    quiet(result);
    expect(result.code).toBe(0);
    expect(receiver.accepted).toHaveLength(3);
    const history = await runCli(['history', '--json'], { cwd: work, env });
    expect(JSON.parse(history.stdout)[0]).toMatchObject({ command: 'push', exitCode: 0 });
  });

  it.each([
    [['presets'], 0],
    [['presets', '--json'], 0],
    [['history'], 0],
    [['history', '--json'], 0],
    [['push', '--check', 'a.csv', '--json'], 0],
    [['push', '--check', 'a.csv'], 0],
    [['init', 'a.csv', '-o', 'init.yaml', '--force', '--timezone', 'Europe/Berlin'], 0],
  ])('%j ends quietly with exit %i', async (args, code) => {
    const result = await closedStdout(args);
    quiet(result);
    expect(result.code).toBe(code);
  });
});
