// Spawns the real CLI (bin/revimport.js) asynchronously, so an in-process receiver can answer it.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { violatedIdentities } from '../../src/report/identities.js';
import { startCli } from './spawn.js';

export const root = path.resolve(import.meta.dirname, '../..');
export const bin = path.join(root, 'bin/revimport.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  stdin?: string | Buffer;
  /** Keep stdin open for the test to write to (`child.stdin`); default: `stdin`, then end. */
  openStdin?: boolean;
}

/** A clean environment: no colours, not a TTY, no REVIMPORT_* from the developer's shell. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    // PG*: a PostgreSQL ledger's libpq settings come from the test only.
    if (value !== undefined && !key.startsWith('REVIMPORT_') && !key.startsWith('PG')) env[key] = value;
  }
  // The one REVIMPORT_ setting a test run passes on: where the rows are read (`npm test` runs the e2e
  // tests a second time with the row thread on for every input: package.json "test:row-thread").
  if (process.env.REVIMPORT_ROW_THREAD) env.REVIMPORT_ROW_THREAD = process.env.REVIMPORT_ROW_THREAD;
  Object.assign(env, { NO_COLOR: '1', CI: '1', FORCE_COLOR: '0' });
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).done;
}

/**
 * The counts of a run's --json line add up (issue 20, src/report/identities.ts): every spawned run with
 * `--json` is checked, so each end-to-end test asserts them without saying so. Throws naming the violated
 * identities. Output that is no run's JSON object (a killed run, history, text) is left to the test.
 */
export function checkCounts(args: readonly string[], stdout: string): void {
  if (!args.includes('--json')) return;
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  if (lines.length !== 1) return;
  let line: unknown;
  try {
    line = JSON.parse(lines[0]!);
  } catch {
    return;
  }
  if (typeof line !== 'object' || line === null || !('rowsRead' in line)) return;
  const violated = violatedIdentities(line as Record<string, unknown>);
  if (violated.length > 0) {
    throw new Error(
      `revimport ${args.join(' ')}: the --json counts do not add up:\n  ${violated.join('\n  ')}\n${lines[0]}`,
    );
  }
}

export function tempDir(prefix = 'revimport-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** A --json summary's error examples as (line, column, reason), in line order: what fixtures' expected.json list. */
export function issuesOf(summary: {
  errors: { reason: string; examples: { line: number; column: string }[] }[];
}): { line: number; column: string; reason: string }[] {
  return summary.errors
    .flatMap((g) => g.examples.map((e) => ({ line: e.line, column: e.column, reason: g.reason })))
    .sort((a, b) => a.line - b.line);
}

/** Files of a fixture folder that are not inputs: its expectations, config, notes and the script computing them. */
const fixtureSupport = new Set(['expected.json', 'revimport.config.json', 'README.md', 'expected.py']);

/**
 * The input files of a fixture folder, sorted: every plain file but its expectations and config.
 * Sub-folders (`lookup/`: a second export the config reads; `layouts/`: other layouts for detection) are not inputs.
 */
export function fixtureInputs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isFile() && !fixtureSupport.has(d.name))
    .map((d) => path.join(dir, d.name))
    .sort();
}
