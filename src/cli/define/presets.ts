// `revimport presets [name]`: its flags and the action that loads commands/presets.ts.
import type { DefineCommand } from './command.js';

export const definePresets: DefineCommand = (parent, context) =>
  parent
    .command('presets')
    .description('list the built-in presets, or show one')
    .argument('[name]', 'preset to show')
    .option('--json', 'print JSON')
    .action(async (name: string | undefined, options: Record<string, unknown>) => {
      const { presetsCommand } = await import('../commands/presets.js');
      context.setExitCode(await presetsCommand(name, options, context));
    });
