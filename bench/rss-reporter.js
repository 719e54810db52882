// Preloaded into every measured child (`node --import ./bench/rss-reporter.js`): at exit, writes the
// process's own peak RSS (getrusage ru_maxrss, KiB) and CPU times to the file named by BENCH_RSS_FILE, with the
// main thread's own CPU time (Linux: /proc/self/task/<pid>/stat, in clock ticks of 10 ms) and the main thread's
// collector pauses (the `gc` performance entries). On a shared two-core box those two drift less than the wall
// time: what the main thread did, not how long it waited for a core (bench/README.md, "Session 30").
// A worker started from a file runs the preloads too (its execArgv is the process's): only the main thread writes,
// or a worker ending after it wrote its own collector's time over the main thread's (the "its GC s" column read 0.00
// in some pushes: bench/README.md, "Session 32").
import { readFileSync, writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const target = process.env.BENCH_RSS_FILE;
if (target && isMainThread) {
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  process.on('exit', () => {
    for (const entry of observer.takeRecords()) gcMs += entry.duration;
    const usage = process.resourceUsage();
    writeFileSync(
      target,
      JSON.stringify({
        maxRssKiB: usage.maxRSS,
        userUs: usage.userCPUTime,
        systemUs: usage.systemCPUTime,
        mainCpuMs: mainThreadCpuMs(),
        gcMs,
      }),
    );
  });
}

/** The main thread's user + system time in ms (utime and stime, fields 14 and 15 of its stat), or NaN off Linux. */
function mainThreadCpuMs() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
