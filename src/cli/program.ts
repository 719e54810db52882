// The command tree: the program's own help and output, then the table of commands (src/cli/define/), each of
// which loads its implementation lazily so `--help` and `--version` start fast.
import { Command } from 'commander';
import type { CommandContext } from './context.js';
import type { DefineCommand } from './define/command.js';
import { defineHistory } from './define/history.js';
import { defineInit } from './define/init.js';
import { defineLedger } from './define/ledger.js';
import { definePresets } from './define/presets.js';
import { definePush } from './define/push.js';
import { defineRetry } from './define/retry.js';
import { version } from './version.js';

// Kept here for modules that still import them from the program (CommandContext's own module is context.ts).
export type { CommandContext } from './context.js';
export { resendWithWord } from './define/push.js';

/** The commands, in the order `--help` lists them. */
const commands: readonly DefineCommand[] = [
  definePush,
  defineRetry,
  defineHistory,
  defineLedger,
  definePresets,
  defineInit,
];

const helpAfter = `
Exit codes: 0 all delivered (or already delivered) · 1 some rows invalid or refused · 2 usage or config
error, nothing sent · 3 API key refused · 4 delivery failed, records kept for the next run · 5 another
run holds the ledger · 70 internal error · 130/143 stopped by SIGINT/SIGTERM

Environment: REVIMPORT_API_KEY, REVIMPORT_BASE_URL, REVIMPORT_STATE (ledger path), HTTPS_PROXY,
HTTP_PROXY, NO_PROXY (either case), NODE_EXTRA_CA_CERTS (a private CA's certificate, PEM)`;

export function createProgram(context: CommandContext): Command {
  const program = new Command('revimport')
    .description('Import conversion exports (CSV, JSON lines) into a CRM through POST {baseUrl}/api/revenues')
    .version(version, '-V, --version')
    .showHelpAfterError('(run revimport --help for usage)')
    .addHelpText('after', helpAfter)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.io.stdout.write(text),
      writeErr: (text) => context.io.stderr.write(text),
    });
  for (const define of commands) define(program, context);
  return program;
}
