// `npm run demo`: starts the local receiver on 127.0.0.1, pushes a bundled fixture to it for real (twice:
// the second run finds everything delivered and sends nothing), prints what arrived, stops the receiver.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReceiver } from './receiver.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = process.argv[2] ?? 'fixtures/google-ads-style/conversions.csv';
const config = process.argv[3] ?? path.join(path.dirname(fixture), 'revimport.config.json');
const demoKey = 'demo-key-not-a-secret';

function push(baseUrl: string, state: string, extra: string[]): Promise<number> {
  const args = [path.join(root, 'bin/revimport.js'), 'push', fixture, '-c', config, '--base-url', baseUrl];
  args.push('--state', state, ...extra);
  console.log(`\n$ revimport push ${fixture} -c ${config} ${extra.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, REVIMPORT_API_KEY: demoKey },
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      console.log(`(exit code ${code})`);
      resolve(code ?? 1);
    });
  });
}

const receiver = await startReceiver({ apiKey: demoKey });
const work = mkdtempSync(path.join(tmpdir(), 'revimport-demo-'));
try {
  console.log(`receiver listening on ${receiver.url}`);
  await push(receiver.url, path.join(work, 'ledger.db'), ['--rejects', path.join(work, 'rejects.csv')]);
  await push(receiver.url, path.join(work, 'ledger.db'), []);
  console.log(
    `\nthe receiver stored ${receiver.accepted.length} records in ${receiver.requests.length} requests; first:`,
  );
  console.log(JSON.stringify(receiver.accepted[0]?.record ?? null, null, 2));
} finally {
  await receiver.close();
  rmSync(work, { recursive: true, force: true });
}
