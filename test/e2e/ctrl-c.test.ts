// Ctrl-C and SIGTERM on a real terminal with the spinner on (issue 19): ora's stdin discarder put the
// terminal in raw mode, so Ctrl-C did nothing, and ora's signal-exit re-raised a SIGTERM once revimport's
// `process.once` listener was gone, killing the run without grace: its batches in flight were sent again.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Receiver } from '../../src/testing/receiver.js';
import { bin, cleanEnv, runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { acceptedIds, pushEnv, range, repeats, writeExport } from '../helpers/exports.js';
import { hasScript, quote } from '../helpers/pty.js';

const key = 'e2e-ctrl-c-key-3b9e';
const rows = 1000;
const flags = ['--batch-size', '50', '--concurrency', '4'];
const hideCursor = '\u001b[?25l';
const showCursor = '\u001b[?25h';
/** The text summary's delivery line, as a stopped run prints it. */
const stoppedSummary = /delivered (\d+), rejected 0, failed 0, already sent 0, left pending (\d+)/;

interface PtyRun {
  /** Writes to the terminal, as keys typed (`\x03` is Ctrl-C). */
  type(keys: string): void;
  /** All the terminal showed so far. */
  readonly output: string;
  /** The pid of revimport itself (the shell's child). */
  pid(): number;
  /** `stty -a` of the terminal now, from outside, while the run goes on. */
  modes(): string;
  /** Ends the pty (and revimport with it) if a failed test left it running. */
  kill(): void;
  /** The shell's `$?` after revimport, and the terminal settings (`stty -g`) before and after it. */
  done: Promise<{ code: number | null; output: string; before: string; after: string }>;
}

/**
 * revimport in a pty (util-linux `script`) of 100 x 30 with TERM=xterm and no CI: the spinner's conditions.
 * The shell traps SIGINT so that it outlives a Ctrl-C (which the terminal sends to the whole foreground
 * group) and can read the terminal's settings after revimport.
 */
function startInPty(args: string[], work: string, env: Record<string, string>): PtyRun {
  const file = (name: string) => path.join(work, name);
  const command = [process.execPath, bin, ...args].map(quote).join(' ');
  const shell = [
    'trap : INT',
    `echo $$ > ${quote(file('shell.pid'))}`,
    `tty > ${quote(file('tty'))}`,
    'stty cols 100 rows 30',
    `stty -g > ${quote(file('before'))}`,
    command,
    'code=$?',
    `stty -g > ${quote(file('after'))}`,
    'exit $code',
  ].join('; ');
  const child = spawn('script', ['-qfec', shell, '/dev/null'], {
    cwd: work,
    env: { ...cleanEnv({ CI: undefined, ...env }), SHELL: '/bin/sh', TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const read = (name: string) => readFileSync(file(name), 'utf8').trim();
  return {
    type: (keys) => child.stdin.write(keys),
    get output() {
      return output;
    },
    pid() {
      const shellPid = read('shell.pid');
      return Number(readFileSync(`/proc/${shellPid}/task/${shellPid}/children`, 'utf8').trim());
    },
    kill: () => child.kill('SIGKILL'),
    modes: () => spawnSync('stty', ['-a', '-F', read('tty')], { encoding: 'utf8' }).stdout,
    done: new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => {
        child.stdin.end();
        resolve({ code, output, before: read('before'), after: read('after') });
      });
    }),
  };
}

/** The terminal flags a person's keys depend on: signals (Ctrl-C, Ctrl-\, Ctrl-Z), lines, echo. */
function keyModes(sttyAll: string): string[] {
  return sttyAll.split(/\s+/).filter((word) => /^-?(isig|icanon|echo)$/.test(word));
}

async function settled(r: Receiver): Promise<void> {
  while (r.held > 0) await delay(10);
}

const e2e = useE2E({ key });

describe.skipIf(!hasScript)('stopping a push on a terminal with the spinner on', () => {
  let input: string;
  beforeEach(() => {
    input = writeExport(e2e.work, 'export.csv', { to: rows });
  });
  const runs: PtyRun[] = [];
  afterEach(async () => {
    for (const run of runs.splice(0)) run.kill();
  });
  const env = (r: Receiver) => pushEnv(r.url, key, path.join(e2e.work, 'ledger.db'));

  /** A push started in a pty; resolves once the spinner runs and the receiver holds 4 batches in flight. */
  async function pushInFlight(r: Receiver): Promise<PtyRun> {
    const run = startInPty(['push', input, '-c', e2e.config, ...flags], e2e.work, env(r));
    runs.push(run);
    await vi.waitFor(
      () => {
        expect(run.output).toContain(hideCursor);
        expect(r.held).toBe(4);
      },
      { timeout: 15_000, interval: 10 },
    );
    return run;
  }

  /** The stopped run's text summary, then a plain re-run: every record stored exactly once. */
  async function rerunDeliversTheRest(r: Receiver, output: string): Promise<void> {
    const [, delivered, pending] = stoppedSummary.exec(output) ?? [];
    expect(output, 'the summary of the stopped run').toMatch(stoppedSummary);
    await settled(r);
    // The requests in flight were let finish and counted: what the receiver holds is what was reported.
    expect(r.accepted).toHaveLength(Number(delivered));
    expect(Number(pending)).toBeGreaterThan(0);
    r.setDelay(0);
    const again = await runCli(['push', input, '-c', e2e.config, ...flags, '--json'], {
      cwd: e2e.work,
      env: env(r),
    });
    expect(again.code).toBe(0);
    const s = JSON.parse(again.stdout);
    expect([s.retried, s.failed, s.pending]).toEqual([Number(pending), 0, 0]);
    expect(repeats(r.accepted).size).toBe(0);
    expect(acceptedIds(r.accepted)).toEqual(range(1, rows));
  }

  it('Ctrl-C: isig stays on, requests in flight finish, summary, exit 130; the re-run stores no duplicate', async () => {
    const receiver = await e2e.start({ honourIdempotencyKey: false });
    receiver.setDelay(300);
    const run = await pushInFlight(receiver);
    // Ctrl-\ and Ctrl-Z reach the process only while the terminal keeps isig (ora's raw mode turned it off).
    expect(keyModes(run.modes())).toEqual(['isig', 'icanon', 'echo']);
    run.type('\x03');
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(result.output).toContain('stopping (SIGINT): requests in flight may finish within 10 s');
    expect(result.after, 'terminal settings after the run').toBe(result.before);
    expect(result.output.slice(result.output.lastIndexOf(hideCursor))).toContain(showCursor);
    await rerunDeliversTheRest(receiver, result.output);
  });

  it('SIGTERM from another process: exit 143 with the summary; the re-run stores no duplicate', async () => {
    const receiver = await e2e.start({ honourIdempotencyKey: false });
    receiver.setDelay(300);
    const run = await pushInFlight(receiver);
    process.kill(run.pid(), 'SIGTERM');
    const result = await run.done;
    expect(result.code).toBe(143);
    expect(result.after, 'terminal settings after the run').toBe(result.before);
    await rerunDeliversTheRest(receiver, result.output);
    expect(result.output).toContain('stopping (SIGTERM)');
  });

  it('a second Ctrl-C ends at once; the re-run delivers every record, each stored once', async () => {
    // The first request goes alone (transport/pacing.ts probes until one succeeds); the 4 after it are held until
    // the run has ended: a run that waited for them would print its summary.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const receiver = await e2e.start();
    receiver.script({}, ...Array.from({ length: 4 }, () => ({ until: gate })));
    const run = await pushInFlight(receiver);
    run.type('\x03');
    await vi.waitFor(() => expect(run.output).toContain('stopping (SIGINT)'), {
      timeout: 10_000,
      interval: 10,
    });
    run.type('\x03');
    const result = await run.done;
    expect(receiver.accepted).toHaveLength(50);
    release();
    expect(result.code).toBe(130);
    expect(result.output).not.toMatch(stoppedSummary);
    expect(result.after, 'terminal settings after the run').toBe(result.before);
    expect(result.output.slice(result.output.lastIndexOf(hideCursor))).toContain(showCursor);

    // The held batches reach the receiver after all; the ledger has them pending under their keys.
    await settled(receiver);
    expect(receiver.accepted).toHaveLength(250);
    const again = await runCli(['push', input, '-c', e2e.config, ...flags, '--json'], {
      cwd: e2e.work,
      env: env(receiver),
    });
    expect(again.code).toBe(0);
    const s = JSON.parse(again.stdout);
    expect([s.failed, s.pending]).toEqual([0, 0]);
    expect(s.retried).toBeGreaterThanOrEqual(200);
    expect(repeats(receiver.accepted).size).toBe(0);
    expect(acceptedIds(receiver.accepted)).toEqual(range(1, rows));
  });
});
