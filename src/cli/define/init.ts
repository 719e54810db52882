// `revimport init <sample>`: its flags and the action that loads commands/init.ts.
import type { DefineCommand } from './command.js';

export const defineInit: DefineCommand = (parent, context) =>
  parent
    .command('init')
    .description('read a sample export and write revimport.config.yaml for it')
    .argument('<sample>', 'a sample export')
    .option('-o, --output <path>', 'config file to write', 'revimport.config.yaml')
    .option('--force', 'overwrite an existing config')
    .option('--timezone <zone>', 'default IANA zone to write into the config')
    .option('--no-preset', 'guess the mapping from the columns even when a preset matches')
    .action(async (sample: string, options: Record<string, unknown>) => {
      const { initCommand } = await import('../commands/init.js');
      context.setExitCode(await initCommand(sample, options, context));
    });
