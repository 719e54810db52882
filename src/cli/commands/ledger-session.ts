// One push or retry holding the ledger: take the run lock, open the ledger, record the run, release.

import type { Settings } from '../../config/settings.js';
import { UsageError } from '../../errors.js';
import { openLedger } from '../../ledger/ledger.js';
import { acquireLock } from '../../ledger/lock.js';
import { targetOf } from '../../ledger/target.js';
import type { RunDeps } from '../../pipeline/run.js';
import type { Summary } from '../../report/summary.js';
import { exitCodeFor } from '../exit-codes.js';

type LedgerHandle = NonNullable<RunDeps['ledger']>;

export async function withLedger(
  settings: Settings,
  run: { command: 'push' | 'retry'; files: string[] },
  wait: string | undefined,
  body: (ledger: LedgerHandle) => Promise<Summary>,
): Promise<Summary> {
  const waitSeconds = wait === undefined ? 0 : Number(wait);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
    throw new UsageError(`--wait must be a number of seconds, not "${wait}"`);
  }
  const release = await acquireLock(settings.statePath, { waitMs: waitSeconds * 1000 });
  try {
    const ledger = openLedger(settings.statePath);
    try {
      const targetId = ledger.target(targetOf(settings.baseUrl!, settings.apiKey!));
      const runId = ledger.beginRun({ command: run.command, files: run.files });
      const started = Date.now();
      let summary: Summary | undefined;
      try {
        summary = await body({ ledger, targetId, runId });
        return summary;
      } finally {
        ledger.finishRun(runId, {
          counts: summary ? countsOf(summary) : {},
          exitCode: summary ? exitCodeFor(summary) : -1,
          durationMs: Date.now() - started,
        });
      }
    } finally {
      ledger.close();
    }
  } finally {
    release();
  }
}

/** The counts a run records in the ledger's runs table (`revimport history`). */
const countKeys = [
  'rowsRead',
  'valid',
  'invalid',
  'skipped',
  'sent',
  'rejected',
  'duplicates',
  'alreadySent',
  'changed',
  'retried',
  'failed',
  'pending',
] as const;

function countsOf(summary: Summary): Record<string, number> {
  return Object.fromEntries(countKeys.map((key) => [key, summary[key]]));
}
