// A ledger that cannot be written mid-run (issue 14's review: a full disk was reported as an internal error,
// exit 70). The disk is made "full" for real: the push runs under a file-size limit (`ulimit -f`, with
// SIGXFSZ ignored so writes past it fail with EFBIG, as on a full disk), so the ledger's own writes fail
// part-way through. The run must stop with exit 4 and a plain message, and the next push, with room again,
// must deliver every record exactly once.
import { execFile } from 'node:child_process';
import { expect, it } from 'vitest';
import { bin, cleanEnv, runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { acceptedIds, pushEnv, range, repeats, writeExport } from '../helpers/exports.js';

const key = 'full-disk-key-5be0';
const e2e = useE2E({ key, startFirst: true });

/** The CLI under a file-size limit of `kib` KiB (POSIX sh counts `ulimit -f` in 512-byte blocks). */
function pushLimited(kib: number, args: string[], cwd: string, env: Record<string, string>) {
  const script = `trap '' XFSZ; ulimit -f ${kib * 2}; exec "$0" "$@"`;
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'sh',
      ['-c', script, process.execPath, bin, ...args],
      { cwd, env: cleanEnv(env) },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

it.each([[undefined], ['0']])(
  'REVIMPORT_LEDGER_WORKER=%s: a full disk mid-run is exit 4, and the next run delivers the rest once',
  async (split) => {
    const { work, state, config } = e2e;
    const file = writeExport(work, 'orders.csv', { to: 20_000 });
    const env = {
      ...pushEnv(e2e.receiver.url, key, state),
      ...(split ? { REVIMPORT_LEDGER_WORKER: split } : {}),
    };
    const args = ['push', file, '-c', config, '--json', '--batch-size', '200'];
    const full = await pushLimited(1024, args, work, env);
    expect(full.stderr).not.toMatch(/internal error/);
    expect(full.stderr).toMatch(/revimport: the ledger \(.*ledger\.db\) could not be written: /);
    expect(full.stderr).toContain('hint: fix that and run the same push again');
    expect(full.code).toBe(4);
    const line = JSON.parse(full.stdout);
    expect(line).toMatchObject({ exitCode: 4, error: { kind: 'delivery' } });
    const before = e2e.receiver.accepted.length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(20_000);
    // What the run did is still reported, though the ledger could not record the run, and the counts
    // are true (issue 19): what the receiver stored is `sent` (batches answered after the ledger failed
    // included), every valid row has one outcome, and rows the ledger never held are `notSent`, not
    // `pending`.
    expect(line.rowsRead).toBeGreaterThan(0);
    expect(line.sent).toBe(before);
    const outcomes = ['sent', 'rejected', 'failed', 'pending', 'notSent', 'alreadySent', 'changed'];
    expect(outcomes.reduce((sum, key) => sum + line[key], 0)).toBe(line.valid);
    expect(line.notSent).toBeGreaterThan(0);

    const again = await runCli(args, { cwd: work, env });
    expect(again.stderr).not.toContain('revimport:');
    expect(again.code).toBe(0);
    // What the ledger holds outstanding (left pending or failed, or answered without the ledger recording
    // it: `unrecorded`) is what the next run resends first, under its Idempotency-Key (this receiver
    // honours it: stored once).
    const next = JSON.parse(again.stdout);
    expect(next.retried).toBe(line.pending + line.failed + line.unrecorded);
    expect(next.retriedSent).toBe(next.retried);
    expect(next.sent).toBe(20_000 - before - line.pending - line.failed);
    expect(next.sent + next.alreadySent).toBe(next.valid);
    expect(acceptedIds(e2e.receiver.accepted)).toEqual(range(1, 20_000));
    expect(repeats(e2e.receiver.accepted).size).toBe(0);
    expect(full.stdout + full.stderr + again.stdout + again.stderr).not.toContain(key);
  },
);
