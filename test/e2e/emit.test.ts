// `push --check --emit <file.jsonl>` (issue 12, part 3): the records exactly as a push would send them,
// one JSON line each with its source file and line, written before anything is sent; and the same
// records are what a real push then delivers.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, runCli, tempDir } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';

const dir = path.join(root, 'fixtures/google-ads-style');
const input = path.join(dir, 'conversions.csv');
const config = path.join(dir, 'revimport.config.json');
const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as {
  records: Record<string, unknown>[];
};
const key = 'emit-test-key';

const e2e = useE2E({ key, startFirst: true, once: true });

describe('push --check --emit', () => {
  it('writes every record a push would send, with its file and line, and sends nothing', async () => {
    const work = tempDir();
    const out = path.join(work, 'records.jsonl');
    const result = await runCli(['push', input, '-c', config, '--check', '--emit', out, '--json'], {
      env: { REVIMPORT_API_KEY: key, REVIMPORT_BASE_URL: e2e.receiver.url },
    });
    const summary = JSON.parse(result.stdout);
    const lines = readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; line: number; record: Record<string, unknown> });
    expect(lines).toHaveLength(summary.valid);
    expect(lines.map((l) => l.record)).toEqual(expected.records);
    for (const l of lines) {
      expect(l.file).toBe(input);
      expect(readFileSync(input, 'utf8').split('\n')[l.line - 1]).toContain(String(l.record.conversionId));
    }
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(e2e.receiver.requests).toHaveLength(0);

    // What the file says is what a push delivers.
    const pushed = await runCli(['push', input, '-c', config, '--base-url', e2e.receiver.url], {
      env: { REVIMPORT_API_KEY: key, REVIMPORT_STATE: path.join(work, 'ledger.db') },
    });
    expect(pushed.code).toBe(1);
    expect(e2e.receiver.accepted.map((a) => a.record)).toEqual(lines.map((l) => l.record));
  });

  it('goes with --check only, and its folder must exist: exit 2 before anything is read', async () => {
    const work = tempDir();
    const without = await runCli(['push', input, '-c', config, '--emit', path.join(work, 'r.jsonl')], {
      env: { REVIMPORT_API_KEY: key, REVIMPORT_STATE: path.join(work, 'ledger.db') },
    });
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/--emit goes with --check/);
    const missing = path.join(work, 'no-such-folder', 'r.jsonl');
    const nowhere = await runCli(['push', input, '-c', config, '--check', '--emit', missing]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/cannot write the --emit file/);
    expect(existsSync(missing)).toBe(false);
  });
});
