// Preloaded into every measured child (`node --import ./bench/rss-reporter.js`): at exit, writes the
// process's own peak RSS (getrusage ru_maxrss, KiB) and CPU times to the file named by BENCH_RSS_FILE, with the
// main thread's own CPU time (Linux: /proc/self/task/<pid>/stat, in clock ticks of 10 ms) and the main thread's
// collector pauses (the `gc` performance entries). On a shared two-core box those two drift less than the wall
// time: what the main thread did, not how long it waited for a core (bench/README.md, "Session 30").
// A worker started from a file runs the preloads too (its execArgv is the process's): only the main thread writes,
// or a worker ending after it wrote its own collector's time over the main thread's (the "its GC s" column read 0.00
// in some pushes: bench/README.md, "Session 32").
// Where the rest of the process's CPU went (Session 41): each worker thread tells the main thread its kernel thread
// id at its start (a BroadcastChannel), the main thread reads those threads' CPU every 100 ms and at exit, and what
// neither the main thread nor a worker used is V8's and libuv's helper threads' (parallel and concurrent collection,
// compilation, the fs/crypto pool). A worker ending between two reads loses at most 100 ms to the helpers' share.
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { BroadcastChannel, isMainThread } from 'node:worker_threads';

const target = process.env.BENCH_RSS_FILE;
const threadsChannel = 'revimport-bench-threads';
if (target && !isMainThread) {
  const tid = ownThreadId();
  if (tid !== undefined) {
    const channel = new BroadcastChannel(threadsChannel);
    channel.postMessage(tid);
    channel.close();
  }
}
if (target && isMainThread) {
  /** Each worker thread's CPU ms, by kernel thread id, as last read. */
  const workers = new Map();
  const channel = new BroadcastChannel(threadsChannel);
  channel.unref();
  channel.onmessage = (event) => workers.set(String(event.data), 0);
  const readWorkers = () => {
    for (const tid of workers.keys()) {
      const ms = threadCpuMs(tid);
      if (Number.isFinite(ms)) workers.set(tid, ms);
    }
  };
  setInterval(readWorkers, 100).unref();
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  process.on('exit', () => {
    readWorkers();
    channel.close();
    for (const entry of observer.takeRecords()) gcMs += entry.duration;
    const usage = process.resourceUsage();
    writeFileSync(
      target,
      JSON.stringify({
        maxRssKiB: usage.maxRSS,
        userUs: usage.userCPUTime,
        systemUs: usage.systemCPUTime,
        mainCpuMs: threadCpuMs(process.pid),
        workerCpuMs: [...workers.values()].reduce((sum, ms) => sum + ms, 0),
        gcMs,
      }),
    );
  });
}

/** This thread's kernel id (Linux: /proc/thread-self links to its task folder), or undefined. */
function ownThreadId() {
  try {
    return readlinkSync('/proc/thread-self').split('/').at(-1);
  } catch {
    return undefined;
  }
}

/** A thread's user + system time in ms (utime and stime, fields 14 and 15 of its stat), or NaN off Linux. */
function threadCpuMs(tid) {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
