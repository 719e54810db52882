// The README's quick start, for real: each bundled fixture through `--check` and through a push to the
// receiver on 127.0.0.1, compared field by field with the expected records written by hand.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversionRecordSchema } from '../../src/record/schema.js';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { root, runCli, tempDir } from '../helpers/cli.js';

interface Expected {
  records: Record<string, unknown>[];
  invalid: { line: number; column: string; reason: string }[];
  totals: Record<string, number>;
  /** Warnings the run prints for the file (offsets that contradict the configured zone). */
  warnings?: number;
}

const fixtures = [
  { name: 'google-ads-style', input: 'conversions.csv', config: 'revimport.config.json' },
  { name: 'european', input: 'umsaetze.csv', config: 'revimport.config.yaml' },
  { name: 'jsonl', input: 'events.jsonl', config: 'revimport.config.json' },
];

const key = 'test-key-3f9a';
const byId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  String(a.conversionId).localeCompare(String(b.conversionId));

let receiver: Receiver;
let work: string;
beforeEach(async () => {
  receiver = await startReceiver({ apiKey: key });
  work = tempDir();
});
afterEach(async () => {
  await receiver.close();
});

describe.each(fixtures)('fixture $name', ({ name, input, config }) => {
  const dir = path.join(root, 'fixtures', name);
  const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
  const file = path.join(dir, input);
  const configArgs = ['-c', path.join(dir, config)];

  it('--check reports every invalid row with line, column and reason, and sends nothing', async () => {
    // The bundled configs point at the local receiver: with a key, --check is about the data alone.
    const result = await runCli(['push', file, '--check', '--json', '-c', path.join(dir, config)], {
      env: { REVIMPORT_STATE: path.join(work, 'never.db'), REVIMPORT_API_KEY: key },
    });
    // Not a TTY: no spinner, one line per file on stderr, after the file's warnings (offsets that
    // contradict the configured zone).
    const lines = result.stderr.split('\n');
    expect(lines.filter((line) => line.startsWith(`warning: ${file}: `))).toHaveLength(
      expected.warnings ?? 0,
    );
    expect(lines.filter((line) => !line.startsWith('warning: '))).toEqual([
      `${file}: ${expected.records.length + expected.invalid.length} rows`,
      '',
    ]);
    const summary = JSON.parse(result.stdout);
    expect(summary.valid).toBe(expected.records.length);
    expect(summary.invalid).toBe(expected.invalid.length);
    expect(summary.rowsRead).toBe(expected.records.length + expected.invalid.length);
    expect(summary.totals).toEqual(expected.totals);
    const seen = summary.errors
      .flatMap((g: { reason: string; examples: { line: number; column: string; file: string }[] }) =>
        g.examples.map((e) => ({ line: e.line, column: e.column, reason: g.reason, file: e.file })),
      )
      .sort((a: { line: number }, b: { line: number }) => a.line - b.line);
    expect(seen).toEqual(expected.invalid.map((i) => ({ ...i, file })));
    expect(result.code).toBe(1);
    expect(receiver.requests).toHaveLength(0);
    expect(() => readFileSync(path.join(work, 'never.db'))).toThrow();
  });

  it('--check without a key reports the rows, then that a real push would stop (exit 2)', async () => {
    const result = await runCli(['push', file, '--check', '-c', path.join(dir, config)]);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(`${expected.invalid.length} invalid (nothing sent)`);
    expect(result.stderr).toContain('revimport: a real push would stop: no API key');
  });

  it('push delivers exactly the expected records, and a re-run sends nothing', async () => {
    const state = path.join(work, 'ledger.db');
    const first = await runCli(['push', file, ...configArgs, '--base-url', receiver.url, '--json'], {
      env: { REVIMPORT_API_KEY: key, REVIMPORT_STATE: state },
    });
    expect(first.code).toBe(1);
    const summary = JSON.parse(first.stdout);
    expect(summary.sent).toBe(expected.records.length);
    expect(summary.totals).toEqual(expected.totals);
    const got = receiver.accepted.map((a) => a.record).sort(byId);
    expect(got).toEqual([...expected.records].sort(byId));
    for (const record of got) expect(conversionRecordSchema.safeParse(record).success).toBe(true);

    const request = receiver.requests[0]!;
    expect(request.headers['x-api-key']).toBe(key);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/^revimport\/\d+\.\d+\.\d+$/);
    expect(request.headers['idempotency-key']).toMatch(/^[0-9a-f]{64}$/);
    expect(first.stdout + first.stderr).not.toContain(key);

    const again = await runCli(['push', file, ...configArgs, '--base-url', receiver.url, '--json'], {
      env: { REVIMPORT_API_KEY: key, REVIMPORT_STATE: state },
    });
    const second = JSON.parse(again.stdout);
    expect(second.alreadySent).toBe(expected.records.length);
    expect(second.sent).toBe(0);
    expect(second.requests).toBe(0);
    expect(receiver.accepted).toHaveLength(expected.records.length);
  });
});
