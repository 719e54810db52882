// The ledger and fault handling through the real CLI: re-runs, overlapping files, changed rows,
// seeded server faults, a server refusing some elements, and 413 splitting; the receiver's store is
// the oracle (every valid conversionId exactly once).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import {
  acceptedIds,
  defaultValue,
  expectedRecord,
  header,
  range,
  repeats,
  writeExport,
} from '../helpers/exports.js';

const key = 'e2e-delivery-key-8c1d';

const e2e = useE2E({ key });
const { start } = e2e;

function push(file: string, ...flags: string[]) {
  return runCli(['push', file, '-c', e2e.config, '--json', ...flags], {
    cwd: e2e.work,
    env: e2e.env(),
  });
}

describe('the ledger across runs', () => {
  it('a re-run of the same file sends nothing: every valid row is alreadySent', async () => {
    const r = await start();
    const file = writeExport(e2e.work, 'a.csv', { to: 120, invalid: [5, 60] });
    const first = await push(file);
    expect(first.code).toBe(1);
    const s1 = JSON.parse(first.stdout);
    expect([s1.valid, s1.invalid, s1.sent, s1.alreadySent]).toEqual([118, 2, 118, 0]);
    expect(r.accepted.map((a) => a.record)).toEqual(
      range(1, 120)
        .filter((id) => id !== 5 && id !== 60)
        .map((id) => expectedRecord(id)),
    );
    const requestsBefore = r.requests.length;

    // The two invalid rows were reported by the first run: known, no reason for exit 1 (issue 20).
    const again = await push(file);
    expect(again.code).toBe(0);
    const s2 = JSON.parse(again.stdout);
    expect([s2.valid, s2.sent, s2.alreadySent, s2.requests, s2.retried]).toEqual([118, 0, 118, 0, 0]);
    expect([s2.invalid, s2.knownInvalid]).toEqual([2, 2]);
    expect(r.requests).toHaveLength(requestsBefore);
  });

  it('an overlapping file (rows 1-600, then 301-900) sends only the new rows', async () => {
    const r = await start();
    const first = await push(writeExport(e2e.work, 'first.csv', { to: 600 }), '--batch-size', '200');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).sent).toBe(600);

    const second = await push(
      writeExport(e2e.work, 'second.csv', { from: 301, to: 900 }),
      '--batch-size',
      '200',
    );
    expect(second.code).toBe(0);
    const s = JSON.parse(second.stdout);
    expect([s.rowsRead, s.valid, s.sent, s.alreadySent]).toEqual([600, 600, 300, 300]);
    expect(acceptedIds(r.accepted)).toEqual(range(1, 900));
    expect(r.accepted.find((a) => a.record.conversionId === '750')?.record).toEqual(expectedRecord(750));
  });

  it('a changed row is reported "changed since delivered", not sent (exit 1), and sent with --resend', async () => {
    const r = await start();
    const file = writeExport(e2e.work, 'a.csv', { to: 50 });
    expect((await push(file)).code).toBe(0);
    const changedValue = (id: number) => (id === 17 ? '999.99' : defaultValue(id));
    const changed = writeExport(e2e.work, 'b.csv', { to: 50, valueFor: changedValue });

    const second = await push(changed);
    expect(second.code).toBe(1);
    const s = JSON.parse(second.stdout);
    expect([s.valid, s.sent, s.alreadySent, s.changed, s.requests]).toEqual([50, 0, 49, 1, 0]);
    const group = s.errors.find((g: { reason: string }) => g.reason === 'changed since delivered');
    expect(group.count).toBe(1);
    // Named by the source header the user knows, not the internal field name.
    expect(group.examples[0]).toMatchObject({ file: changed, line: 18, value: '17', column: 'Order ID' });
    expect(r.accepted).toHaveLength(50);

    const third = await push(changed, '--resend');
    expect(third.code).toBe(0);
    const t = JSON.parse(third.stdout);
    expect([t.sent, t.changed, t.alreadySent]).toEqual([50, 0, 0]);
    const copies = r.accepted.filter((a) => a.record.conversionId === '17').map((a) => a.record);
    expect(copies).toEqual([expectedRecord(17), expectedRecord(17, changedValue)]);
  });
});

describe('refunds after delivery', () => {
  const lowered = (by: Record<number, number>) => (id: number) =>
    by[id] === undefined ? defaultValue(id) : (Number(defaultValue(id)) - by[id]).toFixed(2);

  it('reports the difference, and with --refunds adjust sends it once as an adjustment record', async () => {
    const r = await start();
    expect((await push(writeExport(e2e.work, 'a.csv', { to: 30 }))).code).toBe(0);
    const original = expectedRecord(17);

    // Tomorrow's export: order 17 was refunded 5.00.
    const refunded = writeExport(e2e.work, 'b.csv', { to: 30, valueFor: lowered({ 17: 5 }) });
    const reported = await push(refunded);
    expect(reported.code).toBe(1);
    const s = JSON.parse(reported.stdout);
    expect([s.sent, s.changed, s.adjusted, s.changedDifference]).toEqual([0, 1, 0, { EUR: -5 }]);
    const [example] = s.errors.find(
      (g: { reason: string }) => g.reason === 'changed since delivered',
    ).examples;
    const newValue = Number((original.conversionValue - 5).toFixed(2));
    expect(example.message).toContain(`delivered at EUR ${original.conversionValue}, now ${newValue} (-5)`);
    expect(example.message).toContain('--refunds adjust');

    const adjusted = await push(refunded, '--refunds', 'adjust');
    expect(adjusted.code).toBe(0);
    const a = JSON.parse(adjusted.stdout);
    expect([a.sent, a.changed, a.adjusted, a.alreadySent, a.changedDifference]).toEqual([
      1,
      0,
      1,
      29,
      { EUR: -5 },
    ]);
    expect(r.accepted.slice(30).map((x) => x.record)).toEqual([
      { ...original, conversionValue: -5, conversionId: `17~adjust~${newValue}` },
    ]);
    expect(a.totals).toEqual({ EUR: -5 });

    // The same export again: the order stands at its new value, nothing is sent.
    const again = JSON.parse((await push(refunded, '--refunds', 'adjust')).stdout);
    expect([again.sent, again.changed, again.adjusted, again.alreadySent]).toEqual([0, 0, 0, 30]);

    // A further refund of 3.00 gets its own adjustment: the difference from what was last adjusted.
    const further = writeExport(e2e.work, 'c.csv', { to: 30, valueFor: lowered({ 17: 8 }) });
    const f = JSON.parse((await push(further, '--refunds', 'adjust')).stdout);
    expect([f.sent, f.adjusted, f.changedDifference]).toEqual([1, 1, { EUR: -3 }]);
    const newer = Number((original.conversionValue - 8).toFixed(2));
    expect(r.accepted.slice(31).map((x) => x.record)).toEqual([
      { ...original, conversionValue: -3, conversionId: `17~adjust~${newer}` },
    ]);
    // Every order once, plus the two adjustments: the CRM's sum is what the business kept.
    const sum = r.accepted.reduce(
      (total, x) => total + Math.round(Number(x.record.conversionValue) * 100),
      0,
    );
    const kept = range(1, 30).reduce(
      (total, id) => total + Math.round(Number(lowered({ 17: 8 })(id)) * 100),
      0,
    );
    expect(sum).toBe(kept);
  });
});

describe('seeded faults: every record exactly once', () => {
  const faultFlags = ['--batch-size', '50', '--concurrency', '4', '--retries', '8', '--max-retry-time', '60'];

  it.each([
    {
      name: 'honouring Idempotency-Key, with resets after accepting',
      honourIdempotencyKey: true,
      faults: { seed: 7, error5xx: 0.3, reset: 0.05, throttle429: 0.05, resetAfterAccept: 0.05 },
    },
    {
      name: 'NOT honouring Idempotency-Key, faults before processing only',
      honourIdempotencyKey: false,
      faults: { seed: 11, error5xx: 0.3, reset: 0.05, throttle429: 0.05 },
    },
  ])('$name', async ({ honourIdempotencyKey, faults }) => {
    const r = await start({ honourIdempotencyKey, faults });
    const result = await push(
      writeExport(e2e.work, 'a.csv', { to: 1000, invalid: [10, 500] }),
      ...faultFlags,
    );
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(1);
    const s = JSON.parse(result.stdout);
    const valid = range(1, 1000).filter((id) => id !== 10 && id !== 500);
    expect([s.valid, s.sent, s.failed, s.pending, s.rejected]).toEqual([998, 998, 0, 0, 0]);
    expect(acceptedIds(r.accepted)).toEqual(valid);
    expect(repeats(r.accepted).size).toBe(0);
    // The faults did happen: failed requests were retried.
    const failedRequests = r.requests.filter((q) => q.status === 0 || q.status >= 429).length;
    expect(failedRequests).toBeGreaterThan(5);
    expect(s.requests).toBe(r.requests.length);
    expect(s.requests).toBeGreaterThan(s.batches);
    for (const id of [1, 333, 1000]) {
      expect(r.accepted.find((a) => a.record.conversionId === String(id))?.record).toEqual(
        expectedRecord(id),
      );
    }
  });
});

describe('server refusals', () => {
  it('a batch with bad elements delivers the good ones and rejects only the bad (rejects file, 0600)', async () => {
    const r = await start({
      validate: (record) => {
        const id = String((record as { conversionId?: unknown }).conversionId);
        return id.endsWith('7') ? `conversionId ${id} is not allowed` : undefined;
      },
    });
    const file = writeExport(e2e.work, 'a.csv', { to: 200 });
    const rejects = path.join(e2e.work, 'rejects.csv');
    const result = await push(file, '--batch-size', '50', '--rejects', rejects);
    expect(result.code).toBe(1);
    const s = JSON.parse(result.stdout);
    const bad = range(1, 200).filter((id) => id % 10 === 7);
    expect([s.valid, s.sent, s.rejected, s.failed]).toEqual([200, 180, 20, 0]);
    expect(acceptedIds(r.accepted)).toEqual(range(1, 200).filter((id) => id % 10 !== 7));

    const group = s.errors.find((g: { reason: string }) => g.reason === 'rejected by server');
    expect(group.count).toBe(20);
    for (const example of group.examples) {
      expect(example.message).toBe(
        `HTTP 422: invalid elements: conversionId ${example.value} is not allowed`,
      );
      expect(example.line).toBe(Number(example.value) + 1);
      expect(example.file).toBe(file);
    }

    expect(statSync(rejects).mode & 0o777).toBe(0o600);
    const lines = readFileSync(rejects, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('Order ID,Visitor ID,Amount,Currency,Time,_raw,_file,_line,_reason,_run');
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows.map((cells) => Number(cells[0])).sort((a, b) => a - b)).toEqual(bad);
    for (const cells of rows) {
      const id = Number(cells[0]);
      expect(cells[6]).toBe(file);
      expect(cells[7]).toBe(String(id + 1));
      expect(cells.slice(8)).toEqual([
        `(record): HTTP 422: invalid elements: conversionId ${id} is not allowed`,
        '1',
      ]);
    }
  });

  it('a refused row goes to the rejects file with the cells it was read with: quotes, commas, a line break', async () => {
    // The item keeps the row's text and reads its cells again for the report (input/compact-row.ts).
    await start({
      validate: (record) =>
        (record as { conversionId?: unknown }).conversionId === '2'
          ? 'conversionId 2 is not allowed'
          : undefined,
    });
    const cells = [
      ['1', 'v-1', '10.00', 'EUR', '2024-05-01T00:00:01.000Z', 'plain'],
      ['2', 'v-2', '12.50', 'EUR', '2024-05-01T00:00:02.000Z', 'says "hi", twice\nand a line'],
      ['3', 'v-3', '13.00', 'EUR', '2024-05-01T00:00:03.000Z', ''],
    ];
    const quoted = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
    const file = path.join(e2e.work, 'notes.csv');
    writeFileSync(file, `${header},Note\n${cells.map((row) => row.map(quoted).join(',')).join('\r\n')}\r\n`);
    const rejects = path.join(e2e.work, 'rejects.csv');
    const result = await push(file, '--rejects', rejects);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: 3, sent: 2, rejected: 1 });
    const [head, row, ...rest] = parse(readFileSync(rejects, 'utf8')) as string[][];
    expect(rest).toEqual([]);
    expect(head!.slice(0, 6)).toEqual([...header.split(','), 'Note']);
    expect(row!.slice(0, 6)).toEqual(cells[1]);
    expect(row!.slice(7, 9)).toEqual([file, '3']);
  });

  it('413 (maxBatch 100, --batch-size 500): everything delivered; later batches are smaller', async () => {
    const r = await start({ maxBatch: 100 });
    const result = await push(
      writeExport(e2e.work, 'a.csv', { to: 1500 }),
      '--batch-size',
      '500',
      '--concurrency',
      '1',
    );
    expect(result.code).toBe(0);
    const s = JSON.parse(result.stdout);
    expect([s.sent, s.rejected, s.failed]).toEqual([1500, 0, 0]);
    expect(acceptedIds(r.accepted)).toEqual(range(1, 1500));
    expect(s.requests).toBe(r.requests.length);
    // The first body (500) is halved down to 63/62 (7 answers 413: 500, 250, 250, 125 x 4); every
    // later batch is formed at the size that got through.
    expect(r.requests[0]!.elements).toBe(500);
    expect(r.requests.filter((q) => q.status === 413).map((q) => q.elements)).toEqual([
      500, 250, 125, 125, 250, 125, 125,
    ]);
    const lastTooLarge = r.requests.findLastIndex((q) => q.status === 413);
    const later = r.requests.slice(lastTooLarge + 1);
    expect(later.every((q) => q.status === 200 && q.elements <= 63)).toBe(true);
    // The last 125 went out as 63 + 62, then the 1000 rows left at 63 a batch.
    expect(later.reduce((n, q) => n + q.elements, 0)).toBe(125 + 1000);
  });
});
