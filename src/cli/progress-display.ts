// Where the progress display writes on stderr: an ora spinner on a terminal with a real width (dropped for
// good when the terminal loses it), plain lines otherwise; messages are written above the spinner.
import type { CliIO } from './io.js';
import { unguardedStream } from './io.js';
import { explainCodes } from './system-errors.js';

/** The part of an ora spinner the display uses. */
export interface Spinner {
  text: string;
  stop(): void;
  clear(): void;
  render(): void;
  start(): unknown;
}

/**
 * Whether a spinner may run: ora 9.4 redraws forever on a terminal reporting 0 columns (a pty nobody
 * sized, as some schedulers and `script` give), 795 MB of escape codes in 10 minutes while the run
 * holds the ledger lock (issue 13). No width, no spinner.
 */
export function hasSpinnerWidth(stream: CliIO['stderr']): boolean {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0;
}

/** A started ora spinner on `io.stderr`. */
export async function startSpinner(io: CliIO): Promise<Spinner> {
  const { default: ora } = await import('ora');
  // The decision to spin is made from the run's own environment (io.env); ora's default reads
  // process.env.CI itself, which disagreed with io.env under a CI runner and drew nothing.
  // discardStdin off: ora's default puts the terminal in raw mode (`-isig`) to read keys itself, but its
  // listener never starts a stdin nobody reads, so Ctrl-C, Ctrl-\ and Ctrl-Z did nothing while the
  // spinner ran, and a kill left the terminal raw (issue 19). Keys typed now echo over the spinner.
  const spinner = ora({
    // The spinner draws with escape codes: it writes under the guard that escapes them in messages.
    stream: unguardedStream(io.stderr) as NodeJS.WritableStream & { isTTY: boolean },
    text: 'starting',
    isEnabled: true,
    discardStdin: false,
    // no-color.org: NO_COLOR set and not empty turns colour off; chalk (ora's colours) reads only FORCE_COLOR.
    color: io.env.NO_COLOR ? false : 'cyan',
  });
  spinner.start();
  return spinner;
}

export interface Display {
  /** Whether a spinner is drawing now. */
  readonly spinning: boolean;
  /**
   * Whether the spinner may draw another frame: a terminal resized to nothing mid-run stops it here rather
   * than loop (see hasSpinnerWidth).
   */
  keepsSpinning(): boolean;
  /** The spinner's text (nothing without a spinner). */
  show(text: string): void;
  /** A plain line on stderr. */
  line(text: string): void;
  /** A message on stderr, above the spinner (which must not overwrite it). */
  say(text: string): void;
  stop(): void;
}

export function createDisplay(io: CliIO, started: Spinner | undefined): Display {
  let spinner = started;
  const dropWithoutWidth = () => {
    if (spinner && !hasSpinnerWidth(io.stderr)) {
      spinner.stop();
      spinner = undefined;
    }
  };
  // ora redraws on its own timer, not only on our events: a terminal resized to 0 columns must stop it at
  // the resize, before its next frame computes an endless number of lines to clear.
  const emitter = io.stderr as Partial<NodeJS.EventEmitter>;
  if (spinner) emitter.on?.('resize', dropWithoutWidth);
  const line = (text: string) => io.stderr.write(`${text}\n`);
  return {
    get spinning() {
      return spinner !== undefined;
    },
    keepsSpinning() {
      dropWithoutWidth();
      return spinner !== undefined;
    },
    show(text) {
      if (spinner) spinner.text = text;
    },
    line,
    say(text) {
      if (spinner) spinner.clear();
      line(explainCodes(text));
      if (spinner) spinner.render();
    },
    stop() {
      emitter.off?.('resize', dropWithoutWidth);
      spinner?.stop();
    },
  };
}
