// Debian's chromium, headless, for the tests that look at a page as a person would (issue 25's run report):
// the rendered DOM, a screenshot, and the network log of what the page requested.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The chromium binary; a missing one fails the test with how to install it (never a silent skip). */
export function chromiumPath(): string {
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    } catch {
      // not this name
    }
  }
  throw new Error(
    "chromium is not installed: the run report's browser test needs Debian's chromium " +
      '(apt-get install -y --no-install-recommends chromium; .ci/run installs it)',
  );
}

export interface PageLoad {
  /** The DOM as rendered (--dump-dom), or '' for a screenshot. */
  dom: string;
  /** Requests the page made (not the browser's own update and account pings), from --log-net-log. */
  pageRequests: string[];
}

/**
 * Opens `file` in headless chromium: `--dump-dom`, or `--screenshot=<png>` at `size` (CSS pixels, scale 1).
 * A fresh profile per call, and background networking off; what the browser itself still asks for (component
 * updates) is told apart from what the page asked for by the request's initiator.
 */
export async function openPage(
  file: string,
  mode: { screenshot: string; size: string } | 'dom',
): Promise<PageLoad> {
  const work = mkdtempSync(path.join(tmpdir(), 'revimport-chromium-'));
  const netLog = path.join(work, 'net-log.json');
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--hide-scrollbars',
    '--force-device-scale-factor=1',
    `--user-data-dir=${path.join(work, 'profile')}`,
    '--disable-background-networking',
    '--no-first-run',
    `--log-net-log=${netLog}`,
    ...(mode === 'dom' ? ['--dump-dom'] : [`--screenshot=${mode.screenshot}`, `--window-size=${mode.size}`]),
    `file://${file}`,
  ];
  const dom = await run(chromiumPath(), args);
  return { dom: mode === 'dom' ? dom : '', pageRequests: pageRequests(netLog) };
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`chromium exited ${code}: ${err.slice(-2000)}`)),
    );
  });
}

interface NetLog {
  constants: { logEventTypes: Record<string, number> };
  events: { type: number; params?: { url?: string; initiator?: string; network_isolation_key?: string } }[];
}

/**
 * URLs the page requested: a request the browser makes for itself has no origin ("not an origin"); one from a
 * page opened from a file has the file's opaque origin ("null") and a file:// network isolation key.
 */
export function pageRequests(netLogFile: string): string[] {
  const log = JSON.parse(readFileSync(netLogFile, 'utf8')) as NetLog;
  const start = log.constants.logEventTypes.URL_REQUEST_START_JOB;
  return log.events
    .filter((e) => e.type === start && e.params?.url !== undefined)
    .filter(
      (e) => e.params!.initiator !== 'not an origin' || e.params!.network_isolation_key?.includes('file://'),
    )
    .map((e) => e.params!.url!);
}
