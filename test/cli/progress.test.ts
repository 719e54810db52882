// The wait announcement on stderr (issue #13): a Retry-After longer than 2 s is said once per wait,
// also without --verbose; never under --quiet, never on stdout.
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { CliIO } from '../../src/cli/io.js';
import { createProgress, type OutputMode } from '../../src/cli/progress.js';

async function progressOn(mode: OutputMode, clock: { now: number }) {
  let stderr = '';
  let stdout = '';
  const err = new PassThrough().setEncoding('utf8');
  const out = new PassThrough().setEncoding('utf8');
  err.on('data', (chunk: string) => {
    stderr += chunk;
  });
  out.on('data', (chunk: string) => {
    stdout += chunk;
  });
  const io: CliIO = { stdout: out, stderr: err, stdin: new PassThrough(), env: { CI: '1' }, cwd: '.' };
  const progress = await createProgress(io, mode, () => clock.now);
  return { progress, output: () => ({ stderr, stdout }) };
}

const retry = (retryAfterMs: number | undefined, status = 429) => ({
  attempt: 1,
  delayMs: retryAfterMs ?? 400,
  reason: `HTTP ${status}`,
  status,
  retryAfterMs,
});

describe('announcing waits the server asks for', () => {
  it('says a 30 s Retry-After once, however many workers got it, without --verbose', async () => {
    const clock = { now: 0 };
    const { progress, output } = await progressOn('normal', clock);
    progress.hooks.onRetry?.(retry(30_000));
    clock.now = 5;
    progress.hooks.onRetry?.(retry(30_000));
    progress.hooks.onRetry?.(retry(29_990, 503));
    expect(output().stderr).toBe('server asked to wait 30 s (429 Too Many Requests); waiting\n');
    expect(output().stdout).toBe('');
    // A new wait after the first one is over is said again.
    clock.now = 31_000;
    progress.hooks.onRetry?.(retry(3_000, 503));
    expect(output().stderr.split('\n')[1]).toBe(
      'server asked to wait 3 s (503 Service Unavailable); waiting',
    );
  });

  it.each<[string, OutputMode, number | undefined]>([
    ['a wait of 2 s or less', 'normal', 2_000],
    ['a backoff the server did not ask for', 'normal', undefined],
    ['--quiet', 'quiet', 30_000],
  ])('says nothing for %s', async (_name, mode, retryAfterMs) => {
    const { progress, output } = await progressOn(mode, { now: 0 });
    progress.hooks.onRetry?.(retry(retryAfterMs));
    expect(output().stderr).toBe('');
  });
});

describe('the spinner on a terminal resized to 0 columns', () => {
  it('stops at the resize, before ora draws another frame', async () => {
    let writes = 0;
    // A TTY stream as ora uses it: the cursor calls are no-ops here, the frames are the writes counted.
    // At 0 columns ora's clear() loops forever on them: past a bound they throw, so a regression fails
    // instead of hanging the suite.
    let cursorCalls = 0;
    const cursor = () => {
      if (++cursorCalls > 100_000) throw new Error('ora clears lines endlessly');
      return true;
    };
    const err = Object.assign(new PassThrough(), {
      isTTY: true,
      columns: 80,
      cursorTo: cursor,
      moveCursor: cursor,
      clearLine: cursor,
      clearScreenDown: cursor,
    });
    err.on('data', () => {
      writes++;
    });
    const io = {
      stdout: new PassThrough(),
      stderr: err,
      stdin: new PassThrough(),
      env: {},
      cwd: '.',
    } as unknown as CliIO;
    const progress = await createProgress(io, 'normal', () => 0);
    // ora draws a frame every 80 ms while it runs; on a loaded CI box the timer may fire late, so wait
    // for the second frame rather than for a fixed time.
    await vi.waitFor(() => expect(writes).toBeGreaterThan(1), { timeout: 10_000, interval: 20 });
    err.columns = 0;
    err.emit('resize');
    await new Promise((resolve) => setImmediate(resolve));
    const atResize = writes;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(writes).toBe(atResize);
    progress.stop();
  });
});

describe('no spinner where a terminal cannot draw one', () => {
  it.each([
    ['TERM=dumb', { TERM: 'dumb' }],
    ['CI set in the run environment', { CI: 'true' }],
  ])('%s: plain lines, no frames', async (_name, env) => {
    const err = Object.assign(new PassThrough().setEncoding('utf8'), { isTTY: true, columns: 80 });
    let stderr = '';
    err.on('data', (chunk: string) => {
      stderr += chunk;
    });
    const io = {
      stdout: new PassThrough(),
      stderr: err,
      stdin: new PassThrough(),
      env,
      cwd: '.',
    } as unknown as CliIO;
    const progress = await createProgress(io, 'normal', () => 0);
    progress.hooks.onFileDone?.('a.csv', 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    progress.stop();
    expect(stderr).toBe('a.csv: 3 rows\n');
  });
});
