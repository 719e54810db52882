// Preloaded into every measured child (`node --import ./bench/rss-reporter.js`): at exit, writes the
// process's own peak RSS (getrusage ru_maxrss, KiB) and CPU times to the file named by BENCH_RSS_FILE.
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_RSS_FILE;
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      target,
      JSON.stringify({ maxRssKiB: usage.maxRSS, userUs: usage.userCPUTime, systemUs: usage.systemCPUTime }),
    );
  });
}
