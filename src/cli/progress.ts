// Progress on stderr: an ora spinner on a TTY with a real width (with the share of the input read and an
// ETA); plain lines per file otherwise (cron, --no-progress), and a progress line every --progress-interval
// seconds on a long run; nothing with --quiet.
import { statSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { PipelineHooks } from '../pipeline/hooks.js';
import { ABORT_GRACE_MS } from '../pipeline/run-delivery.js';
import { ExitCode } from './exit-codes.js';
import { type CliIO, unguardedStream } from './io.js';
import { type ProgressSnapshot, progressLine, readShareText } from './progress-text.js';
import { counted } from './render.js';
import { explainCodes } from './system-errors.js';

export type OutputMode = 'quiet' | 'normal' | 'verbose';

/** A wait the server asks for (Retry-After) longer than this is announced, also without --verbose. */
export const announceWaitAfterMs = 2000;

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

/**
 * Whether a spinner may run: ora 9.4 redraws forever on a terminal reporting 0 columns (a pty nobody
 * sized, as some schedulers and `script` give), 795 MB of escape codes in 10 minutes while the run
 * holds the ledger lock (issue 13). No width, no spinner.
 */
export function hasSpinnerWidth(stream: CliIO['stderr']): boolean {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0;
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
  const tty =
    options.spinner !== false &&
    hasSpinnerWidth(io.stderr) &&
    !io.env.CI &&
    io.env.TERM !== 'dumb' &&
    mode !== 'quiet';
  const started = now();
  let rows = 0;
  let bytesRead = 0;
  let delivered = 0;
  /** Records of earlier runs resent and delivered: shown apart, they are not rows read by this run. */
  let resent = 0;
  let invalid = 0;
  let rejected = 0;
  const line = (text: string) => io.stderr.write(`${text}\n`);
  // Every worker that got the 429 reports the same wait: one line per wait, not one per request.
  let announcedUntil = 0;

  let spinner: { text: string; stop(): void; clear(): void; render(): void; start(): unknown } | undefined;
  if (tty) {
    const { default: ora } = await import('ora');
    // The decision is made above from the run's own environment (io.env); ora's default reads
    // process.env.CI itself, which disagreed with io.env under a CI runner and drew nothing.
    // discardStdin off: ora's default puts the terminal in raw mode (`-isig`) to read keys itself, but its
    // listener never starts a stdin nobody reads, so Ctrl-C, Ctrl-\ and Ctrl-Z did nothing while the
    // spinner ran, and a kill left the terminal raw (issue 19). Keys typed now echo over the spinner.
    spinner = ora({
      // The spinner draws with escape codes: it writes under the guard that escapes them in messages.
      stream: unguardedStream(io.stderr) as NodeJS.WritableStream & { isTTY: boolean },
      text: 'starting',
      isEnabled: true,
      discardStdin: false,
      // no-color.org: NO_COLOR set and not empty turns colour off; chalk (ora's colours) reads only FORCE_COLOR.
      color: io.env.NO_COLOR ? false : 'cyan',
    });
    spinner.start();
  }
  // ora redraws on its own timer, not only on our events: a terminal resized to 0 columns must stop it at
  // the resize, before its next frame computes an endless number of lines to clear.
  const emitter = io.stderr as Partial<NodeJS.EventEmitter>;
  const onResize = () => {
    if (spinner && !hasSpinnerWidth(io.stderr)) {
      spinner.stop();
      spinner = undefined;
    }
  };
  if (spinner) emitter.on?.('resize', onResize);
  const update = () => {
    if (!spinner) return;
    // A terminal resized to nothing mid-run: stop redrawing rather than loop (see hasSpinnerWidth).
    if (!hasSpinnerWidth(io.stderr)) {
      spinner.stop();
      spinner = undefined;
      return;
    }
    const seconds = Math.max((now() - started) / 1000, 0.001);
    const earlier = resent > 0 ? `, ${resent} resent from earlier runs` : '';
    spinner.text = `${rows} rows read, ${delivered} delivered, ${rejected} rejected, ${invalid} invalid${earlier}, ${Math.round(rows / seconds)} rows/s${readShareText(snapshot())}`;
  };
  const snapshot = (): ProgressSnapshot => ({
    rows,
    delivered,
    bytesRead,
    inputBytes: options.inputBytes,
    elapsedMs: now() - started,
  });
  // The spinner's rate and ETA move on while nothing arrives (a held request, a retry's wait); a log (cron,
  // a CI job) sees a long run advance: a line every interval, none before the first one is due.
  const hasBegun = () => rows > 0 || delivered > 0;
  const tick = spinner ? () => hasBegun() && update() : () => hasBegun() && line(progressLine(snapshot()));
  const everyMs = spinner ? 1000 : mode === 'quiet' ? undefined : options.intervalMs;
  const ticker = everyMs ? setInterval(tick, everyMs) : undefined;
  ticker?.unref();
  // Messages above the spinner must not be overwritten by it.
  const say = (text: string) => {
    if (spinner) spinner.clear();
    line(explainCodes(text));
    if (spinner) spinner.render();
  };

  let watched: AbortSignal | undefined;
  const onStop = () => {
    if (mode !== 'quiet') say(stoppingNote(watched?.reason));
  };

  const hooks: PipelineHooks = {
    onFileStart(file) {
      if (spinner) spinner.text = `reading ${file}`;
    },
    onFileDone(file, count) {
      if (mode !== 'quiet' && !spinner) line(`${file}: ${counted(count, 'row')}`);
    },
    onPreset(file, preset) {
      if (mode !== 'quiet') say(`${file}: preset ${preset}`);
    },
    onRowRead(count) {
      rows = count;
      update();
    },
    onBytesRead(count) {
      bytesRead = count;
    },
    onInvalid(rejection) {
      if (rejection.stage === 'invalid') invalid++;
      // Refused by the server only: a failed body or a row changed since delivered is not a rejection.
      else if (rejection.stage === 'rejected') rejected++;
    },
    onDelivered(count) {
      delivered += count;
      update();
    },
    onResentDelivered(count) {
      resent += count;
      update();
    },
    onRequest(info) {
      if (mode !== 'verbose') return;
      const outcome = info.status === undefined ? (info.error ?? 'error') : String(info.status);
      say(
        `POST /api/revenues ${counted(info.records, 'record')}: ${outcome} in ${Math.round(info.durationMs)} ms (attempt ${info.attempt})`,
      );
    },
    onRetry(info) {
      if (mode === 'verbose') say(`retry ${info.attempt} in ${Math.round(info.delayMs)} ms: ${info.reason}`);
      const asked = info.retryAfterMs;
      if (mode === 'quiet' || asked === undefined || asked <= announceWaitAfterMs) return;
      const until = now() + asked;
      if (until <= announcedUntil + 1000) return;
      announcedUntil = until;
      const status =
        info.status === undefined ? info.reason : `${info.status} ${STATUS_CODES[info.status] ?? ''}`;
      say(`server asked to wait ${Math.ceil(asked / 1000)} s (${status.trim()}); waiting`);
    },
    onWarning(message) {
      if (mode !== 'quiet') say(`warning: ${message}`);
    },
  };
  return {
    hooks,
    stop() {
      clearInterval(ticker);
      watched?.removeEventListener('abort', onStop);
      emitter.off?.('resize', onResize);
      spinner?.stop();
    },
    warn(message) {
      if (mode !== 'quiet') say(`warning: ${message}`);
    },
    announceStop(signal) {
      if (watched || signal.aborted) return;
      watched = signal;
      signal.addEventListener('abort', onStop, { once: true });
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
