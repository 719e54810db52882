// The entry point: build the program, parse, and the single catch that turns errors into exit codes.
import { CommanderError } from 'commander';
import { isRevimportError, UsageError } from '../errors.js';
import { ledgerStorageError } from '../ledger/storage-error.js';
import { ExitCode, exitCodeForError } from './exit-codes.js';
import { tuneHeap } from './heap.js';
import { type CliIO, processIO } from './io.js';
import { createProgram } from './program.js';
import { explainCodes } from './system-errors.js';
import { pinZone } from './zone-env.js';

export async function main(argv: string[], io: CliIO, signal: AbortSignal): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const program = createProgram({
    io,
    signal,
    setExitCode: (code) => {
      exitCode = code;
    },
  });
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (thrown) {
    const error = ledgerStorageError(thrown);
    if (error instanceof CommanderError) {
      // --help and --version end with a CommanderError too; those are successes.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
      // 'commander.help' is also how commander ends a bare `revimport` (no command: help on stderr,
      // exitCode 1): a usage error, not a success (found by test/e2e/exit-codes.test.ts).
      if (error.code === 'commander.help') return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
      // A push or retry under --json prints its object even when its flags are wrong (a cron log line per run).
      if ((argv[0] === 'push' || argv[0] === 'retry') && argv.includes('--json')) {
        const { runJson, stampRun } = await import('./run-report.js');
        const usage = new UsageError(error.message.replace(/^error: /, ''));
        const line = runJson(stampRun(), {
          summary: undefined,
          check: argv.includes('--check'),
          exitCode: ExitCode.usage,
          target: null,
          error: usage,
        });
        io.stdout.write(`${JSON.stringify(line)}\n`);
      }
      return ExitCode.usage;
    }
    if (isRevimportError(error)) {
      io.stderr.write(`revimport: ${explainCodes(error.message)}\n`);
      if (error.hint) io.stderr.write(`  hint: ${explainCodes(error.hint)}\n`);
      if (verbose && error.stack) io.stderr.write(`${error.stack}\n`);
      return exitCodeForError(error);
    }
    io.stderr.write(
      `revimport: internal error (a bug; please report it):\n${(error as Error)?.stack ?? error}\n`,
    );
    return ExitCode.internal;
  }
}

/**
 * A reader that closed the pipe (`| head -1`, `| true`) wants no more output: the rest is dropped, and the
 * run ends with its own exit code, as git and grep end, not with an EPIPE stack trace and exit 1 after a
 * push that delivered and recorded everything (issue 24). Other write errors stay errors.
 */
export function ignoreClosedPipe(stream: NodeJS.WritableStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}

/** Used by bin/revimport.js: wires the real process, signals included. */
export async function run(): Promise<void> {
  tuneHeap(process.execArgv, process.env.NODE_OPTIONS);
  pinZone();
  ignoreClosedPipe(process.stdout);
  ignoreClosedPipe(process.stderr);
  const controller = new AbortController();
  const signals = stopOnSignals(controller);
  try {
    const code = await main(process.argv.slice(2), processIO(), controller.signal);
    process.exitCode = signals.code ?? code;
  } finally {
    signals.dispose();
  }
}

/**
 * The first SIGINT or SIGTERM aborts the run (requests in flight finish, the rest stays pending, summary,
 * 130/143); a second one ends the process at once by the signal itself, as the shell expects of Ctrl-C.
 * The listeners stay registered: ora's cursor handling loads signal-exit, which re-raises a signal when its
 * own listener is the only one left, so with `process.once` the first signal killed the run without grace
 * or summary, and its batches in flight were sent again by the next run (issue 19).
 */
function stopOnSignals(controller: AbortController): { readonly code: number | undefined; dispose(): void } {
  let code: number | undefined;
  const listeners = new Map<NodeJS.Signals, () => void>();
  const dispose = () => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  };
  const codes = [
    ['SIGINT', ExitCode.interrupted],
    ['SIGTERM', ExitCode.terminated],
  ] as const;
  for (const [signal, signalCode] of codes) {
    const listener = () => {
      if (code === undefined) {
        code = signalCode;
        controller.abort(signalCode);
        return;
      }
      // What was sent is in the ledger's journal before it leaves (pending until acknowledged): the next
      // run resends it under the same Idempotency-Key, as after a crash.
      dispose();
      process.kill(process.pid, signal);
    };
    listeners.set(signal, listener);
    process.on(signal, listener);
  }
  return {
    get code() {
      return code;
    },
    dispose,
  };
}
