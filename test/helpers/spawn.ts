// Spawns the CLI and hands back the child as well, for tests that signal it mid-run (SIGKILL, SIGTERM)
// or run two at once; runCli (cli.ts) only gives the result.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { bin, type CliOptions, type CliResult, checkCounts, cleanEnv, root } from './cli.js';

export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when the process has exited and its streams are closed. */
  done: Promise<CliResult>;
  /** What it has written so far. */
  readonly stderr: string;
}

export function startCli(args: string[], options: CliOptions = {}): RunningCli {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? root,
    env: cleanEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      // Every --json run's counts add up (cli.ts checkCounts): a violation fails the test that ran it.
      try {
        checkCounts(args, stdout);
      } catch (error) {
        reject(error);
        return;
      }
      resolve({ code, signal, stdout, stderr });
    });
  });
  if (options.stdin !== undefined) child.stdin.end(options.stdin);
  else if (!options.openStdin) child.stdin.end();
  return {
    child,
    done,
    get stderr() {
      return stderr;
    },
  };
}
