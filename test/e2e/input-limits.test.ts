// The caps on what one input may cost (issue 24), through the CLI: a run past one says which file, which
// limit and how to raise it, and ends with exit 2 (maxRowBytes above the header, maxGzipRatio, a file of
// NUL bytes) or goes on with a warning (maxRejects: the rows are counted, the file stops growing).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { simpleMapping } from '../helpers/settings.js';

const header = 'id,visitor,time,value,currency\n';
const row = (id: string) => `${id},v-1,2024-05-01T10:00:00Z,10.00,EUR\n`;

function setup(extra: Record<string, unknown> = {}) {
  const dir = tempDir();
  const config = path.join(dir, 'revimport.config.json');
  writeFileSync(config, JSON.stringify({ mapping: simpleMapping, ...extra }));
  return { dir, config };
}

describe('input limits through the CLI', () => {
  it('/dev/zero: exit 2 at once, named as NUL bytes, not "no header"', async () => {
    const { config } = setup();
    const result = await runCli(['push', '/dev/zero', '--format', 'csv', '-c', config, '--check']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'revimport: /dev/zero: its first 65536 bytes are all NUL (0x00): it is not a text export',
    );
  });

  it('a header longer than maxRowBytes: exit 2 naming the key; raised, the file reads', async () => {
    const wide = `${Array.from({ length: 400 }, (_, i) => `extra${i}`).join(',')},${header}`;
    const data = `${','.repeat(400)}${row('A-1')}`;
    const small = setup({ maxRowBytes: 2048 });
    const input = path.join(small.dir, 'wide.csv');
    writeFileSync(input, wide + data);
    const stopped = await runCli(['push', input, '-c', small.config, '--check']);
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toMatch(/wide\.csv:1: no header row: .* runs past 2048 bytes \(maxRowBytes\)/);
    expect(stopped.stderr).toMatch(/hint: .*raise maxRowBytes in the config/);

    const large = setup({ maxRowBytes: 8192 });
    const read = await runCli(['push', input, '-c', large.config, '--check', '--json']);
    expect(JSON.parse(read.stdout)).toMatchObject({ rowsRead: 1, valid: 1 });
    expect(read.code).toBe(0);
  });

  it('a gzip bomb: exit 2 naming maxGzipRatio and how to raise it', async () => {
    const { dir, config } = setup();
    const input = path.join(dir, 'bomb.csv.gz');
    // Blank lines inflate as a bomb does and cost the reader next to nothing past the 16 MiB it reads first.
    writeFileSync(input, gzipSync(header + row('A-1') + '\n'.repeat(20 * 1024 * 1024), { level: 9 }));
    const result = await runCli(['push', input, '-c', config, '--check', '--json']);
    expect(result.code).toBe(2);
    const summary = JSON.parse(result.stdout);
    expect(summary.error.message).toMatch(
      /bomb\.csv\.gz: the gzip data inflates more than 100 times \(maxGzipRatio\)/,
    );
    expect(summary.error.hint).toMatch(/raise maxGzipRatio in the config \(now 100\)/);
  });

  it('maxRejects: the rejects file stops at it, the summary counts every row, a warning says so', async () => {
    const { dir, config } = setup({ maxRejects: 5 });
    const input = path.join(dir, 'dupes.csv');
    writeFileSync(input, header + row('A-1').repeat(40));
    const rejects = path.join(dir, 'rejects.csv');
    const result = await runCli(['push', input, '-c', config, '--check', '--rejects', rejects, '--json']);
    expect(result.code).toBe(1);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ rowsRead: 40, valid: 1, invalid: 39 });
    expect(readFileSync(rejects, 'utf8').trim().split('\n')).toHaveLength(1 + 5);
    const warning = `${rejects}: the rejects file holds its limit of 5 rows (maxRejects); 34 more rejected rows are counted in the summary but not written (raise maxRejects in the config to keep them)`;
    expect(summary.warnings).toContain(warning);
    expect(result.stderr).toContain(`warning: ${warning}`);
  });
});
