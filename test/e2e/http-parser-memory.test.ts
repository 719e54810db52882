// A push's first request does not compile undici's HTTP parser (llhttp, WebAssembly) with V8's optimizing
// compiler (issue 23, bin/revimport.js): that compile took ~30 MiB for a moment in every push, a 5,000-row push
// peaking at 152-159 MiB instead of 121-124. V8's peak_malloced_memory is a high-water mark of what it
// allocated outside the JS heap (zones, compilers), so the test reads it at exit instead of sampling RSS.
// Calibrated on Node 20 (V8 11.3): 4.7 MiB with Liftoff only, 37 without. Node 24's V8 keeps more in its zones
// (undici's first requests alone: 16 MiB with the flag, 24 without), so the figure is asserted on Node 20.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { exportCsv, pushEnv } from '../helpers/exports.js';

const key = 'parser-memory-key-7c1e';
const e2e = useE2E({ key });

it.runIf(process.versions.node.startsWith('20.'))(
  'keeps what V8 allocates outside the heap small through the first requests (about 5 MiB, 40 with TurboFan)',
  async () => {
    const receiver = await e2e.start();
    const file = path.join(e2e.work, 'a.csv');
    writeFileSync(file, exportCsv({ to: 300 }));
    const peaks = path.join(e2e.work, 'peaks.txt');
    const preload = path.join(e2e.work, 'peak.mjs');
    writeFileSync(
      preload,
      `import { appendFileSync } from 'node:fs';\nimport v8 from 'node:v8';\n` +
        `process.on('exit', () => appendFileSync(${JSON.stringify(peaks)}, v8.getHeapStatistics().peak_malloced_memory + '\\n'));\n`,
    );
    const run = await runCli(['push', file, '-c', e2e.config, '--json', '--batch-size', '100'], {
      cwd: e2e.work,
      env: {
        ...pushEnv(receiver.url, key, e2e.state),
        NODE_OPTIONS: `--import ${pathToFileURL(preload).href}`,
      },
    });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(receiver.accepted).toHaveLength(300);
    const peak = Math.max(...readFileSync(peaks, 'utf8').trim().split('\n').map(Number));
    expect(peak / 1024 / 1024).toBeLessThan(16);
  },
);
