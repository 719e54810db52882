// Progress on stderr: an ora spinner on a TTY with a real width (with the share of the input read and an
// ETA); plain lines per file otherwise (cron, --no-progress), and a progress line every --progress-interval
// seconds on a long run; nothing with --quiet.
import { statSync } from 'node:fs';
import type { PipelineHooks } from '../pipeline/hooks.js';
import { ABORT_GRACE_MS } from '../pipeline/run-delivery.js';
import { ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import { createDisplay, type Display, hasSpinnerWidth, startSpinner } from './progress-display.js';
import { type OutputMode, progressHooks } from './progress-hooks.js';
import { type ProgressCounts, type ProgressSnapshot, progressLine, spinnerText } from './progress-text.js';

export { hasSpinnerWidth } from './progress-display.js';
export { announceWaitAfterMs, type OutputMode } from './progress-hooks.js';

export interface Progress {
  hooks: PipelineHooks;
  stop(): void;
  warn(message: string): void;
  /**
   * Say so when `signal` stops the run: it goes on for up to the grace period, and the user must know they
   * were heard and how to end it at once (cli/main.ts stopOnSignals). From when requests may be in flight.
   */
  announceStop(signal: AbortSignal): void;
}

/** What the display knows besides the hooks. */
export interface ProgressOptions {
  /** false with --no-progress: plain lines, as without a terminal. */
  spinner?: boolean;
  /** The input files' total size (sizeOfInputs); undefined or 0: unknown, no share and no ETA. */
  inputBytes?: number;
  /** Without a spinner: a progress line this often, in ms (--progress-interval); undefined: none. */
  intervalMs?: number;
}

export async function createProgress(
  io: CliIO,
  mode: OutputMode,
  now: () => number,
  options: ProgressOptions = {},
): Promise<Progress> {
  const display = createDisplay(io, spins(io, mode, options) ? await startSpinner(io) : undefined);
  const started = now();
  const counts: ProgressCounts = { rows: 0, bytesRead: 0, delivered: 0, resent: 0, invalid: 0, rejected: 0 };
  const snapshot = (): ProgressSnapshot => ({
    rows: counts.rows,
    delivered: counts.delivered,
    bytesRead: counts.bytesRead,
    inputBytes: options.inputBytes,
    elapsedMs: now() - started,
  });
  const update = () => {
    if (display.keepsSpinning()) display.show(spinnerText(counts, snapshot()));
  };
  // Chosen once: a spinner dropped at a resize leaves a no-op tick, not a line every second.
  const tick = display.spinning ? update : () => display.line(progressLine(snapshot()));
  const ticker = startTicker(display, mode, options.intervalMs, () => {
    if (counts.rows > 0 || counts.delivered > 0) tick();
  });
  const stopNote = stopAnnouncer(display, mode);
  return {
    hooks: progressHooks({ counts, display, update }, mode, now),
    stop() {
      clearInterval(ticker);
      stopNote.forget();
      display.stop();
    },
    warn(message) {
      if (mode !== 'quiet') display.say(`warning: ${message}`);
    },
    announceStop: stopNote.watch,
  };
}

/** Whether the run gets a spinner: a terminal with a width, not CI, not a dumb terminal, not --quiet. */
function spins(io: CliIO, mode: OutputMode, options: ProgressOptions): boolean {
  return (
    options.spinner !== false &&
    hasSpinnerWidth(io.stderr) &&
    !io.env.CI &&
    io.env.TERM !== 'dumb' &&
    mode !== 'quiet'
  );
}

/**
 * The spinner's rate and ETA move on while nothing arrives (a held request, a retry's wait): it is redrawn
 * every second. A log (cron, a CI job) sees a long run advance: a line every interval, none before the first
 * one is due (nor before the run has begun: `tick` decides).
 */
function startTicker(
  display: Display,
  mode: OutputMode,
  intervalMs: number | undefined,
  tick: () => void,
): NodeJS.Timeout | undefined {
  const everyMs = display.spinning ? 1000 : mode === 'quiet' ? undefined : intervalMs;
  const ticker = everyMs ? setInterval(tick, everyMs) : undefined;
  ticker?.unref();
  return ticker;
}

/** Says once that a signal stops the run (stoppingNote), from when `watch` is given the run's signal. */
function stopAnnouncer(
  display: Display,
  mode: OutputMode,
): { watch(signal: AbortSignal): void; forget(): void } {
  let watched: AbortSignal | undefined;
  const onStop = () => {
    if (mode !== 'quiet') display.say(stoppingNote(watched?.reason));
  };
  return {
    watch(signal) {
      if (watched || signal.aborted) return;
      watched = signal;
      signal.addEventListener('abort', onStop, { once: true });
    },
    forget() {
      watched?.removeEventListener('abort', onStop);
    },
  };
}

/**
 * The total size of the input files, for the share read; undefined when one is stdin or not a regular file
 * (a pipe's size says nothing) or cannot be read (the run itself reports that).
 */
export function sizeOfInputs(files: readonly string[]): number | undefined {
  let total = 0;
  for (const file of files) {
    if (file === '-') return undefined;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) return undefined;
      total += stat.size;
    } catch {
      return undefined;
    }
  }
  return total;
}

/** What a push does after SIGINT or SIGTERM (the abort reason is the exit code, see cli/main.ts). */
function stoppingNote(reason: unknown): string {
  const name = reason === ExitCode.terminated ? 'SIGTERM' : 'SIGINT';
  const again = name === 'SIGINT' ? 'Ctrl-C again' : 'a second signal';
  return `stopping (${name}): requests in flight may finish within ${ABORT_GRACE_MS / 1000} s, the rest stays pending; ${again} stops at once`;
}
