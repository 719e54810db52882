// Bad input never crashes a run, never sends a wrong value, never reaches the terminal raw (issue 24): the
// real CLI (`push --check --emit`, sometimes `init`) on generated exports (test/helpers/bad-input.ts). For
// every one: exit 0, 1 or 2 (never 70, never killed), within a generous time bound and 300 MiB of RSS; no
// null or non-finite value in --emit; rowsRead = valid + invalid + skipped + folded; no control character on
// stdout or stderr; a rejects.jsonl line keeps its JSON row's keys; init's config parses and runs.
//
// `npm test` runs REVIMPORT_PROPERTY_RUNS (default 40) cases from REVIMPORT_PROPERTY_SEED (default 24),
// deterministic; `npm run test:property` runs 300 from a random seed (printed on failure, with the case);
// REVIMPORT_PROPERTY_SHRINK=1 shrinks a failure to its smallest case.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { minorUnits } from '../../src/record/currency.js';
import { type Case, caseArb, configOf } from '../helpers/bad-input.js';
import { bytesOf, endlessStart, textOf } from '../helpers/bad-input-bytes.js';
import { bin, cleanEnv, root, tempDir } from '../helpers/cli.js';

const runs = Number(process.env.REVIMPORT_PROPERTY_RUNS ?? 40);
/** `random`: fast-check draws one (it prints it with a failure, to run that case again). */
const seedEnv = process.env.REVIMPORT_PROPERTY_SEED ?? '24';
const seed = seedEnv === 'random' ? undefined : Number(seedEnv);
/** Shrinking re-runs the CLI many times to find the smallest failing case: off unless asked for. */
const shrink = process.env.REVIMPORT_PROPERTY_SHRINK === '1';
/** Per CLI run: generous, a bound on "never ends", not a speed claim. */
const RUN_TIMEOUT_MS = 30_000;
const MAX_RSS_KIB = 300 * 1024;
/** C0 and C1 controls and DEL, but tab and line feed: what moves a terminal's cursor, colours or title. */
function controlAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f)) return i;
  }
  return -1;
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  maxRssKiB: number | undefined;
}

type Input =
  | { kind: 'none' }
  | { kind: 'bytes'; bytes: Buffer }
  | { kind: 'endless'; start: Buffer; piece: string };

/** The CLI under a heap cap (a runaway allocation is a crash, not a slow test), its peak RSS reported. */
function runBounded(args: string[], cwd: string, input: Input, closedStdout = false): Promise<Outcome> {
  const rssFile = path.join(cwd, `rss-${Date.now()}-${Math.random()}.json`);
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=256', '--import', path.join(root, 'bench/rss-reporter.js'), bin, ...args],
    { cwd, env: cleanEnv({ BENCH_RSS_FILE: rssFile }), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  if (closedStdout) child.stdout.destroy();
  else child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.on('error', () => {}); // EPIPE once the CLI has stopped reading: expected
  feed(child, input);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, RUN_TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const rss = existsSync(rssFile)
        ? (JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRssKiB: number })
        : undefined;
      resolve({ code, signal, stdout, stderr, timedOut, maxRssKiB: rss?.maxRssKiB });
    });
  });
}

/** Writes the input; an endless one, chunk by chunk as the CLI drains it, until the CLI exits. */
function feed(child: ChildProcess, input: Input): void {
  const stdin = child.stdin!;
  if (input.kind === 'none') return void stdin.end();
  if (input.kind === 'bytes') return void stdin.end(input.bytes);
  const chunk = Buffer.alloc(64 * 1024, input.piece);
  let open = true;
  child.once('exit', () => {
    open = false;
  });
  const pump = () => {
    while (open && !stdin.destroyed && stdin.write(chunk));
    if (open && !stdin.destroyed) stdin.once('drain', pump);
  };
  stdin.write(input.start);
  pump();
}

function expectNoControl(text: string, where: string): void {
  const at = controlAt(text);
  if (at < 0) return;
  const code = `U+${text.charCodeAt(at).toString(16).padStart(4, '0')}`;
  const context = JSON.stringify(text.slice(Math.max(0, at - 60), at + 20));
  expect.fail(`${code} on ${where} at ${at}: ${context}`);
}

function expectBounded(outcome: Outcome, what: string): void {
  const tail = outcome.stderr.slice(-600);
  expect(outcome.timedOut, `${what} did not end within ${RUN_TIMEOUT_MS / 1000} s; stderr: ${tail}`).toBe(
    false,
  );
  expect([0, 1, 2], `${what} exit ${outcome.code} (${outcome.signal}); stderr: ${tail}`).toContain(
    outcome.code,
  );
  // An uncaught exception exits with 1 too: its stack trace tells it from a run that ended as designed.
  const crash = /internal error|Unhandled|^\s+at .*:\d+:\d+\)?$/m.exec(outcome.stderr);
  if (crash)
    expect.fail(
      `${what} crashed: ${outcome.stderr.slice(Math.max(0, crash.index - 300), crash.index + 300)}`,
    );
  if (outcome.maxRssKiB !== undefined)
    expect(outcome.maxRssKiB, `${what} peak RSS KiB`).toBeLessThan(MAX_RSS_KIB);
  expectNoControl(outcome.stdout, `${what} stdout`);
  expectNoControl(outcome.stderr, `${what} stderr`);
}

/** No null, no non-finite number anywhere in an emitted record. */
function expectSendable(value: unknown, where: string): void {
  if (value === null) throw new Error(`null in --emit at ${where}`);
  if (typeof value === 'number') expect(Number.isFinite(value), `${value} at ${where}`).toBe(true);
  if (typeof value === 'object')
    for (const [k, v] of Object.entries(value)) expectSendable(v, `${where}.${k}`);
}

/**
 * Every emitted record is sendable, and its value exact: in minor units (cents; yen; fils) a safe integer,
 * else 9007199254740993 would go out as ...992 and 1e23 as 1.0000000000000001e+23.
 */
function checkEmit(file: string): void {
  if (!existsSync(file)) return;
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const { record } = JSON.parse(line) as { record: Record<string, unknown> };
    expectSendable(record, 'record');
    const value = record.conversionValue as number;
    expect(typeof value).toBe('number');
    const minor = Math.abs(value) * 10 ** minorUnits(String(record.conversionCurrency));
    expect(minor, `${value} ${record.conversionCurrency} in exact minor units`).toBeLessThanOrEqual(
      Number.MAX_SAFE_INTEGER,
    );
  }
}

function checkRejects(file: string, c: Case): void {
  if (!existsSync(file)) return;
  const max = c.limits.maxRejects ?? 100_000;
  if (c.rejects === 'csv') {
    // Cells may hold line breaks: count records, and see that the file parses as CSV.
    const records = parse(readFileSync(file), { relax_column_count: true }) as string[][];
    expect(records.length - 1, 'rows in rejects.csv').toBeLessThanOrEqual(max);
    return;
  }
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  expect(lines.length, 'rows in rejects.jsonl').toBeLessThanOrEqual(max);
  // Bytes that are not UTF-8 may land in a key (read as U+FFFD): the keys are known for the other encodings.
  const known = c.format === 'jsonl' && c.transport !== 'endless' && c.encoding !== 'bad utf-8';
  const keysByLine = known ? textOf(c).keysByLine : new Map<number, string[]>();
  for (const text of lines) {
    const line = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(expect.arrayContaining(['_file', '_line', '_reason']));
    // Every own key of the JSON row is kept (a `__proto__` key must not become the line's prototype); a
    // line that could not be read (too long, malformed) has its text in `_raw` instead.
    if (Object.hasOwn(line, '_raw')) continue;
    for (const key of keysByLine.get(line._line as number) ?? []) {
      if (!key.startsWith('_'))
        expect(Object.hasOwn(line, key), `rejects.jsonl line lacks key ${JSON.stringify(key)}`).toBe(true);
    }
  }
}

function inputOf(c: Case): { file: string | undefined; input: Input } {
  if (c.transport === 'endless')
    return { file: undefined, input: { kind: 'endless', start: endlessStart(c), piece: c.endless } };
  if (c.transport === 'stdin') return { file: undefined, input: { kind: 'bytes', bytes: bytesOf(c) } };
  return { file: `export.${c.format}${c.container === 'plain' ? '' : '.gz'}`, input: { kind: 'none' } };
}

/** One case; its folder is removed when it passes, kept (named in the failure) when it does not. */
async function checkCase(c: Case): Promise<void> {
  const dir = tempDir('revimport-bad-input-');
  try {
    await checkPush(c, dir);
  } catch (error) {
    if (error instanceof Error) error.message += ` (inputs and outputs kept in ${dir})`;
    throw error;
  }
  rmSync(dir, { recursive: true, force: true });
}

async function checkPush(c: Case, dir: string): Promise<void> {
  writeFileSync(path.join(dir, 'revimport.config.json'), JSON.stringify(configOf(c)));
  const { file, input } = inputOf(c);
  if (file) writeFileSync(path.join(dir, file), bytesOf(c));
  const emit = path.join(dir, 'emit.jsonl');
  const rejects = path.join(dir, `rejects.${c.rejects}`);
  const args = ['push', file ?? '-', '--check', '--emit', emit];
  if (!file) args.push('--format', c.format);
  if (c.json) args.push('--json');
  if (c.rejects !== 'none') args.push('--rejects', rejects);
  const outcome = await runBounded(args, dir, input, c.closedStdout);
  expectBounded(outcome, 'push --check');
  if (c.json && !c.closedStdout) {
    const {
      rowsRead,
      valid = 0,
      invalid = 0,
      skipped = 0,
      folded = 0,
    } = JSON.parse(outcome.stdout) as Record<string, number>;
    if (rowsRead !== undefined)
      expect(rowsRead, 'rowsRead = valid + invalid + skipped + folded').toBe(
        valid + invalid + skipped + folded,
      );
  }
  checkEmit(emit);
  if (c.rejects !== 'none') checkRejects(rejects, c);
  if (c.init && file) await checkInit(dir, file);
}

/** init's config is YAML that loads, and push --check runs with it. */
async function checkInit(dir: string, file: string): Promise<void> {
  const config = path.join(dir, 'init.config.yaml');
  expectBounded(await runBounded(['init', file, '-o', config, '--force'], dir, { kind: 'none' }), 'init');
  if (!existsSync(config)) return;
  const yaml = readFileSync(config, 'utf8');
  expectNoControl(yaml, 'init config');
  expect(parseDocument(yaml).errors.map((e) => e.message)).toEqual([]);
  const pushed = await runBounded(['push', file, '-c', config, '--check', '--json'], dir, { kind: 'none' });
  expectBounded(pushed, 'push --check with init config');
}

describe('the CLI on generated bad input (property)', () => {
  it(`${runs} cases from seed ${seed ?? 'random'}`, {
    timeout: Math.max(120_000, runs * 2 * RUN_TIMEOUT_MS),
  }, async () => {
    await fc.assert(fc.asyncProperty(caseArb, checkCase), { numRuns: runs, seed, endOnFailure: !shrink });
  });
});
