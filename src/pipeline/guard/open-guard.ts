// Whether a run has a value guard (issue 25): a push with a ledger to compare with, the guard not turned
// off in the config. --check has no ledger, so no guard (README "Value guard").
import type { GuardSettings } from '../../config/settings.js';
import type { LookupQueue } from '../lookup-queue.js';
import type { RunTally } from '../run-tally.js';
import type { GuardHistory } from './guard-history.js';
import { RunGuard } from './run-guard.js';

export function openGuard(
  settings: GuardSettings,
  queue: LookupQueue | undefined,
  history: GuardHistory | undefined,
  tally: RunTally,
): RunGuard | undefined {
  if (!settings.enabled || !queue || !history) return undefined;
  return new RunGuard(queue, settings, history, tally);
}
