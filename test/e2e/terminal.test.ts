// Runs the CLI in a real pseudo-terminal (util-linux `script`) whose window size is set with stty: on a
// terminal reporting 0 columns ora 9.4 redrew forever while the run held the ledger lock (issue 13).
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { writeExport } from '../helpers/exports.js';
import { hasScript, runInPty } from '../helpers/pty.js';

const key = 'e2e-terminal-key-77c1';
/** Far above what a run of a few rows prints (about 1 KB), far below what a redraw loop writes. */
const outputCap = 256 * 1024;
/** ora hides the cursor when its spinner starts. */
const hideCursor = '\u001b[?25l';

/** Runs the CLI in a pty of `columns` x `rows`; kills it once its output passes outputCap. */
const runSized = (args: string[], size: { columns: number; rows: number }, env: Record<string, string>) =>
  runInPty(args, { ...size, env, outputCap });

const e2e = useE2E({ key, startFirst: true });

describe.skipIf(!hasScript)('in a terminal (needs util-linux `script` to make a pty)', () => {
  let input: string;
  let env: Record<string, string>;
  beforeEach(() => {
    input = writeExport(e2e.work, 'export.csv', { to: 40 });
    env = e2e.env();
  });

  it('a 0-column terminal gets no spinner: the push ends normally and releases the ledger', async () => {
    const result = await runSized(['push', input, '-c', e2e.config], { columns: 0, rows: 0 }, env);
    expect(result.overflowed).toBe(false);
    expect(result.code).toBe(0);
    expect(result.output).not.toContain(hideCursor);
    expect(result.output).toContain(`${input}: 40 rows`);
    expect(result.output).toContain('delivered 40');
    expect(e2e.receiver.accepted).toHaveLength(40);
    // The lock is free: the next run (cron's next hour) gets it and finds everything delivered.
    const next = await runCli(['push', input, '-c', e2e.config, '--json'], { env });
    expect(next.code).toBe(0);
    expect(JSON.parse(next.stdout).alreadySent).toBe(40);
  });

  it('a sized terminal gets the spinner, and --no-progress turns it off', async () => {
    const size = { columns: 100, rows: 30 };
    const spinning = await runSized(['push', input, '-c', e2e.config, '--check'], size, env);
    expect(spinning.code).toBe(0);
    expect(spinning.output).toContain(hideCursor);
    const plain = await runSized(['push', input, '-c', e2e.config, '--no-progress'], size, env);
    expect(plain.code).toBe(0);
    expect(plain.output).not.toContain(hideCursor);
    expect(plain.output).toContain(`${input}: 40 rows`);
    expect(e2e.receiver.accepted).toHaveLength(40);
  });
});
