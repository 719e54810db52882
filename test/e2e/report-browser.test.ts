// Issue 25: the run report opened in a real headless browser (Debian's chromium). A known push to a real
// receiver writes it (push --report); the rendered DOM holds the counts and one bar per day and currency,
// heights in proportion; the screenshot shows those bars in their colours (read from the decoded PNG, not
// compared pixel by pixel); and the page requests nothing, which the network log proves (a control page
// that does load an image shows the log would see it).
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seriesColours } from '../../src/report/revenue-chart.js';
import { chromiumPath, openPage } from '../helpers/chromium.js';
import { root, runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { header } from '../helpers/exports.js';
import { barsOfColour, decodePng, inkShare } from '../helpers/png.js';

const key = 'e2e-report-key-7c41';
const e2e = useE2E({ key, startFirst: true });

/** A known run: EUR on three local days (Europe/Berlin: 22:30Z on the 1st is the 2nd), USD on two, one invalid row. */
const rows = [
  '1,v-1,100.00,EUR,2024-05-01T08:00:00Z',
  '2,v-2,50.00,EUR,2024-05-01T12:00:00Z',
  '3,v-3,300.00,EUR,2024-05-01T22:30:00Z',
  '4,v-4,75.00,EUR,2024-05-03T10:00:00Z',
  '5,v-5,40.00,USD,2024-05-01T10:00:00Z',
  '6,v-6,200.00,USD,2024-05-03T10:00:00Z',
  '7,v-7,-5.00,EUR,2024-05-02T10:00:00Z',
];
const expectedBars = [
  { day: '2024-05-01', currency: 'EUR', value: 150 },
  { day: '2024-05-02', currency: 'EUR', value: 300 },
  { day: '2024-05-03', currency: 'EUR', value: 75 },
  { day: '2024-05-01', currency: 'USD', value: 40 },
  { day: '2024-05-03', currency: 'USD', value: 200 },
];
const [eurColour, usdColour] = seriesColours;

/** The known push, its report written; the file's name holds `<...>`, which the page must show as text. */
async function pushWithReport(): Promise<string> {
  chromiumPath();
  // Relative, as a person types it: the report shows the name as given.
  const file = 'orders <May 1-3>.csv';
  writeFileSync(path.join(e2e.work, file), `${header}\n${rows.join('\n')}\n`);
  const args = [
    'push',
    file,
    '-c',
    e2e.config,
    '--report',
    'report.html',
    '--rejects',
    'rejects.csv',
    '--json',
  ];
  const result = await runCli(args, { cwd: e2e.work, env: e2e.env() });
  expect(result.code, result.stderr).toBe(1);
  expect(e2e.receiver.accepted).toHaveLength(6);
  expect(result.stderr).toContain(`report: ${path.join(e2e.work, 'report.html')}`);
  return path.join(e2e.work, 'report.html');
}

function barsIn(dom: string) {
  const rects = [...dom.matchAll(/<rect class="bar" ([^>]*)>/g)].map((m) => m[1]!);
  const attr = (rect: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(rect)?.[1];
  return rects.map((r) => ({
    day: attr(r, 'data-day'),
    currency: attr(r, 'data-currency'),
    value: Number(attr(r, 'data-value')),
    height: Number(attr(r, 'height')),
  }));
}

describe('the run report in a headless browser', () => {
  it('renders the counts and one bar per day and currency, heights in proportion, requesting nothing', async () => {
    const report = await pushWithReport();
    const before = e2e.receiver.requests.length;
    const { dom, pageRequests } = await openPage(report, 'dom');
    expect(pageRequests).toEqual([]);
    expect(e2e.receiver.requests.length).toBe(before);

    const bars = barsIn(dom);
    expect(bars.map(({ day, currency, value }) => ({ day, currency, value }))).toEqual(expectedBars);
    for (const currency of ['EUR', 'USD']) {
      const own = bars.filter((b) => b.currency === currency);
      const tallest = own.reduce((a, b) => (b.value > a.value ? b : a));
      for (const bar of own) expect(bar.height / tallest.height).toBeCloseTo(bar.value / tallest.value, 2);
    }
    const count = (name: string) =>
      new RegExp(`<tr data-count="${name}"><th>[^<]*</th><td class="n">(\\d+)</td>`).exec(dom)?.[1];
    expect([
      count('rowsRead'),
      count('valid'),
      count('sent'),
      count('invalid'),
      count('alreadySent'),
    ]).toEqual(['7', '6', '6', '1', '0']);
    expect(dom).toContain('<td>negative value</td><td class="n">1</td>');
    // The file name is text: escaped in the DOM, no <may> element made of it.
    expect(dom).toContain('<dd data-fact="files">orders &lt;May 1-3&gt;.csv</dd>');
    expect(dom).not.toMatch(/<may/i);
    expect(dom).toContain(`href="file://${path.join(e2e.work, 'rejects.csv')}"`);
    expect(dom).not.toContain(key);
  });

  it('shows the bars in the screenshot: each currency in its colour, heights as drawn, on a page that is not blank', async () => {
    const report = await pushWithReport();
    const shot = path.join(e2e.work, 'report.png');
    const { pageRequests } = await openPage(report, { screenshot: shot, size: '820,1000' });
    expect(pageRequests).toEqual([]);
    const image = decodePng(readFileSync(shot));
    expect(image.width).toBe(820);
    expect(inkShare(image)).toBeGreaterThan(0.02);
    const wide = (colour: string) => barsOfColour(image, colour).filter((bar) => bar.width >= 30);
    // EUR 150, 300, 75 and USD 40, 200 drawn 180 px for the tallest of each: the bars' own pixel heights.
    const eur = wide(eurColour);
    expect(eur.map((b) => b.height)).toEqual([
      expect.closeTo(90, 0),
      expect.closeTo(180, 0),
      expect.closeTo(45, 0),
    ]);
    const usd = wide(usdColour);
    expect(usd.map((b) => b.height)).toEqual([expect.closeTo(36, 0), expect.closeTo(180, 0)]);
    // Days line up across the two panels: the 1st and the 3rd at the same x.
    expect(usd.map((b) => b.x)).toEqual([eur[0]!.x, eur[2]!.x]);
    if (process.env.REVIMPORT_WRITE_SCREENSHOT === '1')
      copyFileSync(shot, path.join(root, 'docs/report.png'));
  });

  it('would see a request the page made: the control page loads an image and the log holds it', async () => {
    const report = await pushWithReport();
    const control = path.join(e2e.work, 'control.html');
    const html = readFileSync(report, 'utf8').replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
    writeFileSync(control, html.replace('</body>', `<img src="${e2e.receiver.url}/probe.png"></body>`));
    const { pageRequests } = await openPage(control, 'dom');
    expect(pageRequests).toEqual([`${e2e.receiver.url}/probe.png`]);
  });
});
