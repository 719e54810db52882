// The run report as one self-contained HTML page (issue 25): inline CSS, an inline SVG chart, no script and
// no URL to fetch (the CSP forbids any), so it opens the same offline, from a mail or an archive, years later.
// Pure: a RunReport in, the page out; every text escaped.
import { pathToFileURL } from 'node:url';
import { byCodeUnits } from '../text-order.js';
import { escapeHtml } from './html-text.js';
import { formatAmount, renderRevenueChart, seriesOf } from './revenue-chart.js';
import type { GuardComparison, RunReport, ValueStats } from './run-report.js';

const style = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2125;background:#fff;margin:24px auto;max-width:800px;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
dl.run{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0}dl.run dt{color:#57606a}dl.run dd{margin:0}
table{border-collapse:collapse;margin:8px 0}th,td{padding:3px 10px;border-bottom:1px solid #eaeef2;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}caption{text-align:left;color:#57606a;padding-bottom:4px}
.chart .axis{stroke:#57606a}.chart .grid{stroke:#eaeef2}.chart text{font-size:11px;fill:#57606a}
.chart .panel-title{font-size:13px;font-weight:600}.legend span{display:inline-block;margin-right:14px}
.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px}
.exit-0{color:#2b8a3e}.exit-bad{color:#c92a2a}.verdict-stopped{color:#c92a2a;font-weight:600}.empty{color:#57606a}
`;

export function renderRunReport(report: RunReport): string {
  const title = report.runId === null ? `revimport ${report.command}` : `revimport run ${report.runId}`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title><style>${style}</style></head><body>`,
    `<h1>${escapeHtml(title)}</h1>`,
    runFacts(report),
    revenueSection(report),
    countsSection(report),
    reasonsSection('Skipped, by reason', 'skipped', report.skippedReasons),
    reasonsSection('Invalid, refused or failed, by reason', 'invalid', report.invalidReasons),
    guardSection(report.guard),
    rejectsSection(report.rejectsFile),
    '</body></html>',
    '',
  ].join('\n');
}

function runFacts(report: RunReport): string {
  const exit = report.exitCode;
  const exitCell =
    exit === null
      ? 'not finished'
      : `<span class="${exit === 0 ? 'exit-0' : 'exit-bad'}">${escapeHtml(String(exit))}</span>`;
  const files = report.files.length === 0 ? '(none)' : report.files.map(escapeHtml).join('<br>');
  const rows: [string, string][] = [
    ['run', report.runId === null ? '(not recorded: --check)' : escapeHtml(String(report.runId))],
    ['command', escapeHtml(report.command)],
    ['started', escapeHtml(report.startedAt)],
    ['finished', escapeHtml(report.finishedAt)],
    ['files', files],
    ['exit code', exitCell],
  ];
  return `<dl class="run">${rows.map(([k, v]) => `<dt>${k}</dt><dd data-fact="${k}">${v}</dd>`).join('')}</dl>`;
}

function revenueSection(report: RunReport): string {
  const legend = seriesOf(report.revenue)
    .map(({ currency, colour }) => `<span><i style="background:${colour}"></i>${escapeHtml(currency)}</span>`)
    .join('');
  const rows = report.revenue.map(
    (r) =>
      `<tr><td>${escapeHtml(r.day)}</td><td>${escapeHtml(r.currency)}</td><td class="n">${escapeHtml(String(r.records))}</td><td class="n">${formatAmount(r.value)}</td></tr>`,
  );
  const what = report.command.includes('--check')
    ? 'valid records (nothing was sent)'
    : 'records the receiver accepted';
  return [
    '<h2>Revenue per day</h2>',
    `<p>Of the ${what}, per local day of each conversion (in its own time zone) and currency.</p>`,
    legend ? `<p class="legend">${legend}</p>` : '',
    renderRevenueChart(report.revenue),
    rows.length === 0
      ? ''
      : `<table id="revenue"><caption>Revenue per day and currency</caption><thead><tr><th>day</th><th>currency</th><th class="n">records</th><th class="n">revenue</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  ].join('\n');
}

/** The outcomes a reader looks for first, in this order; other counts follow when not zero. */
const mainCounts: [string, string][] = [
  ['rowsRead', 'rows read'],
  ['valid', 'valid'],
  ['sent', 'sent'],
  ['alreadySent', 'already sent'],
  ['skipped', 'skipped'],
  ['invalid', 'invalid'],
  ['rejected', 'rejected'],
  ['failed', 'failed'],
  ['pending', 'pending'],
  ['retried', 'retried'],
];

function countsSection(report: RunReport): string {
  const named = new Set(mainCounts.map(([key]) => key));
  const others = Object.entries(report.counts)
    .filter(([key, n]) => !named.has(key) && n !== 0)
    .map(([key]) => [key, key] as [string, string]);
  const rows = [...mainCounts, ...others].map(
    ([key, label]) =>
      `<tr data-count="${escapeHtml(key)}"><th>${escapeHtml(label)}</th><td class="n">${escapeHtml(String(report.counts[key] ?? 0))}</td></tr>`,
  );
  return `<h2>Counts by outcome</h2>\n<table id="counts"><tbody>${rows.join('')}</tbody></table>`;
}

function reasonsSection(title: string, id: string, reasons: Record<string, number>): string {
  const entries = Object.entries(reasons).sort((a, b) => b[1] - a[1] || byCodeUnits(a[0], b[0]));
  const body =
    entries.length === 0
      ? '<p class="empty">None.</p>'
      : `<table id="${id}"><thead><tr><th>reason</th><th class="n">rows</th></tr></thead><tbody>${entries
          .map(
            ([reason, n]) =>
              `<tr><td>${escapeHtml(reason)}</td><td class="n">${escapeHtml(String(n))}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  return `<h2>${title}</h2>\n${body}`;
}

const verdicts: Record<GuardComparison['verdict'], string> = {
  'no-history': 'no history for this target: nothing compared',
  passed: 'passed: the run looks like what this target received before',
  stopped:
    'stopped: the run was stopped before sending (or, for a currency first seen late, where it appeared)',
  accepted: 'accepted: sent with --accept-shift despite the findings',
};

function guardSection(guard: GuardComparison | null): string {
  if (guard === null)
    return '<h2>Value guard</h2>\n<p class="empty">No comparison was made for this run.</p>';
  const rows = guard.currencies.map(
    ({ currency, run, history }) =>
      `<tr><th>${escapeHtml(currency)}</th>${statsCells(run)}${history ? statsCells(history) : '<td colspan="5">never delivered before</td>'}</tr>`,
  );
  const statsHead =
    '<th class="n">count</th><th class="n">median</th><th class="n">p90</th><th class="n">p99</th><th class="n">zero share</th>';
  const findings = guard.findings.map((f) => `<li>${escapeHtml(f.message)}</li>`).join('');
  const missing = guard.missingDays.map(escapeHtml).join(', ');
  return [
    '<h2>Value guard</h2>',
    `<p class="verdict-${guard.verdict}">${escapeHtml(verdicts[guard.verdict])}</p>`,
    `<table id="guard"><thead><tr><th rowspan="2">currency</th><th colspan="5">this run</th><th colspan="5">history</th></tr><tr>${statsHead}${statsHead}</tr></thead><tbody>${rows.join('')}</tbody></table>`,
    findings ? `<ul class="findings">${findings}</ul>` : '<p class="empty">No findings.</p>',
    missing ? `<p class="missing-days">Days missing inside the run's range: ${missing}</p>` : '',
  ].join('\n');
}

function statsCells(stats: ValueStats): string {
  const cells = [stats.count, formatAmount(stats.median), formatAmount(stats.p90), formatAmount(stats.p99)];
  return `${cells.map((c) => `<td class="n">${escapeHtml(String(c))}</td>`).join('')}<td class="n">${(Number(stats.zeroShare) * 100).toFixed(1)}%</td>`;
}

function rejectsSection(file: string | null): string {
  if (file === null) return '<h2>Rejects file</h2>\n<p class="empty">This run wrote no rejects file.</p>';
  const href = pathToFileURL(file).href;
  return `<h2>Rejects file</h2>\n<p><a id="rejects" href="${escapeHtml(href)}">${escapeHtml(file)}</a></p>`;
}
