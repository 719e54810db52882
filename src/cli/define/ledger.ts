// `revimport ledger copy|accounts|assign`: the ledger's subcommands, their flags and the actions that load
// commands/ledger-copy.ts and commands/ledger-accounts.ts.
import type { DefineCommand } from './command.js';

export const defineLedger: DefineCommand = (parent, context) => {
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
      const { ledgerCopyCommand } = await import('../commands/ledger-copy.js');
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
      const { ledgerAccountsCommand } = await import('../commands/ledger-accounts.js');
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
      const { ledgerAssignCommand } = await import('../commands/ledger-accounts.js');
      context.setExitCode(await ledgerAssignCommand(baseUrl, keys, options, context));
    });
