// `revimport history`: its flags and the action that loads commands/history.ts.
import type { DefineCommand } from './command.js';

export const defineHistory: DefineCommand = (parent, context) =>
  parent
    .command('history')
    .description('list past runs from the ledger')
    .option('-c, --config <path>', 'config file whose `state` names the ledger')
    .option('--state <path>', 'ledger file, or postgres:// URL')
    .option('-n, --limit <n>', 'runs to show', '20')
    .option('--json', 'print JSON')
    .option('-v, --verbose', 'print the config file and the ledger read, on stderr')
    .action(async (options: Record<string, unknown>) => {
      const { historyCommand } = await import('../commands/history.js');
      context.setExitCode(await historyCommand(options, context));
    });
