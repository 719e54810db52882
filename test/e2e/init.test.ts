// `revimport init` on header layouts from real exports (fixtures/init, each mirrors one: README there):
// the config either reads the sample with the right revenue column, id and full date and time (push
// --check totals as expected.json says), or init exits 1 naming exactly the fields to review. And on
// every bundled fixture, each suggestion init writes commented out still loads when uncommented.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { suggestionLines } from '../../src/config/write-yaml.js';
import { fixtureInputs, root, runCli, tempDir } from '../helpers/cli.js';
import { xlsxArchive } from '../helpers/zip.js';

interface Expected {
  mirrors: string;
  args: string[];
  exit: 0 | 1;
  headerLine?: number;
  /** The column (or joined columns) init chooses per field; null: none chosen. */
  fields: Record<string, string | string[] | null>;
  /**
   * The fields init marks for review (`link`: nothing to attribute by; `currency`: an ambiguous `$`;
   * `status`: a status column with money not received, kept out by a keep rule).
   */
  review: string[];
  /** Run with preset detection on (the layout is a preset's, re-saved). */
  withPreset?: boolean;
  /** conversionValue's `unit` in the written config (`minor`: integer cents). */
  unit?: 'minor';
  /** A text the review list must hold. */
  reviewText?: string;
  /** push --check's valid totals with the config as written. */
  totals?: Record<string, number>;
  /** Rows push --check skips with the config as written (a status that is not money received). */
  skipped?: number;
}

const base = path.join(root, 'fixtures/init');
const layouts = readdirSync(base, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** The column(s) a written field spec reads. */
function columnsOf(spec: unknown): string | string[] | null {
  if (spec === undefined || spec === null) return null;
  if (typeof spec === 'string') return spec;
  const object = spec as { column?: string; columns?: string[]; path?: string };
  return object.columns ?? object.column ?? object.path ?? null;
}

describe('revimport init on the header layouts of real exports (--no-preset unless the layout is a preset re-saved)', () => {
  it.each(layouts)('%s', async (name) => {
    const dir = path.join(base, name);
    const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
    const sample = fixtureInputs(dir)[0]!;
    const cwd = tempDir();
    const init = await runCli(
      ['init', sample, ...(expected.withPreset ? [] : ['--no-preset']), ...expected.args],
      {
        cwd,
      },
    );
    expect(init.stderr).toBe('');
    expect(init.code).toBe(expected.exit);
    if (expected.headerLine) expect(init.stdout).toContain(`header on line ${expected.headerLine}`);

    const text = readFileSync(path.join(cwd, 'revimport.config.yaml'), 'utf8');
    const config = parse(text);
    // The ledger is named, beside the config, and why (issue 19): a cron job running this config shares it.
    expect(config.state).toBe('revimport-ledger.db');
    expect(text).toMatch(
      /# .*whoever runs this config,\n# by hand or from cron under another user or HOME, uses this one ledger/,
    );
    for (const [field, column] of Object.entries(expected.fields)) {
      expect([field, columnsOf(config.mapping.fields?.[field])]).toEqual([field, column]);
    }
    expect(config.mapping.fields?.conversionValue?.unit).toBe(expected.unit);
    // Exactly the fields expected are marked for review in the table, and the review list is there
    // exactly when init exits 1.
    const marked = [...init.stdout.matchAll(/^(\w+) \(review\)/gm)].map((m) => m[1]);
    const fieldReviews = expected.review.filter((r) => !['link', 'currency', 'status'].includes(r));
    expect(marked.sort()).toEqual(fieldReviews.sort());
    expect(init.stdout.includes('review before a push')).toBe(expected.exit === 1);
    if (expected.review.includes('link'))
      expect(init.stdout).toMatch(/no conversion in it can be attributed|no visitor id and no e-mail column/);
    if (expected.reviewText) expect(init.stdout).toContain(expected.reviewText);
    expect(init.stdout.includes('money not received is not revenue')).toBe(
      expected.review.includes('status'),
    );
    if (expected.review.includes('currency'))
      expect(init.stdout).toMatch(/names "\$", which several currencies use/);

    if (expected.totals) {
      const check = await runCli(['push', sample, '--check', '--json'], { cwd });
      expect(check.stderr).not.toMatch(/revimport:/);
      const summary = JSON.parse(check.stdout);
      expect(summary.invalid).toBe(0);
      expect(summary.skipped).toBe(expected.skipped ?? 0);
      expect(summary.totals).toEqual(expected.totals);
      // The totals init printed are the ones a push sends.
      for (const [code, total] of Object.entries(expected.totals))
        expect(init.stdout).toMatch(new RegExp(`^  ${code} ${total} over`, 'm'));
    }
  });

  it('every layout README names the real export it mirrors', () => {
    const readme = readFileSync(path.join(base, 'README.md'), 'utf8');
    for (const name of layouts) expect(readme).toContain(`| ${name} |`);
  });
});

describe('the suggestions init writes commented out', () => {
  const presetDirs = readdirSync(path.join(root, 'fixtures/presets'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(root, 'fixtures/presets', d.name));
  // The first input of each folder (the european folder's config is YAML: skip it).
  const samples = [
    ...['european', 'google-ads-style', 'jsonl'].map((f) => path.join(root, 'fixtures', f)),
    ...presetDirs,
    ...layouts.map((name) => path.join(base, name)),
  ].map((dir) => fixtureInputs(dir).find((f) => !f.endsWith('.yaml'))!);

  it.each(samples.map((s) => [path.relative(root, s), s]))(
    '%s: each loads when uncommented',
    async (_name, sample) => {
      for (const extra of [[], ['--no-preset']]) {
        const cwd = tempDir();
        const init = await runCli(['init', sample!, ...extra], { cwd });
        expect(init.code === 0 || init.code === 1).toBe(true);
        const file = path.join(cwd, 'revimport.config.yaml');
        const text = readFileSync(file, 'utf8');
        const at = suggestionLines(text);
        // baseUrl and apiKeyFile at least are offered.
        expect(at.length).toBeGreaterThanOrEqual(2);
        await loadConfig({ cwd });
        for (const index of at) {
          const lines = text.split('\n');
          lines[index] = lines[index]!.replace('# ', '');
          writeFileSync(file, lines.join('\n'));
          await expect(loadConfig({ cwd }), lines[index]).resolves.toBeDefined();
        }
      }
    },
  );
});

describe('init on what a preset says about the sample', () => {
  it('shows the rows the preset skips, by reason', async () => {
    const init = await runCli(['init', path.join(root, 'fixtures/presets/shopify/orders_export.csv')], {
      cwd: tempDir(),
    });
    expect(init.stdout).toMatch(
      /skipped in the sample, not revenue by the mapping's rules: .*1 Financial Status: pending.*1 refunded in full/,
    );
  });

  it('refuses another report than the export it looks like (abandoned checkouts): exit 2, no config', async () => {
    const cwd = tempDir();
    const sample = path.join(root, 'fixtures/instants/shopify-abandoned/abandoned_checkouts_export.csv');
    const init = await runCli(['init', sample], { cwd });
    expect(init.code).toBe(2);
    expect(init.stderr).toMatch(/is not a Shopify orders export.*abandoned-checkouts export/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  // Issue 24 item 13: it said "no header row / wrong delimiter" and wrote an empty config.
  it('an Excel workbook renamed .csv: exit 2, says it is a workbook and how to save CSV, no config', async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, 'orders.csv'), xlsxArchive());
    const init = await runCli(['init', 'orders.csv'], { cwd });
    expect(init.code).toBe(2);
    expect(init.stderr).toMatch(/orders\.csv: is an Excel workbook \(\.xlsx\), not CSV or JSON-lines text/);
    expect(init.stderr).toMatch(/hint: open it in Excel.*save it as CSV/);
    expect(readdirSync(cwd)).toEqual(['orders.csv']);
    const push = await runCli(['push', 'orders.csv', '--check', '--preset', 'shopify'], { cwd });
    expect(push.code).toBe(2);
    expect(push.stderr).toMatch(/orders\.csv: is an Excel workbook/);
  });
});
