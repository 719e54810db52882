// Turns the per-round measurements into the figures the issue asks for (rows/s, wall, peak RSS, median
// of per-round ratios, each target held or not) and renders them as a text table.
import { median } from './measure.js';

const MiB = 1024;

/**
 * [numerator, denominator, limit, what] per target (issue 14's table); a program absent from the run skips
 * its targets.
 */
const targets = [
  ['push', 'ceiling', 1.5, 'push / csv-parse ceiling <= 1.5 x'],
  ['push', 'naive', 0.5, 'push / naive script <= 0.5 x'],
  ['rerun', 'ceiling', 1.2, 'push of an already-sent file / ceiling <= 1.2 x'],
  ['prefilled', 'push', 1.15, 'push with a prefilled ledger / empty ledger <= 1.15 x'],
  ['check', 'ceiling', 1.1, '--check / ceiling <= 1.1 x'],
  ['pg-push', 'push', 1.5, 'push into a PostgreSQL ledger / into SQLite <= 1.5 x (issue 15)'],
  // Issue 23: the default split (rows on the main thread) is the faster one (push-thread: on the row thread).
  ['push', 'push-thread', 1, 'push / push with the rows on the row thread <= 1 x'],
  ['rerun', 'rerun-thread', 1, 'push again / the same with the rows on the row thread <= 1 x'],
];
/** Issue 23: a push does not stall (on merges, on the journal): its wall time within this of its CPU time. */
const WALL_PER_CPU = 1.3;
const RSS_LIMIT_MIB = 150;

export function summarize(runs, rows, prefill) {
  const programs = {};
  for (const [name, list] of Object.entries(runs)) {
    const wallMs = median(list.map((r) => r.wallMs));
    programs[name] = {
      rowsPerSec: Math.round(rows / (wallMs / 1000)),
      wallMs: Math.round(wallMs),
      wallMsMin: Math.round(Math.min(...list.map((r) => r.wallMs))),
      wallMsMax: Math.round(Math.max(...list.map((r) => r.wallMs))),
      cpuMs: Math.round(median(list.map((r) => r.cpuMs))),
      mainCpuMs: Math.round(median(list.map((r) => r.mainCpuMs))),
      gcMs: Math.round(median(list.map((r) => r.gcMs))),
      workerCpuMs: Math.round(median(list.map((r) => r.workerCpuMs))),
      helperCpuMs: Math.round(median(list.map((r) => r.cpuMs - r.mainCpuMs - r.workerCpuMs))),
      benchCpuMs: Math.round(median(list.map((r) => r.benchCpuMs))),
      peakRssMiB: Math.round(Math.max(...list.map((r) => r.maxRssKiB)) / MiB),
      rounds: list.map((r) => ({
        wallMs: Math.round(r.wallMs),
        maxRssKiB: r.maxRssKiB,
        cpuMs: Math.round(r.cpuMs),
        mainCpuMs: Math.round(r.mainCpuMs),
        gcMs: Math.round(r.gcMs),
        workerCpuMs: Math.round(r.workerCpuMs),
        benchCpuMs: Math.round(r.benchCpuMs),
      })),
    };
  }
  const ratios = {};
  const checks = [];
  for (const [a, b, limit, what] of targets) {
    if (!runs[a] || !runs[b]) continue;
    const perRound = runs[a].map((r, i) => r.wallMs / runs[b][i].wallMs);
    const value = median(perRound);
    const key = `${a}/${b}`;
    ratios[key] = { median: round3(value), perRound: perRound.map(round3) };
    checks.push({ target: what, value: round3(value), limit, holds: value <= limit });
  }
  for (const name of ['push', 'prefilled']) {
    if (!runs[name]) continue;
    const value = median(runs[name].map((r) => r.wallMs / r.cpuMs));
    checks.push({
      target: `${name} wall / its CPU time <= ${WALL_PER_CPU} x`,
      value: round3(value),
      limit: WALL_PER_CPU,
      holds: value <= WALL_PER_CPU,
    });
  }
  for (const name of ['push', 'check', 'rerun', 'prefilled', 'lookup']) {
    if (!programs[name]) continue;
    const peak = programs[name].peakRssMiB;
    checks.push({
      target: `${name} peak RSS <= ${RSS_LIMIT_MIB} MiB`,
      value: peak,
      limit: RSS_LIMIT_MIB,
      holds: peak <= RSS_LIMIT_MIB,
    });
  }
  const baseline = compareWithBaseline(runs);
  return {
    programs,
    ratios,
    targets: checks,
    ...(baseline.length > 0 ? { baseline } : {}),
    ...(prefill ? { prefilledRecords: prefill } : {}),
  };
}

/** Per program run with --baseline: median over rounds of this build / the baseline: wall, CPU, the main thread's CPU. */
function compareWithBaseline(runs) {
  const out = [];
  for (const [name, list] of Object.entries(runs)) {
    const base = runs[`${name}@base`];
    if (!base) continue;
    const wall = median(list.map((r, i) => r.wallMs / base[i].wallMs));
    const cpu = median(list.map((r, i) => r.cpuMs / base[i].cpuMs));
    const main = median(list.map((r, i) => r.mainCpuMs / base[i].mainCpuMs));
    const rss = Math.max(...list.map((r) => r.maxRssKiB)) / Math.max(...base.map((r) => r.maxRssKiB));
    out.push({
      program: name,
      wall: round3(wall),
      cpu: round3(cpu),
      mainCpu: round3(main),
      peakRss: round3(rss),
    });
  }
  return out;
}

const labels = {
  ceiling: 'csv-parse ceiling',
  naive: 'naive script',
  push: 'revimport push',
  rerun: 'push again (all sent)',
  check: 'push --check',
  prefilled: 'push, prefilled ledger',
  lookup: 'push --check, e-mail by lookup',
  'pg-push': 'push, PostgreSQL ledger',
  'pg-rerun': 'push again, PostgreSQL ledger',
  'push-thread': 'push, rows on the row thread',
  'rerun-thread': 'push again, rows on the row thread',
};

export function formatTable(result) {
  const lines = [];
  lines.push(
    `${result.rows} rows, ${(result.bytes / 2 ** 20).toFixed(1)} MiB, ${result.rounds} rounds, ` +
      `${result.machine.cpus} CPUs, Node ${result.machine.node}${result.prefill ? `, prefill ${result.prefill}` : ''}`,
  );
  lines.push('');
  lines.push(
    '| program | rows/s | wall s (median) | min-max s | CPU s | main thread CPU s | its GC s | peak RSS MiB |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const [name, p] of Object.entries(result.programs)) {
    lines.push(
      `| ${labelOf(name)} | ${p.rowsPerSec.toLocaleString('en-US')} | ${(p.wallMs / 1000).toFixed(2)} | ` +
        `${(p.wallMsMin / 1000).toFixed(2)}-${(p.wallMsMax / 1000).toFixed(2)} | ${(p.cpuMs / 1000).toFixed(2)} | ` +
        `${(p.mainCpuMs / 1000).toFixed(2)} | ${(p.gcMs / 1000).toFixed(2)} | ${p.peakRssMiB} |`,
    );
  }
  lines.push('');
  lines.push(...cpuTable(result));
  lines.push('');
  lines.push('| target | measured | limit | verdict |');
  lines.push('|---|---:|---:|---|');
  for (const t of result.targets)
    lines.push(`| ${t.target} | ${t.value} | ${t.limit} | ${t.holds ? 'holds' : 'misses'} |`);
  if (result.baseline) {
    lines.push('');
    lines.push('| this build / baseline | wall (median of rounds) | CPU | main thread CPU | peak RSS |');
    lines.push('|---|---:|---:|---:|---:|');
    for (const b of result.baseline)
      lines.push(
        `| ${labels[b.program] ?? b.program} | ${b.wall} | ${b.cpu} | ${b.mainCpu} | ${b.peakRss} |`,
      );
  }
  if (result.startup) {
    lines.push('');
    lines.push('| startup | median ms | limit |');
    lines.push('|---|---:|---:|');
    for (const [name, ms] of Object.entries(result.startup))
      lines.push(`| ${name} | ${ms} | ${name.startsWith('node') ? '' : 150} |`);
  }
  return lines.join('\n');
}

/**
 * Where each program's CPU went (medians of rounds, s): its main thread, its worker threads (the ledger's writer and
 * reader, the row thread), V8's and libuv's helper threads (the rest of the process: parallel and concurrent
 * collection, compilation, the fs/crypto pool), and the bench process meanwhile (the receiver parsing the bodies, on
 * the same cores); then all of it over the wall time: how many of the machine's cores were busy.
 */
function cpuTable(result) {
  const lines = [
    '| where the CPU went (s) | main thread | worker threads | V8 and libuv helpers | the receiver | all | cores busy |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const s = (ms) => (ms / 1000).toFixed(2);
  for (const [name, p] of Object.entries(result.programs)) {
    const all = p.cpuMs + p.benchCpuMs;
    lines.push(
      `| ${labelOf(name)} | ${s(p.mainCpuMs)} | ${s(p.workerCpuMs)} | ${s(p.helperCpuMs)} | ${s(p.benchCpuMs)} | ` +
        `${s(all)} | ${(all / p.wallMs).toFixed(2)} |`,
    );
  }
  return lines;
}

const labelOf = (name) =>
  name.endsWith('@base') ? `${labels[name.slice(0, -5)] ?? name} (baseline)` : (labels[name] ?? name);

const round3 = (v) => Math.round(v * 1000) / 1000;
