// The run report page (issue 25): self-contained (CSP, no URL to fetch, no script), every text escaped,
// the chart's bars one per day and currency with heights in proportion, the same figures in a table.
import { describe, expect, it } from 'vitest';
import { buildRunReport, maskEmails } from '../../src/report/build-run-report.js';
import { renderRunReport } from '../../src/report/render-run-report.js';
import { axisScale } from '../../src/report/revenue-chart.js';
import type { RunReport } from '../../src/report/run-report.js';
import { emptySummary } from '../../src/report/summary.js';

function report(over: Partial<RunReport> = {}): RunReport {
  return {
    version: 1,
    runId: 7,
    startedAt: '2024-05-04T10:00:00.000Z',
    finishedAt: '2024-05-04T10:00:02.000Z',
    command: 'push',
    files: ['orders.csv'],
    counts: {
      rowsRead: 9,
      valid: 7,
      sent: 6,
      alreadySent: 1,
      skipped: 1,
      invalid: 1,
      rejected: 0,
      pending: 0,
    },
    skippedReasons: { 'Financial Status: pending': 1 },
    invalidReasons: { 'negative value': 1 },
    revenue: [
      { day: '2024-05-01', currency: 'EUR', records: 2, value: 150 },
      { day: '2024-05-01', currency: 'USD', records: 1, value: 40 },
      { day: '2024-05-02', currency: 'EUR', records: 1, value: 300 },
      { day: '2024-05-03', currency: 'EUR', records: 1, value: 75 },
      { day: '2024-05-03', currency: 'USD', records: 1, value: 200 },
    ],
    guard: null,
    rejectsFile: '/tmp/run 7/rejects.csv',
    exitCode: 1,
    ...over,
  };
}

/** The bars as drawn: day, currency, value and height. */
function bars(html: string) {
  return [
    ...html.matchAll(
      /<rect class="bar" data-day="([^"]+)" data-currency="([^"]+)" data-value="([^"]+)"[^>]* height="([^"]+)"/g,
    ),
  ].map((m) => ({ day: m[1], currency: m[2], value: Number(m[3]), height: Number(m[4]) }));
}

describe('renderRunReport', () => {
  it('draws one bar per day and currency, heights in proportion within a currency, and the same table', () => {
    const html = renderRunReport(report());
    const drawn = bars(html);
    expect(drawn.map((b) => `${b.day} ${b.currency} ${b.value}`)).toEqual([
      '2024-05-01 EUR 150',
      '2024-05-02 EUR 300',
      '2024-05-03 EUR 75',
      '2024-05-01 USD 40',
      '2024-05-03 USD 200',
    ]);
    const eur = drawn.filter((b) => b.currency === 'EUR');
    expect(eur[1]!.height / eur[0]!.height).toBeCloseTo(2, 1);
    expect(eur[1]!.height / eur[2]!.height).toBeCloseTo(4, 1);
    const usd = drawn.filter((b) => b.currency === 'USD');
    expect(usd[1]!.height / usd[0]!.height).toBeCloseTo(5, 1);
    expect(html).toContain('<td>2024-05-02</td><td>EUR</td><td class="n">1</td><td class="n">300</td>');
    expect(html).toContain('<tr data-count="sent"><th>sent</th><td class="n">6</td></tr>');
    expect(html).toContain('<tr data-count="alreadySent"><th>already sent</th><td class="n">1</td></tr>');
    expect(html).toContain('<td>Financial Status: pending</td><td class="n">1</td>');
    expect(html).toContain('href="file:///tmp/run%207/rejects.csv"');
  });

  it('is self-contained: a CSP that forbids every fetch, no script, no URL but the rejects file link', () => {
    const html = renderRunReport(report());
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    );
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    expect(html.match(/[a-z]+:\/\/[^\s"'<>)]*/gi)).toEqual(['file:///tmp/run%207/rejects.csv']);
  });

  it('escapes every text: a file name or a reason holding markup is shown, never run', () => {
    const html = renderRunReport(
      report({
        files: ['<img src=x onerror=alert(1)>.csv'],
        skippedReasons: { '<script>alert(1)</script>': 2 },
        invalidReasons: { 'bad "value" & <b>': 1 },
        command: 'push <i>',
        rejectsFile: '/tmp/"><script>x</script>.csv',
        revenue: [{ day: '2024-05-01', currency: '<b>', records: 1, value: 1 }],
      }),
    );
    expect(html).not.toMatch(/<script|<img|<b>|<i>/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;.csv');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('bad &quot;value&quot; &amp; &lt;b&gt;');
    expect(html).toContain('data-currency="&lt;b&gt;"');
  });

  it('escapes the figures too: a report from a tampered or foreign ledger holds no markup', () => {
    // The figures come from the ledger's JSON (runs.report): numbers when revimport wrote them, anything else not.
    const text = '<img src=x onerror=alert(1)>' as unknown as number;
    const stats = { count: text, median: 1, p90: 1, p99: 1, zeroShare: 0 };
    const html = renderRunReport(
      report({
        runId: text,
        exitCode: text,
        counts: { sent: text },
        skippedReasons: { paid: text },
        revenue: [{ day: '<img src=y>', currency: 'EUR', records: text, value: 1 }],
        guard: {
          verdict: 'passed',
          currencies: [{ currency: 'EUR', run: stats, history: stats }],
          findings: [],
          missingDays: [],
        },
      }),
    );
    expect(html).not.toMatch(/<img/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it("shows the guard's comparison: per currency run against history, the findings and the missing days", () => {
    const html = renderRunReport(
      report({
        guard: {
          verdict: 'stopped',
          currencies: [
            {
              currency: 'EUR',
              run: { count: 5, median: 4200, p90: 9000, p99: 9900, zeroShare: 0 },
              history: { count: 900, median: 42, p90: 90, p99: 99, zeroShare: 0.01 },
            },
            { currency: 'CHF', run: { count: 2, median: 10, p90: 10, p99: 10, zeroShare: 0.5 } },
          ],
          findings: [
            { kind: 'median-shift', currency: 'EUR', message: 'EUR median 4,200 is 100x the history <42>' },
          ],
          missingDays: ['2024-05-08'],
        },
      }),
    );
    expect(html).toContain('stopped: the run was stopped before sending');
    expect(html).toContain('<tr><th>EUR</th><td class="n">5</td><td class="n">4,200</td>');
    expect(html).toContain(
      '<td class="n">900</td><td class="n">42</td><td class="n">90</td><td class="n">99</td><td class="n">1.0%</td>',
    );
    expect(html).toContain('<th>CHF</th><td class="n">2</td>');
    expect(html).toContain('never delivered before');
    expect(html).toContain('<li>EUR median 4,200 is 100x the history &lt;42&gt;</li>');
    expect(html).toContain('2024-05-08');
  });

  it('says so when there is no revenue, no guard and no rejects file', () => {
    const html = renderRunReport(report({ revenue: [], rejectsFile: null }));
    expect(html).toContain('No revenue in this run.');
    expect(html).toContain('No comparison was made for this run.');
    expect(html).toContain('This run wrote no rejects file.');
    expect(bars(html)).toEqual([]);
  });
});

describe('axisScale', () => {
  it.each([
    [[150, 310, 75], { min: 0, max: 400, step: 100 }],
    [[0.3, 1.2], { min: 0, max: 1.5, step: 0.5 }],
    [[-20, 80], { min: -50, max: 100, step: 50 }],
    [[0], { min: 0, max: 1, step: 0.25 }],
  ])('%j -> %j', (values, scale) => {
    expect(axisScale(values)).toEqual(scale);
  });
});

describe('buildRunReport', () => {
  it('takes the counts and reasons from the Summary and masks the e-mails in every text', () => {
    const summary = {
      ...emptySummary(false),
      sent: 3,
      alreadySent: 2,
      skippedReasons: { 'Customer: jane.doe@example.com': 1 },
      errors: [{ reason: 'rejected by server', count: 2, examples: [] }],
    };
    const built = buildRunReport({
      runId: 4,
      startedAt: new Date('2024-05-04T10:00:00Z'),
      finishedAt: new Date('2024-05-04T10:00:01Z'),
      command: 'push',
      files: ['exports/bob@example.org.csv'],
      summary,
      revenue: [{ day: '2024-05-01', currency: 'EUR', records: 3, value: 9 }],
      rejectsFile: null,
      exitCode: 0,
    });
    expect(built.counts).toMatchObject({ sent: 3, alreadySent: 2, rejected: 0, pending: 0, retried: 0 });
    expect(built.skippedReasons).toEqual({ 'Customer: j***@example.com': 1 });
    expect(built.invalidReasons).toEqual({ 'rejected by server': 2 });
    expect(built.files).toEqual(['exports/b***@example.org.csv']);
    expect(JSON.stringify(built)).not.toContain('jane');
  });

  it("takes the value guard's comparison from the Summary, its sentences masked; none without one", () => {
    const guard = {
      verdict: 'stopped' as const,
      currencies: [{ currency: 'EUR', run: { count: 1, median: 5, p90: 5, p99: 5, zeroShare: 0 } }],
      findings: [
        { kind: 'new-currency' as const, currency: 'EUR', message: 'EUR is new (ask ops@example.com)' },
      ],
      missingDays: [],
    };
    const facts = {
      runId: 1,
      startedAt: new Date(0),
      finishedAt: new Date(0),
      command: 'push',
      files: [],
      revenue: [],
      rejectsFile: null,
      exitCode: 6,
    };
    // Summary.guard comes with the guard (issue 25); a variable, so this compiles before and after it lands.
    const guarded = { ...emptySummary(false), guard };
    const withGuard = buildRunReport({ ...facts, summary: guarded });
    expect(withGuard.guard?.verdict).toBe('stopped');
    expect(withGuard.guard?.findings[0]?.message).toBe('EUR is new (ask o***@example.com)');
    expect(buildRunReport({ ...facts, summary: emptySummary(false) }).guard).toBeNull();
  });

  it('maskEmails leaves text without an address as it is', () => {
    expect(maskEmails('Financial Status: pending')).toBe('Financial Status: pending');
    expect(maskEmails('to a@b.co and c.d@e.fr')).toBe('to a***@b.co and c***@e.fr');
  });
});
