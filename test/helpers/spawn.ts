// Spawns a process asynchronously and collects what it writes: startCli for the CLI (the child handed back
// for tests that signal it mid-run or run two at once; runCli in cli.ts only gives the result), runProcess
// for anything else a test launches (npm, sh, the demo), so every launcher in test/ is this one.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { bin, type CliOptions, type CliResult, checkCounts, cleanEnv, root } from './cli.js';

export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when the process has exited and its streams are closed. */
  done: Promise<CliResult>;
  /** What it has written so far. */
  readonly stderr: string;
}

export interface ProcessOptions {
  cwd: string;
  /** The whole environment (not cleaned: pass cleanEnv() for that). */
  env: Record<string, string>;
  /** 'ignore' reads /dev/null; 'pipe' leaves child.stdin to the caller. Default 'ignore'. */
  stdin?: 'ignore' | 'pipe';
}

/** Starts `command args`, collecting stdout and stderr as text until it exits and its streams close. */
export function startProcess(command: string, args: string[], options: ProcessOptions): RunningCli {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  }) as ChildProcessWithoutNullStreams;
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
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    child,
    done,
    get stderr() {
      return stderr;
    },
  };
}

/** Runs `command args` to its end: its exit code, signal, stdout and stderr. */
export function runProcess(command: string, args: string[], options: ProcessOptions): Promise<CliResult> {
  return startProcess(command, args, options).done;
}

export function startCli(args: string[], options: CliOptions = {}): RunningCli {
  const running = startProcess(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? root,
    env: cleanEnv(options.env),
    stdin: 'pipe',
  });
  // Every --json run's counts add up (cli.ts checkCounts): a violation fails the test that ran it.
  const done = running.done.then((result) => {
    checkCounts(args, result.stdout);
    return result;
  });
  const { child } = running;
  if (options.stdin !== undefined) child.stdin.end(options.stdin);
  else if (!options.openStdin) child.stdin.end();
  return {
    child,
    done,
    get stderr() {
      return running.stderr;
    },
  };
}
