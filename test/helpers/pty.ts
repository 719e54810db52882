// The CLI in a real pseudo-terminal (util-linux `script`) of a set size: the conditions of ora's spinner.
// One launcher for the terminal, progress and counts tests; ctrl-c's shell-wrapped run shares quote/hasScript.
import { spawn, spawnSync } from 'node:child_process';
import { bin, cleanEnv } from './cli.js';

/** `script` is there to make a pty (util-linux); tests needing one skip without it. */
export const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

/** One word for sh, single-quoted. */
export const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

export interface PtyOptions {
  columns: number;
  rows: number;
  /** Added to cleanEnv with CI unset (CI would turn the spinner off on its own); undefined removes. */
  env: Record<string, string | undefined>;
  cwd?: string;
  /** Default 'xterm'. */
  term?: string;
  /** Kill the pty once its output passes this many characters (a redraw loop); default: never. */
  outputCap?: number;
}

export interface PtyResult {
  code: number | null;
  /** All the terminal showed. */
  output: string;
  /** True when the output passed outputCap and the pty was killed. */
  overflowed: boolean;
}

export interface PtyRun {
  /** All the terminal showed so far. */
  output(): string;
  done: Promise<PtyResult>;
}

/** Starts `revimport args` in a pty of options.columns x options.rows. */
export function startInPty(args: string[], options: PtyOptions): PtyRun {
  const command = [process.execPath, bin, ...args].map(quote).join(' ');
  const shell = `stty cols ${options.columns} rows ${options.rows}; exec ${command}`;
  const child = spawn('script', ['-qfec', shell, '/dev/null'], {
    env: { ...cleanEnv({ CI: undefined, ...options.env }), SHELL: '/bin/sh', TERM: options.term ?? 'xterm' },
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let overflowed = false;
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (options.outputCap !== undefined && output.length > options.outputCap && !overflowed) {
      overflowed = true;
      child.kill('SIGKILL');
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const done = new Promise<PtyResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output, overflowed }));
  });
  return { output: () => output, done };
}

/** Runs `revimport args` in a pty to its end. */
export function runInPty(args: string[], options: PtyOptions): Promise<PtyResult> {
  return startInPty(args, options).done;
}
