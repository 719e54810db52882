// Every preset's fixture, pushed for real to the receiver, must deliver exactly the records in its
// expected.json (computed by hand from the platform's rules) and reject exactly the rows listed there.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureInputs, issuesOf, root, runCli, tempDir } from '../helpers/cli.js';
import { pushFolder, useE2E } from '../helpers/e2e.js';

interface Expected {
  records: Record<string, unknown>[];
  invalid: { line: number; column: string; reason: string }[];
  /** Rows a preset's policy leaves out (failed payments, unpaid orders, refunded in full...). */
  skipped?: number;
  skippedReasons?: Record<string, number>;
}

const presetsDir = path.join(root, 'fixtures/presets');
const cases = readdirSync(presetsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => {
    const dir = path.join(presetsDir, d.name);
    const layouts = path.join(dir, 'layouts');
    return {
      preset: d.name,
      dir,
      inputs: fixtureInputs(dir),
      layouts: existsSync(layouts) ? fixtureInputs(layouts) : [],
    };
  });

/** The config moves to a temporary folder: its lookup file (relative to the fixture) becomes absolute. */
function withLookupFrom(dir: string, mapping: Record<string, unknown>): Record<string, unknown> {
  const lookup = mapping.lookup as { file: string } | undefined;
  return lookup ? { ...mapping, lookup: { ...lookup, file: path.resolve(dir, lookup.file) } } : mapping;
}

const key = 'preset-test-key';
const e2e = useE2E({ key, startFirst: true, once: true });

describe.each(cases)('preset $preset', ({ preset, dir, inputs, layouts }) => {
  const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;

  it('delivers exactly the expected records and rejects exactly the expected rows', async () => {
    const before = e2e.receiver.accepted.length;
    const config = path.join(dir, 'revimport.config.json');
    const result = await pushFolder(e2e, key, inputs, config, preset);
    const summary = JSON.parse(result.stdout);
    expect(issuesOf(summary)).toEqual([...expected.invalid].sort((a, b) => a.line - b.line));
    expect(e2e.receiver.accepted.slice(before).map((a) => a.record)).toEqual(expected.records);
    expect(summary.sent).toBe(expected.records.length);
    expect(summary.skipped).toBe(expected.skipped ?? 0);
    expect(summary.skippedReasons).toEqual(expected.skippedReasons ?? {});
    expect(result.code).toBe(expected.invalid.length > 0 ? 1 : 0);
  });

  it('is detected from the header when the config names no preset', async () => {
    const config = JSON.parse(readFileSync(path.join(dir, 'revimport.config.json'), 'utf8'));
    const { preset: _named, ...mapping } = withLookupFrom(dir, config.mapping);
    const unnamed = path.join(e2e.work, `${preset}-detect.json`);
    // Only the fields the preset cannot know (e.g. serviceId) are left: they override the detected preset.
    writeFileSync(unnamed, JSON.stringify({ ...config, mapping }));
    const result = await runCli(['push', ...inputs, '-c', unnamed, '--check', '--json']);
    const summary = JSON.parse(result.stdout);
    expect(Object.values(summary.presets)).toEqual(inputs.map(() => preset));
    expect(summary.valid).toBe(expected.records.length);
  });

  // Other layouts of the same export (older headers, another language, tabs): detected as this preset
  // from the header alone, and read without an invalid row.
  it.each(layouts)('detects the layout %s', async (layout) => {
    // layouts/revimport.config.json, when there, replaces the fixture's config: google-ads' leads upload has no
    // Visitor ID column for the fixture's serviceId.
    const own = path.join(dir, 'layouts', 'revimport.config.json');
    const config = JSON.parse(
      readFileSync(existsSync(own) ? own : path.join(dir, 'revimport.config.json'), 'utf8'),
    );
    const { preset: _named, ...mapping } = withLookupFrom(dir, config.mapping);
    const unnamed = path.join(e2e.work, `${preset}-${path.basename(layout)}.json`);
    writeFileSync(unnamed, JSON.stringify({ ...config, mapping }));
    const result = await runCli(['push', layout, '-c', unnamed, '--check', '--json']);
    const summary = JSON.parse(result.stdout);
    expect(summary.presets).toEqual({ [layout]: preset });
    expect(summary.invalid).toBe(0);
    expect(summary.valid).toBeGreaterThan(0);
  });
});

// Issue 21 item 3: look-alikes of real exports found in public repositories (each fixture's README names the
// repository and path). Pushed as a user would, with no config (or only the link the file lacks): detected, and
// read to the computed totals.
describe('real export layouts', () => {
  it.each([
    {
      // Lemon Squeezy's dashboard export: no status, no created_at (date_utc), total empty on a free order.
      file: 'lemonsqueezy/layouts/orders-export.csv',
      preset: 'lemonsqueezy',
      valid: 3,
      skippedReasons: { 'total: (empty)': 2 },
      totals: { USD: 421.35 },
    },
    {
      // Gumroad's 2021 export: Gumroad Fee ($), no Tip ($), no Free trial purchase?, no Totals row.
      file: 'gumroad/layouts/Sales-2021.csv',
      preset: 'gumroad',
      valid: 2,
      skippedReasons: { 'nothing captured': 1, 'Fully Refunded?: 1': 1 },
      totals: { USD: 38 },
    },
    {
      // Microsoft's upload results: Click Id, hashes, Status, TimeZone=+0000 without `;`, goals without a value.
      // Linked by a Visitor ID column added to the copy (the file has no link of its own).
      file: 'microsoft-ads/layouts/june_result.csv',
      config: 'microsoft-ads/layouts/revimport.config.json',
      preset: 'microsoft-ads',
      valid: 3,
      skippedReasons: { 'Conversion Value: (empty)': 2 },
      totals: { USD: 1429.5 },
    },
  ])('reads $file', async ({ file, config, preset, valid, skippedReasons, totals }) => {
    const input = path.join(presetsDir, file);
    const own = config ? ['-c', path.join(presetsDir, config)] : [];
    const result = await runCli(['push', input, ...own, '--check', '--json'], { cwd: tempDir() });
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.presets).toEqual({ [input]: preset });
    expect({ valid: summary.valid, invalid: summary.invalid }).toEqual({ valid, invalid: 0 });
    expect(summary.skippedReasons).toEqual(skippedReasons);
    expect(summary.totals).toEqual(totals);
  });
});
