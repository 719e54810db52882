// `npm run demo`: starts the local receiver on 127.0.0.1 (port 8787, where the bundled configs point, when
// it is free), pushes a bundled fixture to it for real (twice: the second run finds everything delivered
// and sends nothing), prints what arrived, stops the receiver. Every command it prints runs as printed
// from the repository's folder, so it can be copied (issue 13).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Receiver, startReceiver } from './receiver.js';
import { defaultReceiverPort } from './receiver-cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = process.argv[2] ?? 'fixtures/google-ads-style/conversions.csv';
const config = process.argv[3] ?? path.join(path.dirname(fixture), 'revimport.config.json');
const demoKey = 'demo-key-not-a-secret';

/** POSIX shell quoting, only where a word needs it. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A path as the user would type it from the repository's folder. */
const shown = (file: string) => (path.isAbsolute(file) ? path.relative(root, file) || '.' : file);

function push(baseUrl: string, state: string, extra: string[]): Promise<number> {
  const args = [
    'push',
    shown(fixture),
    '-c',
    shown(config),
    '--base-url',
    baseUrl,
    '--state',
    state,
    ...extra,
  ];
  const line = ['node', 'bin/revimport.js', ...args].map(shellWord).join(' ');
  console.log(`\n$ REVIMPORT_API_KEY=${demoKey} ${line}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/revimport.js'), ...args], {
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

/** The port the bundled configs point at, else (another receiver runs there) any free port. */
async function listen(): Promise<Receiver> {
  try {
    return await startReceiver({ port: defaultReceiverPort });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return startReceiver();
  }
}

const receiver = await listen();
// Kept after the demo, so that the printed commands still find their ledger and rejects folder.
const work = mkdtempSync(path.join(tmpdir(), 'revimport-demo-'));
try {
  console.log(`receiver listening on ${receiver.url} (it takes any key)`);
  await push(receiver.url, path.join(work, 'ledger.db'), ['--rejects', path.join(work, 'rejects.csv')]);
  await push(receiver.url, path.join(work, 'ledger.db'), []);
  console.log(
    `\nthe receiver stored ${receiver.accepted.length} records in ${receiver.requests.length} request${receiver.requests.length === 1 ? '' : 's'}; first:`,
  );
  console.log(JSON.stringify(receiver.accepted[0]?.record ?? null, null, 2));
} finally {
  await receiver.close();
}
const yours = ['node', 'bin/revimport.js', 'push', shown(fixture), '-c', shown(config)];
const target = `--base-url http://127.0.0.1:${defaultReceiverPort}`;
console.log(
  `\nthe ledger and rejects file are in ${work}.\n` +
    `to try it yourself, start the receiver in one terminal (it listens on 127.0.0.1:${defaultReceiverPort}, where the bundled configs point):\n` +
    '$ npm run receiver\n' +
    'then, in another terminal, from this folder:\n' +
    `$ REVIMPORT_API_KEY=any-key ${yours.map(shellWord).join(' ')}` +
    // The default fixture's config points at the receiver; another one's (a preset's) may name no base URL.
    (process.argv[2] === undefined ? '\n' : ` ${target}\n`),
);
