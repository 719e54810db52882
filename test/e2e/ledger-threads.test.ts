// Each split of the ledger work between threads (REVIMPORT_LEDGER_WORKER, issue 14) delivers every record
// once, records the run, and finds everything sent on the next run: 0 (all on the main thread), the default
// (writes on a worker) and `lookups` (lookups on a second worker, several chunks ahead).
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { acceptedIds, pushEnv, range, repeats, writeExport } from '../helpers/exports.js';

const key = 'threads-key-7c21';
const e2e = useE2E({ key, startFirst: true });

// Node's own debug log (NODE_DEBUG=worker) says which workers the run started: 0, 1 and 2 ledger workers.
const ledgerWorkers = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => /WORKER \d+: \[\d+\] starts worker script \S*ledger-worker\.js/.test(line)).length;

it.each([
  ['0', 0],
  [undefined, 1],
  ['lookups', 2],
])(
  'REVIMPORT_LEDGER_WORKER=%s: every record once, the re-run sends nothing (%i ledger workers)',
  async (split, workers) => {
    const { work, state, config } = e2e;
    const file = writeExport(work, 'orders.csv', { to: 3000, invalid: [7] });
    const env = { ...pushEnv(e2e.receiver.url, key, state), REVIMPORT_LEDGER_WORKER: split };
    const flags = ['--json', '--batch-size', '100'];
    const first = await runCli(['push', file, '-c', config, ...flags], {
      cwd: work,
      env: { ...env, NODE_DEBUG: 'worker' },
    });
    expect(ledgerWorkers(first.stderr)).toBe(workers);
    expect(JSON.parse(first.stdout)).toMatchObject({ valid: 2999, sent: 2999, pending: 0, failed: 0 });
    expect(acceptedIds(e2e.receiver.accepted)).toEqual(range(1, 3000).filter((id) => id !== 7));
    expect(repeats(e2e.receiver.accepted).size).toBe(0);
    const again = await runCli(['push', file, '-c', config, ...flags], { cwd: work, env });
    expect(JSON.parse(again.stdout)).toMatchObject({ sent: 0, alreadySent: 2999 });
    const history = await runCli(['history', '--json', '--state', state], { cwd: work });
    expect(JSON.parse(history.stdout)).toHaveLength(2);
  },
);
