// `revimport push <files...>`: its flags (the delivery options, what to check and write, how to read the
// input), `--resend`'s optional word, and the action that loads commands/push.ts.
import { type Command, Option } from 'commander';
import type { DefineCommand } from './command.js';
import { addDeliveryOptions } from './delivery-options.js';

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

export const definePush: DefineCommand = (parent, context) => {
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
    const { pushCommand } = await import('../commands/push.js');
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
    .option('--rejects-skipped', 'also write skipped rows (unpaid, refunded in full...) to the rejects file')
    .option(
      '--report-known',
      'also write rows an earlier run reported (invalid, refused) to the rejects file again; they still do not make the exit code 1',
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
