// README "Running from cron": its crontab block goes through the real crontab(1) parser (Debian's cron,
// which .ci/run installs), in its dry-run mode `-n`, which checks the syntax and installs nothing (issue 20).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { codeBlocks, parseCronEntry, readmeSection } from '../helpers/readme.js';

function hasCrontab(): boolean {
  return spawnSync('sh', ['-c', 'command -v crontab'], { stdio: 'ignore' }).status === 0;
}

// Without Debian's crontab the test fails (CI installs it); a developer's machine without it may skip.
const skip = process.env.REVIMPORT_TEST_CRON === 'skip' && !process.env.CI && !hasCrontab();

/** crontab -n <file>: exit status and what it said. Nothing is written to any user's crontab. */
function checkCrontab(text: string): { status: number | null; output: string } {
  const file = path.join(tempDir('revimport-crontab-'), 'crontab');
  writeFileSync(file, text);
  const result = spawnSync('crontab', ['-n', file], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe.skipIf(skip)('the README crontab entry', () => {
  const blocks = codeBlocks(readmeSection('Running from cron'), 'cron');

  it('is one cron block with one entry and no line continuation', () => {
    expect(blocks).toHaveLength(1);
    const lines = (blocks[0] ?? '').split('\n').filter((line) => line.trim() !== '');
    const entries = lines.map(parseCronEntry).filter((entry) => entry !== undefined);
    expect(entries).toHaveLength(1);
    expect(lines.some((line) => line.endsWith('\\'))).toBe(false);
    // The cron line runs revimport from the PATH, never through npx (which asks the registry for the name).
    expect(entries[0]?.command).toMatch(/(^|\s)revimport push /);
    expect(entries[0]?.command).not.toMatch(/\bnpx\b/);
    // A bare % would end the command there: the rest would become its stdin.
    expect(entries[0]?.stdin).toBe('');
  });

  it('is accepted by crontab -n (Debian cron), which refuses a continued entry', () => {
    // The parser is the strict one: a backslash-continued entry, as the README once had, is refused.
    const continued = checkCrontab('15 * * * * echo one \\\n  two\n');
    expect(continued.status).not.toBe(0);
    expect(continued.output).toContain("can't install");
    const readmeEntry = checkCrontab(blocks[0] ?? '');
    expect(readmeEntry.output).toContain('successfully checked');
    expect(readmeEntry.status).toBe(0);
  });

  it('leaves the crontabs as they were (-n only checks)', () => {
    const list = () => spawnSync('crontab', ['-l'], { encoding: 'utf8' });
    const before = list();
    checkCrontab(blocks[0] ?? '');
    const after = list();
    expect(after.stdout).toBe(before.stdout);
    expect(after.status).toBe(before.status);
  });
});
