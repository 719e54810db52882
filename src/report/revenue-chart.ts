// The run report's chart (issue 25): revenue per day as an inline SVG bar chart, one panel per currency
// (amounts in two currencies share no scale), days aligned across panels. Pure: text in, text out, no
// library and no script, so the page needs nothing but itself to be seen.
import { groupedNumber } from '../grouped-number.js';
import { escapeHtml } from './html-text.js';
import type { DayRevenue } from './run-report.js';

/** One colour per currency, in the order the currencies are drawn; the legend and the bars use the same. */
export const seriesColours = ['#1f6fd1', '#d9480f', '#2b8a3e', '#ae3ec9', '#0c8599', '#e67700'] as const;

const WIDTH = 760;
const LEFT = 96;
const RIGHT = 16;
const PANEL_HEIGHT = 180;
const PANEL_TOP = 28;
const AXIS_BELOW = 40;

/** The currencies in the order they are drawn, each with its colour. */
export function seriesOf(revenue: readonly DayRevenue[]): { currency: string; colour: string }[] {
  const currencies = [...new Set(revenue.map((r) => r.currency))].sort();
  return currencies.map((currency, i) => ({ currency, colour: seriesColours[i % seriesColours.length]! }));
}

export function renderRevenueChart(revenue: readonly DayRevenue[]): string {
  const series = seriesOf(revenue);
  if (series.length === 0) return '<p class="empty">No revenue in this run.</p>';
  const days = [...new Set(revenue.map((r) => r.day))].sort();
  const panelStep = PANEL_TOP + PANEL_HEIGHT + AXIS_BELOW;
  const height = series.length * panelStep;
  const panels = series.map(({ currency, colour }, i) =>
    renderPanel(
      revenue.filter((r) => r.currency === currency),
      days,
      { currency, colour, top: i * panelStep + PANEL_TOP },
    ),
  );
  return (
    `<svg class="chart" role="img" aria-labelledby="chart-title" ` +
    `width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}">` +
    `<title id="chart-title">Revenue per day and currency (the table below holds the same figures)</title>` +
    `${panels.join('')}</svg>`
  );
}

interface Panel {
  currency: string;
  colour: string;
  top: number;
}

function renderPanel(rows: readonly DayRevenue[], days: readonly string[], panel: Panel): string {
  const { top, currency, colour } = panel;
  const scale = axisScale(rows.map((r) => r.value));
  const y = (value: number) =>
    top + PANEL_HEIGHT - ((value - scale.min) / (scale.max - scale.min)) * PANEL_HEIGHT;
  const slot = (WIDTH - LEFT - RIGHT) / days.length;
  const barWidth = Math.max(1, Math.min(48, slot * 0.7));
  const bars = rows.map((row) => {
    const x = LEFT + days.indexOf(row.day) * slot + (slot - barWidth) / 2;
    const [y0, y1] = [y(Math.max(0, row.value)), y(Math.min(0, row.value))];
    const label = `${row.day} ${currency} ${formatAmount(row.value)} (${row.records} records)`;
    return (
      `<rect class="bar" data-day="${escapeHtml(row.day)}" data-currency="${escapeHtml(currency)}" data-value="${escapeHtml(String(row.value))}" ` +
      `x="${fixed(x)}" y="${fixed(y0)}" width="${fixed(barWidth)}" height="${fixed(y1 - y0)}" fill="${colour}">` +
      `<title>${escapeHtml(label)}</title></rect>`
    );
  });
  const title = `<text class="panel-title" x="${LEFT}" y="${top - 10}" fill="${colour}">${escapeHtml(currency)} per day</text>`;
  return `<g class="panel" data-currency="${escapeHtml(currency)}">${title}${yAxis(scale, y, currency)}${xAxis(days, slot, top)}${bars.join('')}</g>`;
}

/** The value axis: ticks at round figures, labelled in the panel's currency. */
function yAxis(scale: AxisScale, y: (value: number) => number, currency: string): string {
  const parts = [
    `<line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${fixed(y(scale.max))}" y2="${fixed(y(scale.min))}"/>`,
  ];
  for (let tick = scale.min; tick <= scale.max + scale.step / 2; tick += scale.step) {
    const at = fixed(y(tick));
    parts.push(
      `<line class="grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${at}" y2="${at}"/>`,
      `<text class="tick" x="${LEFT - 6}" y="${at}" text-anchor="end" dominant-baseline="middle">${escapeHtml(`${formatAmount(round(tick))} ${currency}`)}</text>`,
    );
  }
  return parts.join('');
}

/** The day axis: every day a tick, a label as often as labels fit (about one per 70 px). */
function xAxis(days: readonly string[], slot: number, top: number): string {
  const base = top + PANEL_HEIGHT;
  const every = Math.max(1, Math.ceil(70 / slot));
  const labels = days.map((day, i) =>
    i % every === 0
      ? `<text class="tick" x="${fixed(LEFT + i * slot + slot / 2)}" y="${base + 16}" text-anchor="middle">${escapeHtml(day)}</text>`
      : '',
  );
  return `<line class="axis" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${base}" y2="${base}"/>${labels.join('')}<text class="axis-label" x="${WIDTH - RIGHT}" y="${base + 34}" text-anchor="end">local day of the conversion</text>`;
}

interface AxisScale {
  min: number;
  max: number;
  step: number;
}

/** From 0 (or the lowest negative day) to a round figure above the highest day, in 1-2-5 steps. */
export function axisScale(values: readonly number[]): AxisScale {
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  if (high === low) return { min: 0, max: 1, step: 0.25 };
  const rough = (high - low) / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
  return { min: Math.floor(low / step) * step, max: Math.ceil(high / step) * step, step };
}

/** `12,345.5`: grouped, up to 3 decimals (JPY 0, USD 2, KWD 3), the same in every locale. */
export function formatAmount(value: number): string {
  return groupedNumber(value, 3);
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function fixed(n: number): string {
  return String(Math.round(n * 100) / 100);
}
