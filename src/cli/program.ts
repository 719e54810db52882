// The command tree: the program's own help and output, then the table of commands, each a small function that
// declares its flags and an action loading its implementation (src/cli/commands/) lazily, so `--help`,
// `--version` and the signal handlers of cli/main.ts come up fast.
import { type Command, Option, Command as Program } from 'commander';
import type { CommandContext } from './context.js';
import { holdYoungGeneration } from './heap.js';
import { version } from './version.js';

// Kept here for modules that still import it from the program (its own module is context.ts).
export type { CommandContext } from './context.js';

/** Adds one command (with its flags and action) under `parent`; returns it. */
type DefineCommand = (parent: Command, context: CommandContext) => Command;

const helpAfter = `
Exit codes: 0 all delivered (or already delivered) · 1 some rows invalid or refused · 2 usage or config
error, nothing sent · 3 API key refused · 4 delivery failed, records kept for the next run · 5 another
run holds the ledger · 70 internal error · 130/143 stopped by SIGINT/SIGTERM

Environment: REVIMPORT_API_KEY, REVIMPORT_BASE_URL, REVIMPORT_STATE (ledger path), HTTPS_PROXY,
HTTP_PROXY, NO_PROXY (either case), NODE_EXTRA_CA_CERTS (a private CA's certificate, PEM)`;

export function createProgram(context: CommandContext): Command {
  const program = new Program('revimport')
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

/** What `--resend` may be followed by. */
const resendWords = ['all', 'changed'];

/**
 * `--resend` takes an optional word, and commander takes whatever argument follows as it (`push --resend
 * orders.csv` would lose the file to it): a `--resend` not followed by `all` or `changed` is read as
 * `--resend=all` before commander sees it.
 */
export function resendWithWord(args: readonly string[]): string[] {
  const end = args.indexOf('--');
  return args.map((arg, i) =>
    arg === '--resend' && (end === -1 || i < end) && !resendWords.includes(args[i + 1] ?? '')
      ? '--resend=all'
      : arg,
  );
}

/** `push <files...>`: the delivery options, what to check and write, how to read the input. */
const definePush: DefineCommand = (parent, context) => {
  const push = addInputOptions(
    addRowOptions(
      addDeliveryOptions(
        parent
          .command('push')
          .description('validate, map and deliver the rows of one or more exports (- for stdin)')
          .argument('<files...>', 'CSV or JSON-lines files, .gz allowed, - for stdin'),
      ),
    ),
  ).action(async (files: string[], options: Record<string, unknown>) => {
    // A push that delivers starts the ledger's threads: its young generation waits for them (cli/heap.ts).
    if (options.check !== true) holdYoungGeneration();
    const { pushCommand } = await import('./commands/push.js');
    context.setExitCode(await pushCommand(files, options, context));
  });
  const parseOptions = push.parseOptions.bind(push);
  push.parseOptions = (args) => parseOptions(resendWithWord(args));
  return push;
};

/** What push checks, maps, accepts and writes besides delivering. */
function addRowOptions(command: Command): Command {
  return command
    .option('--check', 'dry run: validate everything, report, send nothing, write no state')
    .option('-m, --mapping <path>', 'mapping file (JSON, YAML or JS), replacing the config mapping')
    .option('--preset <name>', 'use a built-in preset (see revimport presets)')
    .option('--rejects <path>', 'write invalid and refused rows here (.csv or .jsonl), mode 0600')
    .option(
      '--emit <file.jsonl>',
      'with --check: write each record exactly as it would be sent, one JSON line with its file and line, mode 0600',
    )
    .option(
      '--max-invalid <n|p%>',
      'error budget: up to n invalid rows (or p% of the rows) are accepted, exit 0; above it nothing is sent, exit 1',
    )
    .option('--timezone <zone>', 'IANA zone for local times without a zone (e.g. Europe/Berlin)')
    .option('--currency <code>', 'currency for rows without one (ISO 4217)')
    .option('--allow-negative', 'accept negative values (refunds)')
    .addOption(
      new Option(
        '--refunds <policy>',
        'net: values less what was refunded (default); gross: as written; adjust: net, and a later refund of a delivered order is sent once',
      ).choices(['net', 'gross', 'adjust']),
    )
    .option(
      '--report <file.html>',
      'write the run report at the end (also of a stopped run): revenue per day, counts, the value guard; one self-contained HTML file',
    )
    .option('--rejects-skipped', 'also write skipped rows (unpaid, refunded in full...) to the rejects file')
    .option(
      '--report-known',
      'also write rows an earlier run reported (invalid, refused) to the rejects file again; they still do not make the exit code 1',
    )
    .option(
      '--accept-shift',
      'send a run the value guard stops (its values unlike what this target was sent before: exit 6), after checking it',
    )
    .addOption(
      new Option(
        '--resend [which]',
        "send records already delivered to this target again: all (the default), or changed: only those counted 'changed since delivered'",
      ).choices(resendWords),
    );
}

/** How to read the input when detection is not wanted. */
function addInputOptions(command: Command): Command {
  return command
    .option('--delimiter <char>', 'CSV delimiter: , ; tab | (default: detected)')
    .addOption(
      new Option('--format <format>', 'input format (default: from the extension)').choices(['csv', 'jsonl']),
    )
    .option('--encoding <name>', 'utf-8, utf-16le, utf-16be, windows-1252 (default: detected)');
}

/** `retry`: the delivery options only. */
const defineRetry: DefineCommand = (parent, context) =>
  addDeliveryOptions(
    parent.command('retry').description("resend the target's failed and interrupted records from the ledger"),
  ).action(async (options: Record<string, unknown>) => {
    const { retryCommand } = await import('./commands/push.js');
    context.setExitCode(await retryCommand(options, context));
  });

/** `history`: past runs from the ledger. */
const defineHistory: DefineCommand = (parent, context) =>
  parent
    .command('history')
    .description('list past runs from the ledger')
    .option('-c, --config <path>', 'config file whose `state` names the ledger')
    .option('--state <path>', 'ledger file, or postgres:// URL')
    .option('-n, --limit <n>', 'runs to show', '20')
    .option('--json', 'print JSON')
    .option('-v, --verbose', 'print the config file and the ledger read, on stderr')
    .action(async (options: Record<string, unknown>) => {
      const { historyCommand } = await import('./commands/history.js');
      context.setExitCode(await historyCommand(options, context));
    });

/** `report`: a past run's report page, from the ledger (issue 25). */
const defineReport: DefineCommand = (parent, context) =>
  parent
    .command('report')
    .description(
      "write a run's report (revenue per day, counts, the value guard) as one self-contained HTML file",
    )
    .option('--run <n>', 'the run, as history lists it (default: the last run)')
    .option(
      '-o, --out <file.html>',
      'the file to write (default: revimport-run-<n>.html in the current folder)',
    )
    .option('-c, --config <path>', 'config file whose `state` names the ledger')
    .option('--state <path|url>', 'ledger file, or postgres:// URL')
    .option('-v, --verbose', 'print the config file and the ledger read, on stderr')
    .action(async (options: Record<string, unknown>) => {
      const { reportCommand } = await import('./commands/report.js');
      context.setExitCode(await reportCommand(options, context));
    });

/** `ledger copy|accounts|assign`: the ledger's subcommands. */
const defineLedger: DefineCommand = (parent, context) => {
  const ledger = parent.command('ledger').description("see, resolve or move the ledger's targets");
  for (const define of [defineCopy, defineAccounts, defineAssign]) define(ledger, context);
  return ledger;
};

const defineCopy: DefineCommand = (ledger, context) =>
  ledger
    .command('copy')
    .description('copy an SQLite ledger (its runs and records) into a PostgreSQL ledger')
    .requiredOption('--to <url>', 'the PostgreSQL ledger: postgres://user@host:5432/database')
    .option('--password-file <path>', "a file holding the PostgreSQL ledger's password")
    .option('-c, --config <path>', 'config file whose `state` names the SQLite ledger')
    .option('--state <path>', 'the SQLite ledger file to copy')
    .option('--json', 'print JSON')
    .action(async (options: Record<string, unknown>) => {
      const { ledgerCopyCommand } = await import('./commands/ledger-copy.js');
      context.setExitCode(await ledgerCopyCommand(options, context));
    });

const defineAccounts: DefineCommand = (ledger, context) =>
  ledger
    .command('accounts')
    .description('list the targets (CRM accounts) the ledger keeps history for')
    .option('-c, --config <path>', 'config file whose `state` names the ledger')
    .option('--state <path|url>', 'ledger file, or postgres:// URL')
    .option('--json', 'print JSON')
    .action(async (options: Record<string, unknown>) => {
      const { ledgerAccountsCommand } = await import('./commands/ledger-accounts.js');
      context.setExitCode(await ledgerAccountsCommand(options, context));
    });

const defineAssign: DefineCommand = (ledger, context) =>
  ledger
    .command('assign')
    .description(
      "resolve targets kept per API key by an older ledger: name one key's history as an account, or merge several keys' histories into one",
    )
    .argument('<base-url>', 'the CRM base URL the keys were used with')
    .argument('<key...>', 'key fingerprints, as `ledger accounts` or the push that stopped lists them')
    .option('--account <name>', "the account's name (default: the URL's one account)")
    .option('-c, --config <path>', 'config file whose `state` names the ledger')
    .option('--state <path|url>', 'ledger file, or postgres:// URL')
    .action(async (baseUrl: string, keys: string[], options: Record<string, unknown>) => {
      const { ledgerAssignCommand } = await import('./commands/ledger-accounts.js');
      context.setExitCode(await ledgerAssignCommand(baseUrl, keys, options, context));
    });

/** `presets [name]`. */
const definePresets: DefineCommand = (parent, context) =>
  parent
    .command('presets')
    .description('list the built-in presets, or show one')
    .argument('[name]', 'preset to show')
    .option('--json', 'print JSON')
    .action(async (name: string | undefined, options: Record<string, unknown>) => {
      const { presetsCommand } = await import('./commands/presets.js');
      context.setExitCode(await presetsCommand(name, options, context));
    });

/** `init <sample>`: writes a config from a sample export (commands/init.ts). */
const defineInit: DefineCommand = (parent, context) =>
  parent
    .command('init')
    .description('read a sample export and write revimport.config.yaml for it')
    .argument('<sample>', 'a sample export')
    .option('-o, --output <path>', 'config file to write', 'revimport.config.yaml')
    .option('--force', 'overwrite an existing config')
    .option('--timezone <zone>', 'default IANA zone to write into the config')
    .option('--no-preset', 'guess the mapping from the columns even when a preset matches')
    .action(async (sample: string, options: Record<string, unknown>) => {
      const { initCommand } = await import('./commands/init.js');
      context.setExitCode(await initCommand(sample, options, context));
    });

/** Options shared by push and retry. */
function addDeliveryOptions(command: Command): Command {
  return (
    command
      .option(
        '-c, --config <path>',
        'config file (default: search for revimport.config.* / .revimportrc* in the cwd)',
      )
      .option(
        '--base-url <url>',
        'CRM base URL; revimport posts to {base-url}/api/revenues (env REVIMPORT_BASE_URL)',
      )
      .option(
        '--account <name>',
        'the CRM account at the base URL, where one URL serves several (env REVIMPORT_ACCOUNT; default: the URL has one)',
      )
      .option(
        '--state <path|url>',
        'ledger file or postgres:// URL (env REVIMPORT_STATE; default: revimport-ledger.db beside the config file, without one ~/.local/state/revimport/ledger.db)',
      )
      .option('--batch-size <n>', 'records per request (default 500; bodies are also capped at 1 MiB)')
      .option('--concurrency <n>', 'requests in flight at most (default 4)')
      .option(
        '--retries <n>',
        'retries per request at most for network errors, 408, 429 and 5xx (default: no cap, --max-retry-time ends them)',
      )
      .option(
        '--max-retry-time <s>',
        'seconds a request may be retried, from its first failure, before the run stops with exit 4 (default 300)',
      )
      .option('--timeout <s>', 'seconds per request (default 30)')
      .option('--rate <n>', 'requests per second at most')
      .option('--wait <s>', 'seconds to wait for another run holding the ledger (default 0: exit 5 at once)')
      .option('--allow-http', 'allow plain http to a non-loopback host')
      .option(
        '--proxy <url>',
        'proxy for the CRM requests (default: https_proxy/HTTP_PROXY..., then the proxy key)',
      )
      .option('--no-proxy', 'connect directly, whatever the proxy variables and the proxy key say')
      .option('--json', 'print the summary as one JSON object on stdout')
      .option('--no-progress', 'no spinner on a terminal: one line per file, as without a TTY')
      .option(
        '--progress-interval <s>',
        'without a spinner: a progress line on stderr every s seconds of a long run (default 30)',
      )
      // Errors only and every request's line contradict each other: refused as a usage error (exit 2).
      .addOption(new Option('-q, --quiet', 'print errors only').conflicts('verbose'))
      .option('-v, --verbose', "print the config file and ledger used, and each request's status and time")
  );
}

/** The commands, in the order `--help` lists them (last: it names the functions above). */
const commands: readonly DefineCommand[] = [
  definePush,
  defineRetry,
  defineHistory,
  defineReport,
  defineLedger,
  definePresets,
  defineInit,
];
