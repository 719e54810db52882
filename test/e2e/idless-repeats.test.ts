// Rows without a conversionId are known to the ledger by their content (record-key.ts). Identical rows of one
// export are as many conversions as the export says: the nth is keyed as the nth occurrence, so all are sent wherever
// they sit (one batch, batches apart) and a later run finds each sent. Files pushed together whose rows overlap
// send the overlap once, as two runs would. The receiver stores every element it gets (no Idempotency-Key honoured).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';

const key = 'e2e-idless-repeats-key';
const e2e = useE2E({ key, receiver: { honourIdempotencyKey: false } });

const config = {
  timezone: 'Europe/Berlin',
  mapping: {
    fields: {
      conversionEmail: 'email',
      conversionDatetime: { column: 'date', format: 'yyyy-MM-dd HH:mm:ss' },
      conversionValue: 'value',
      conversionCurrency: 'currency',
    },
  },
};

/** Row n's cells: a distinct email and second for each n. */
function row(n: number): string {
  const second = String(n % 60).padStart(2, '0');
  const minute = String(Math.floor(n / 60) % 60).padStart(2, '0');
  return `${10 + (n % 7)}.00,EUR,2026-11-01 10:${minute}:${second},buyer${n}@example.com`;
}

function writeCsv(dir: string, name: string, lines: string[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, `value,currency,date,email\n${lines.join('\n')}\n`);
  return file;
}

/** What `stored` lists for row n. */
const storedLine = (n: number): string => `buyer${n}@example.com ${10 + (n % 7)}`;

/** Stored records as "email value" lines, sorted, copies kept. */
function stored(accepted: readonly { record: Record<string, unknown> }[]): string[] {
  return accepted.map(({ record }) => `${record.conversionEmail} ${record.conversionValue}`).sort();
}

describe('identical rows without a conversionId', () => {
  it('are each sent once, in one batch or 300 rows apart, and not again by the next run', async () => {
    const { work } = e2e;
    const receiver = await e2e.start();
    writeFileSync(path.join(work, 'revimport.config.json'), JSON.stringify(config));
    // Row 1 twice at once (one batch of 50), row 2 again 300 rows later (after batches sent and settled).
    const lines = [row(1), row(1), ...Array.from({ length: 300 }, (_, i) => row(i + 2)), row(2)];
    const file = writeCsv(work, 'orders.csv', lines);
    const push = (...files: string[]) =>
      runCli(['push', ...files, '--batch-size', '50', '--json'], { cwd: work, env: e2e.env() });

    const first = await push(file);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ valid: 303, invalid: 0, sent: 303 });
    const all = [1, 1, ...Array.from({ length: 300 }, (_, i) => i + 2), 2].map(storedLine).sort();
    expect(stored(receiver.accepted)).toEqual(all);

    const again = await push(file);
    expect(JSON.parse(again.stdout)).toMatchObject({ sent: 0, alreadySent: 303 });

    // A later export with row 5 twice (the first export had it once) and a new row: the second copy and the
    // new row are sent.
    const later = writeCsv(work, 'later.csv', [row(5), row(5), row(400)]);
    const third = await push(later);
    expect(JSON.parse(third.stdout)).toMatchObject({ sent: 2, alreadySent: 1, duplicates: 0 });
    expect(stored(receiver.accepted)).toEqual([...all, storedLine(5), storedLine(400)].sort());
  });

  it('in overlapping files of one run are sent as often as the file holding the most copies', async () => {
    const { work } = e2e;
    const receiver = await e2e.start();
    writeFileSync(path.join(work, 'revimport.config.json'), JSON.stringify(config));
    // Days 1-3 and days 2-4 pushed together (one batch), row 1 twice in the first file and three times in the second.
    const a = writeCsv(work, 'a.csv', [row(1), row(1), row(2), row(3)]);
    const b = writeCsv(work, 'b.csv', [row(2), row(1), row(3), row(1), row(4), row(1)]);
    const result = await runCli(['push', a, b, '--json'], { cwd: work, env: e2e.env() });
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ valid: 6, duplicates: 4, sent: 6 });
    const examples = summary.errors.find((e: { reason: string }) => e.reason === 'duplicate').examples;
    expect(examples.map((e: { file: string; line: number }) => `${path.basename(e.file)}:${e.line}`)).toEqual(
      ['b.csv:2', 'b.csv:3', 'b.csv:4', 'b.csv:5'],
    );
    expect(examples[0].message).toMatch(/same conversion as a row of an earlier file of this run/);
    expect(stored(receiver.accepted)).toEqual([1, 1, 1, 2, 3, 4].map(storedLine).sort());

    // Each file again, alone: everything is sent already.
    for (const file of [a, b]) {
      const again = await runCli(['push', file, '--json'], { cwd: work, env: e2e.env() });
      expect(JSON.parse(again.stdout)).toMatchObject({ sent: 0 });
    }
    expect(receiver.accepted).toHaveLength(6);
  });
});
