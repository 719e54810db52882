// Progress a person and a log can read (issue 20): on a terminal the spinner shows the share of the input
// read and an ETA, without colour under NO_COLOR; without one a long run prints a line every
// --progress-interval seconds on stderr. The first request is held until the output shows what is asserted,
// so nothing here depends on how fast the machine is.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useE2E } from '../helpers/e2e.js';
import { header, rowCells, writeExport } from '../helpers/exports.js';
import { hasScript, startInPty as startPty } from '../helpers/pty.js';
import { startCli } from '../helpers/spawn.js';

const key = 'e2e-progress-key-5be2';
const rows = 3000;
/** Any SGR sequence (colours, bold...): ESC [ params m (ESC built, as the linter refuses it in a literal). */
const sgr = new RegExp(`${String.fromCharCode(27)}\\[[\\d;]*m`);

const e2e = useE2E({ key, startFirst: true });
let release: () => void;
let input: string;
let env: Record<string, string>;

beforeEach(async () => {
  e2e.receiver.script({ until: new Promise<void>((resolve) => (release = resolve)) });
  // About 3 MB of 1 KB rows (an unmapped column pads them): far more than reading runs ahead of a held
  // request, so the share read stays below 100% until the test lets the first request through.
  input = path.join(e2e.work, 'export.csv');
  const pad = 'x'.repeat(1000);
  const lines = [`${header},Note`];
  for (let id = 1; id <= rows; id++) lines.push(`${rowCells(id).join(',')},${pad}`);
  writeFileSync(input, `${lines.join('\n')}\n`);
  env = e2e.env();
});
afterEach(async () => {
  release();
});

/** Resolves once `test` holds for the output so far; fails after 20 s with what was seen. */
async function until(output: () => string, test: (text: string) => boolean): Promise<string> {
  for (let waited = 0; waited < 20_000; waited += 50) {
    if (test(output())) return output();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not seen within 20 s; output so far:\n${output().slice(-2000)}`);
}

/** The CLI in a 120x30 pty (util-linux `script`), NO_COLOR=1 and nothing else turning colour off. */
function startInPty(args: string[]) {
  const colourless = { FORCE_COLOR: undefined, NO_COLOR: '1', ...env };
  const run = startPty(args, { columns: 120, rows: 30, env: colourless, term: 'xterm-256color' });
  return { output: run.output, done: run.done.then((result) => result.code) };
}

describe.skipIf(!hasScript)('on a terminal', () => {
  it('the spinner shows the share of the input read and an ETA, with no colour under NO_COLOR', async () => {
    const run = startInPty(['push', input, '-c', e2e.config, '--batch-size', '500']);
    const seen = await until(run.output, (text) => /\d+% read, ETA \d/.test(text));
    release();
    expect(await run.done).toBe(0);
    const share = Number(/(\d+)% read, ETA/.exec(seen)?.[1]);
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(100);
    expect(e2e.receiver.accepted).toHaveLength(rows);
    expect(run.output()).toContain('\u001b[?25l');
    expect(run.output()).not.toMatch(sgr);
  });
});

describe('without a terminal', () => {
  const progressLine = /^progress: \d+ rows read \((\d+)%\), \d+ delivered, \d+ rows\/s(, ETA \d.*)?$/;
  const progressLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('progress:'));

  it('a long run prints a progress line every --progress-interval seconds on stderr, --json on stdout', async () => {
    const run = startCli(['push', input, '-c', e2e.config, '--json', '--progress-interval', '0.2'], {
      cwd: e2e.work,
      env,
    });
    await until(
      () => run.stderr,
      (text) => progressLines(text).length >= 2,
    );
    release();
    const result = await run.done;
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ rowsRead: rows, sent: rows });
    const lines = progressLines(result.stderr);
    for (const line of lines) expect(line).toMatch(progressLine);
    // While the request was held, reading had stopped short of the end.
    expect(Number(progressLine.exec(lines[0]!)?.[1])).toBeLessThan(100);
  });

  it('none with --quiet, and none on a run shorter than the default interval', async () => {
    const quiet = startCli(['push', input, '-c', e2e.config, '--quiet', '--progress-interval', '0.1'], {
      cwd: e2e.work,
      env,
    });
    // Held for ten intervals: a line would have been due by then.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    release();
    const result = await quiet.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const small = writeExport(e2e.work, 'small.csv', { to: 40 });
    const short = startCli(['push', small, '-c', e2e.config], { cwd: e2e.work, env });
    const plain = await short.done;
    expect(plain.code, plain.stderr).toBe(0);
    expect(progressLines(plain.stderr)).toEqual([]);
  });
});
