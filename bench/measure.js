// Runs one measured program as a child `node` process and returns its wall time, its own peak RSS
// (ru_maxrss, reported at exit by the preloaded rss-reporter.js) and what it printed.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const reporter = fileURLToPath(new URL('./rss-reporter.js', import.meta.url));
let counter = 0;

/**
 * Spawns `node [nodeArgs] --import rss-reporter.js script ...args`. Resolves with
 * `{ code, wallMs, maxRssKiB, cpuMs, mainCpuMs, workerCpuMs, gcMs, benchCpuMs, stdout, stderr }` (the main thread's
 * CPU and collector pauses, its worker threads' CPU, and this process's own CPU meanwhile: the receiver's, on the
 * same cores); stdout is kept whole, stderr's last 4 KiB.
 */
export function measure({ script, args = [], env = {}, cwd, nodeArgs = [] }) {
  const rssFile = path.join(tmpdir(), `revimport-bench-rss-${process.pid}-${counter++}.json`);
  rmSync(rssFile, { force: true });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const benchCpu = process.cpuUsage();
    const child = spawn(process.execPath, [...nodeArgs, '--import', reporter, script, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', CI: '1', ...env, BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text) => {
      stderr = (stderr + text).slice(-4096);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      const benchCpuUs = process.cpuUsage(benchCpu);
      let usage = {
        maxRssKiB: Number.NaN,
        userUs: Number.NaN,
        systemUs: Number.NaN,
        mainCpuMs: Number.NaN,
        workerCpuMs: Number.NaN,
        gcMs: Number.NaN,
      };
      try {
        usage = JSON.parse(readFileSync(rssFile, 'utf8'));
      } catch {
        // The child died before its exit handler ran: RSS unknown, shown as NaN.
      }
      rmSync(rssFile, { force: true });
      resolve({
        code,
        wallMs,
        maxRssKiB: usage.maxRssKiB,
        cpuMs: (usage.userUs + usage.systemUs) / 1000,
        mainCpuMs: usage.mainCpuMs ?? Number.NaN,
        workerCpuMs: usage.workerCpuMs ?? Number.NaN,
        gcMs: usage.gcMs ?? Number.NaN,
        benchCpuMs: (benchCpuUs.user + benchCpuUs.system) / 1000,
        stdout,
        stderr,
      });
    });
  });
}

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
