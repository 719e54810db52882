// Records delivered and settled in the batch journal but not yet merged into the records table (a run
// killed during its final merge) must still count as sent: a push of the same rows sends nothing, even
// when another unfinished run row names a live process (a dead run's pid reused), which makes the
// merge-if-idle at open skip.
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/ledger.js';
import { targetOf } from '../../src/ledger/target.js';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { pushEnv, writeExport } from '../helpers/exports.js';

const key = 'e2e-journal-unmerged-key';
const e2e = useE2E({ key });

describe('a journal settled but not merged', () => {
  it('is found by the next push: nothing is sent twice', async () => {
    const { work, state, config } = e2e;
    const file = writeExport(work, 'orders.csv', { to: 20 });
    const receiver = await e2e.start();

    // The state a push leaves when killed after settling its batches, before its merge. Its run row
    // names this (live) test process, as a crashed run's reused pid would.
    const ledger = openLedger(state);
    try {
      const target = ledger.target(targetOf(receiver.url, key));
      const run = ledger.beginRun({ command: 'push', files: ['orders.csv'] });
      const entries = Array.from({ length: 20 }, (_, i) => ({
        key: `id:${i + 1}`,
        contentHash: 'from-an-earlier-run',
        currency: 'EUR',
        value: 1,
      }));
      for (let i = 0; i < entries.length; i += 5) {
        ledger.settleBatch(ledger.journalBatch(target, run, `key-${i}`, entries.slice(i, i + 5), '[]'));
      }

      const push = await runCli(['push', file, '-c', config, '--json'], {
        cwd: work,
        env: pushEnv(receiver.url, key, state),
      });
      expect(receiver.accepted).toEqual([]);
      expect(JSON.parse(push.stdout)).toMatchObject({ sent: 0 });
    } finally {
      ledger.close();
    }
  });
});
