// What every command gets from main: the process's streams and environment, the exit code setter and the
// stop signal. A module of its own so commands never import back from program.ts, which loads them.
import type { CliIO } from './io.js';

export interface CommandContext {
  io: CliIO;
  /** Set by a command: the process exit code. */
  setExitCode(code: number): void;
  signal: AbortSignal;
}
