// Composes the stages: read -> check -> (ledger look-up) -> deliver, and returns the Summary.
// `--check` stops after checking and touches neither the ledger nor the network.
import type { Settings } from '../config/settings.js';
import type { Summary } from '../report/summary.js';
import { openGuard } from './guard/open-guard.js';
import type { PipelineHooks } from './hooks.js';
import { openRawSpans } from './raw-span-run.js';
import { readAndCheck } from './read-files.js';
import type { RowThreadData } from './row-thread/messages.js';
import { checkFilesOnThread, useRowThread } from './row-thread/row-thread.js';
import { closeDelivery, openDelivery, resendEarlier, stopDelivery, stopOnSignal } from './run-delivery.js';
import { RunTally } from './run-tally.js';
import { outcomeTaker } from './take-outcome.js';
import type { ErrorWithSummary, RunDeps, RunOptions } from './types.js';

export { ABORT_GRACE_MS } from './run-delivery.js';
export type { ErrorWithSummary, RunDeps, RunOptions } from './types.js';

export async function runPipeline(
  settings: Settings,
  options: RunOptions,
  deps: RunDeps,
  hooks: PipelineHooks = {},
): Promise<Summary> {
  const started = deps.now();
  const tally = new RunTally(options.check, hooks, deps.rejects, deps.revenue);
  const delivery = options.check ? undefined : openDelivery(settings, options.resend, deps, hooks, tally);
  // The value guard holds this run's valid records until it has compared them with the target's history.
  const guard = openGuard(settings.guard, delivery?.queue, deps.guard, tally);
  const finalize = () => {
    const notSent = (delivery?.queue.takeWaiting() ?? 0) + (guard?.takeHeld() ?? 0);
    tally.summary.guard ??= guard?.result(false) ?? null;
    return tally.finalize(notSent, deps.now() - started);
  };
  const unwatch = stopOnSignal(delivery, deps.signal);
  const onThread = useRowThread(deps.rowThread, settings, options);
  // Spans of rows the ledger noted delivered are counted without their rows being checked (raw-spans.ts).
  const raw = openRawSpans(settings, options, deps, onThread, { tally, guard });
  try {
    if (delivery) await resendEarlier(delivery, deps.ledger, tally.summary);
    await guard?.readHistory();
    await raw?.readDigests();
    // The young generation grows once the rows are read, not before: the history's 20,000 records arrive in one
    // burst that survives its scavenges, and a new space let grow while they came doubled past its cap before the
    // collector's observer could stop it there (8 MiB semi-spaces against 4: +8 MiB of RSS, into a 5M-record ledger).
    if (!onThread) deps.growYoung?.();
    const take = outcomeTaker({
      tally,
      queue: guard ?? delivery?.queue,
      known: deps.known,
      rejectsSkipped: settings.rejectsSkipped,
      hooks,
      raw,
    });
    const signal = guard ? anySignal(deps.signal, guard.signal) : deps.signal;
    const steps = { take, tally, hooks, signal, raw };
    if (onThread) {
      await checkFilesOnThread(rowThreadData(settings, options, deps), steps, deps.growYoung);
    } else {
      // Here, between the run's other work (the default; stdin and a transform always).
      const { stdin, signal: stop, wallClock } = deps;
      await readAndCheck(settings, options.files, { stdin, signal: stop, wallClock }, steps);
    }
    if (!deps.signal?.aborted) await guard?.decide();
    if (delivery) await closeDelivery(delivery, tally.summary, deps.signal?.aborted === true, deps.collect);
    await raw?.note();
    if (guard) tally.summary.guard = guard.result(true);
  } catch (error) {
    if (delivery) await stopDelivery(delivery, error, tally.summary);
    await Promise.all(tally.pendingWrites).catch(() => undefined);
    throw attachSummary(error, finalize());
  } finally {
    unwatch();
    await Promise.all(tally.pendingWrites);
  }
  return finalize();
}

/** What the row thread is given: the row path's settings (plain data) and the run's wall clock. */
function rowThreadData(settings: Settings, options: RunOptions, deps: RunDeps): RowThreadData {
  const { mapping, lookupPath, limits, format, delimiter, encoding, timezone, currency } = settings;
  const { allowNegative, refunds, earliestMs, futureMs } = settings;
  return {
    settings: {
      ...{ mapping, lookupPath, limits, format, delimiter, encoding, timezone, currency },
      ...{ allowNegative, refunds, earliestMs, futureMs, transform: undefined },
    },
    files: options.files,
    wallNow: (deps.wallClock ?? Date.now)(),
    wire: !options.check,
  };
}

/** Either signal: reading stops on a user's signal or on the guard's stop. */
function anySignal(user: AbortSignal | undefined, own: AbortSignal): AbortSignal {
  return user ? AbortSignal.any([user, own]) : own;
}

function attachSummary(error: unknown, summary: Summary): unknown {
  if (error instanceof Error) (error as Error & ErrorWithSummary).summary = summary;
  return error;
}
