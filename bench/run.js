// `npm run bench`: revimport against the csv-parse ceiling and the naive script, side by side in one run,
// alternating over several rounds; prints a table and writes bench/results/latest.json.
// Flags: --rows N (1000000) --rounds R (3) --prefill M --programs a,b --startup --cpu-prof
// --programs push-thread,rerun-thread (only when named): push and push again with REVIMPORT_ROW_THREAD=1.
// --state postgres://... also pushes into that PostgreSQL ledger (its schema `revimport` dropped before
// each push), reported beside the SQLite push (issue 15).
// --baseline DIR also runs push, push again, --check and the lookup (those chosen) with another build (DIR
// holds its bin/ and dist/, e.g. a clone of an earlier commit after `npm run build`), in the same rounds,
// and prints this build / baseline per program: a change measured before and after on one machine in one run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureData } from './generate.js';
import { measure } from './measure.js';
import { copyPrefilled, ensurePrefilled, removeLedger } from './prefill.js';
import { formatTable, summarize } from './report.js';
import { measureStartup } from './startup.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = path.join(root, 'bench');
const dataDir = path.join(benchDir, '.data');
const workDir = path.join(dataDir, 'work');
const cli = path.join(root, 'bin', 'revimport.js');
const apiKey = 'bench-key-not-a-secret';
const log = (line) => process.stderr.write(`${line}\n`);

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '3' },
    prefill: { type: 'string' },
    programs: { type: 'string' },
    startup: { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    state: { type: 'string' },
    baseline: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(usage());
  process.exit(0);
}
const rows = Number(values.rows);
const rounds = Number(values.rounds);
const prefill = values.prefill === undefined ? 0 : Number(values.prefill);
if (!Number.isInteger(rows) || rows < 1) throw new Error(`--rows: not a positive integer: ${values.rows}`);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds: not a positive integer: ${values.rounds}`);
if (!Number.isInteger(prefill) || prefill < 0)
  throw new Error(`--prefill: not an integer: ${values.prefill}`);

ensureBuilt();
mkdirSync(workDir, { recursive: true });
const { startReceiver } = await import('../dist/testing/receiver.js');
const { seededRandom } = await import('../dist/testing/seeded-random.js');

log(`data: ${rows} rows`);
const data = ensureData(dataDir, rows, seededRandom);
log(`  ${data.file} (${(data.bytes / 2 ** 20).toFixed(1)} MiB, ${data.reused ? 'reused' : 'generated'})`);
const prefilled = prefill > 0 ? await ensurePrefilled(dataDir, prefill, apiKey, log) : undefined;

// The receiver keeps every request and record; the benchmark needs only counts, so it empties them as it
// goes (idempotency storage off: it would keep every body).
let delivered = 0;
let receiver;
receiver = await startReceiver({
  apiKey,
  honourIdempotencyKey: false,
  onRequest(request) {
    if (request.status === 200) delivered += request.elements;
    receiver.requests.length = 0;
    receiver.accepted.length = 0;
  },
});

const ledgerFile = path.join(workDir, 'ledger.db');
const prefilledLedger = path.join(workDir, 'ledger-prefilled.db');
const rejectsFile = path.join(workDir, 'rejects.csv');
const cpuProf = values['cpu-prof'];
const profDir = path.join(dataDir, 'profiles');
const push = (ledger, extra = []) => ({
  script: cli,
  args: [
    'push',
    data.file,
    '-c',
    data.config,
    '--base-url',
    receiver.url,
    '--state',
    ledger,
    ...extra,
    '--json',
  ],
  env: { REVIMPORT_API_KEY: apiKey },
  nodeArgs: cpuProf ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [],
});

/** The programs, in the order of the first round; later rounds rotate it (push-again stays after push). */
const allPrograms = [
  {
    name: 'ceiling',
    label: 'csv-parse ceiling',
    spec: () => ({ script: path.join(benchDir, 'peers', 'ceiling.js'), args: [data.file] }),
  },
  {
    name: 'naive',
    label: 'naive script',
    spec: () => ({
      script: path.join(benchDir, 'peers', 'naive.js'),
      args: [data.file, receiver.url],
      env: { REVIMPORT_API_KEY: apiKey },
    }),
    expectDelivered: rows,
  },
  {
    name: 'push',
    label: 'revimport push',
    before: () => removeLedger(ledgerFile),
    spec: () => push(ledgerFile, ['--rejects', rejectsFile]),
    check: (s) => s.sent === s.valid && s.rowsRead === rows,
  },
  {
    name: 'rerun',
    label: 'push again (all sent)',
    spec: () => push(ledgerFile),
    check: (s) => s.alreadySent === s.valid && s.sent === 0,
  },
  {
    name: 'check',
    label: 'revimport push --check',
    spec: () => ({ ...push(ledgerFile, ['--check']) }),
    check: (s) => s.rowsRead === rows,
  },
  {
    // The e-mail taken from a second export by key (mapping.lookup): here the data file itself, so the
    // lookup file has as many rows as the input and every key is found. Against `check`: the index build
    // and one look-up per row; peak RSS shows whether the lookup file is held in memory.
    name: 'lookup',
    label: 'push --check, e-mail by lookup',
    spec: () => {
      const spec = push(ledgerFile, ['--check']);
      return { ...spec, args: spec.args.map((a) => (a === data.config ? lookupConfig() : a)) };
    },
    check: (s) => s.rowsRead === rows && s.valid > 0,
  },
];
// The same push with the rows read and checked on the row thread (REVIMPORT_ROW_THREAD=1), on a ledger of its
// own: the split the default (rows on the main thread, since Session 21) is measured against, in the same rounds.
// Only when named (--programs push,rerun,push-thread,rerun-thread).
const threadLedger = path.join(workDir, 'ledger-thread.db');
const onRowThread = (spec) => ({ ...spec, env: { ...spec.env, REVIMPORT_ROW_THREAD: '1' } });
const splitPrograms = [
  {
    name: 'push-thread',
    label: 'push, rows on the row thread',
    before: () => removeLedger(threadLedger),
    spec: () => onRowThread(push(threadLedger, ['--rejects', rejectsFile])),
    check: (s) => s.sent === s.valid && s.rowsRead === rows,
  },
  {
    name: 'rerun-thread',
    label: 'push again, rows on the row thread',
    spec: () => onRowThread(push(threadLedger)),
    check: (s) => s.alreadySent === s.valid && s.sent === 0,
  },
];
if (prefilled) {
  allPrograms.push({
    name: 'prefilled',
    label: `push, ${prefill} in ledger`,
    before: () => copyPrefilled(prefilled, prefilledLedger, receiver.url),
    spec: () => push(prefilledLedger, ['--rejects', rejectsFile]),
    check: (s) => s.sent === s.valid && s.rowsRead === rows,
  });
}
const postgresUrl = values.state;
if (postgresUrl !== undefined) {
  if (!/^postgres(ql)?:\/\//i.test(postgresUrl)) throw new Error('--state: a postgres:// URL');
  // The bench drops the ledger schema before each push: never in a database that may hold a real ledger.
  const database = decodeURIComponent(new URL(postgresUrl).pathname.slice(1));
  if (!/bench/i.test(database)) {
    throw new Error(
      `--state: the bench empties the ledger (DROP SCHEMA revimport) of the database it is given; name one for it (its name must contain "bench"), not ${database || 'the default database'}`,
    );
  }
  allPrograms.push(
    {
      name: 'pg-push',
      label: 'push, PostgreSQL ledger',
      before: () => dropPostgresLedger(postgresUrl),
      spec: () => push(postgresUrl, ['--rejects', rejectsFile]),
      check: (s) => s.sent === s.valid && s.rowsRead === rows,
    },
    {
      name: 'pg-rerun',
      label: 'push again, PostgreSQL ledger',
      spec: () => push(postgresUrl),
      check: (s) => s.alreadySent === s.valid && s.sent === 0,
    },
  );
}
const wanted = values.programs?.split(',').map((s) => s.trim());
const chosen = wanted
  ? [...allPrograms, ...splitPrograms].filter((p) => wanted.includes(p.name))
  : allPrograms;
const programs = values.baseline === undefined ? chosen : [...chosen, ...onBaseline(chosen, values.baseline)];
if (wanted?.includes('rerun') && !wanted.includes('push')) throw new Error('--programs: rerun needs push');
if (wanted?.includes('rerun-thread') && !wanted.includes('push-thread'))
  throw new Error('--programs: rerun-thread needs push-thread');
if (wanted?.includes('pg-rerun') && !wanted.includes('pg-push'))
  throw new Error('--programs: pg-rerun needs pg-push');

const runs = Object.fromEntries(programs.map((p) => [p.name, []]));
for (let round = 0; round < rounds; round++) {
  for (const program of rotate(programs, round)) {
    await program.before?.();
    // The previous program's dirty pages (a push writes its ledger, ~260 MB at 1M) are written back now, not
    // during the next program: a --check right after a short re-push read 1.3 x slower than alone (Session 21).
    spawnSync('sync');
    delivered = 0;
    const result = await measure({ cwd: workDir, ...program.spec() });
    const summary = parseSummary(result.stdout);
    const ok = result.code === 0 || (result.code === 1 && summary?.invalid > 0);
    if (!ok || (program.check && !program.check(summary ?? {}))) {
      log(`${program.name}: exit ${result.code}\n${result.stdout.slice(0, 2000)}\n${result.stderr}`);
      throw new Error(`${program.name} did not do its work in round ${round + 1}`);
    }
    const expected = program.expectDelivered ?? summary?.sent;
    if (expected !== undefined && delivered !== expected) {
      throw new Error(`${program.name}: the receiver got ${delivered} records, expected ${expected}`);
    }
    const { wallMs, maxRssKiB, cpuMs, mainCpuMs, workerCpuMs, gcMs, benchCpuMs } = result;
    runs[program.name].push({ wallMs, maxRssKiB, cpuMs, mainCpuMs, workerCpuMs, gcMs, benchCpuMs });
    log(
      `round ${round + 1} ${program.name.padEnd(9)} ${(wallMs / 1000).toFixed(2)} s  ` +
        `${(maxRssKiB / 1024).toFixed(0)} MiB  cpu ${(cpuMs / 1000).toFixed(2)} s  ` +
        `main ${(mainCpuMs / 1000).toFixed(2)} s  workers ${(workerCpuMs / 1000).toFixed(2)} s  ` +
        `gc ${(gcMs / 1000).toFixed(2)} s  receiver ${(benchCpuMs / 1000).toFixed(2)} s`,
    );
  }
}
await receiver.close();

const startup = values.startup ? await measureStartup(cli, workDir) : undefined;
const result = {
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    memMiB: Math.round(totalmem() / 2 ** 20),
    node: process.version,
  },
  rows,
  rounds,
  prefill,
  bytes: data.bytes,
  ...summarize(runs, rows, prefill),
  ...(startup ? { startup } : {}),
};
process.stdout.write(`${formatTable(result)}\n`);
mkdirSync(path.join(benchDir, 'results'), { recursive: true });
writeFileSync(path.join(benchDir, 'results', 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
log('written: bench/results/latest.json');

function usage() {
  const text = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  const head = text.slice(0, text.indexOf('\nimport ')).replace(/^\/\/ ?/gm, '');
  return `usage: npm run bench -- [flags]\n\n${head}\n`;
}

/**
 * The chosen revimport programs run again with the build in `dir`: same data, same receiver, ledgers of
 * their own, so each round measures both builds under the same load.
 */
function onBaseline(chosen, dir) {
  const baseCli = path.resolve(dir, 'bin', 'revimport.js');
  if (!existsSync(baseCli)) throw new Error(`--baseline: no ${baseCli} (a built revimport folder)`);
  const twins = new Map([
    [ledgerFile, path.join(workDir, 'ledger-base.db')],
    [prefilledLedger, path.join(workDir, 'ledger-prefilled-base.db')],
  ]);
  const befores = {
    push: () => removeLedger(twins.get(ledgerFile)),
    prefilled: () => copyPrefilled(prefilled, twins.get(prefilledLedger), receiver.url),
  };
  return chosen
    .filter((p) => ['push', 'rerun', 'check', 'lookup', 'prefilled'].includes(p.name))
    .map((p) => ({
      ...p,
      name: `${p.name}@base`,
      label: `${p.label} (baseline)`,
      before: befores[p.name],
      spec: () => {
        const spec = p.spec();
        return { ...spec, script: baseCli, args: spec.args.map((a) => twins.get(a) ?? a) };
      },
    }));
}

function ensureBuilt() {
  if (
    existsSync(path.join(root, 'dist', 'testing', 'receiver.js')) &&
    existsSync(path.join(root, 'dist', 'cli', 'main.js'))
  )
    return;
  log('dist/ is missing: running npm run build');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    log('bench: the build failed; fix it (npm run build) and run the benchmark again');
    process.exit(2);
  }
}

/** The bench config with conversionEmail taken by mapping.lookup from the data file (keyed by Order ID). */
function lookupConfig() {
  const file = path.join(dataDir, 'revimport.bench-lookup.json');
  const config = JSON.parse(readFileSync(data.config, 'utf8'));
  config.mapping.fields.conversionEmail = { lookup: 'Email' };
  config.mapping.lookup = { file: data.file, key: 'Order ID', match: 'Order ID' };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

function rotate(list, round) {
  // push-again must follow push: rotate the list as a whole, then move rerun right after push.
  const shift = round % list.length;
  const turned = [...list.slice(shift), ...list.slice(0, shift)];
  for (const [again, first] of [
    ['rerun', 'push'],
    ['rerun@base', 'push@base'],
    ['pg-rerun', 'pg-push'],
    ['rerun-thread', 'push-thread'],
  ]) {
    const rerun = turned.findIndex((p) => p.name === again);
    if (rerun < 0) continue;
    const [item] = turned.splice(rerun, 1);
    turned.splice(turned.findIndex((p) => p.name === first) + 1, 0, item);
  }
  return turned;
}

/** An empty PostgreSQL ledger for the next push: the schema dropped (the next run creates it). */
async function dropPostgresLedger(url) {
  const { default: postgres } = await import('postgres');
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe('DROP SCHEMA IF EXISTS revimport CASCADE');
  } finally {
    await sql.end();
  }
}

function parseSummary(stdout) {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}
