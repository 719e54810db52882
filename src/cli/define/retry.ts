// `revimport retry`: the delivery options only, and the action that loads commands/push.ts.
import type { DefineCommand } from './command.js';
import { addDeliveryOptions } from './delivery-options.js';

export const defineRetry: DefineCommand = (parent, context) =>
  addDeliveryOptions(
    parent.command('retry').description("resend the target's failed and interrupted records from the ledger"),
  ).action(async (options: Record<string, unknown>) => {
    const { retryCommand } = await import('../commands/push.js');
    context.setExitCode(await retryCommand(options, context));
  });
