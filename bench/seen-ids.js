// Micro-benchmark of the in-run duplicate check (SeenIds, issue 23): bytes held per distinct id and ns per
// add(), for this build and, with --baseline <dir>, an older build's dist/ side by side, alternating which
// goes first each round in one process (the box is shared and noisy: compare the per-round ratios).
// This build runs twice: as a run makes it ("new": its exact keys spilled to disk past 2^20 of them) and
// with every key kept in memory ("kept": spillAfter Infinity); past 2^20 ids the two differ. "bytes/id" is
// what SeenIds reports at the end, "most/id" the most it reported (every 65,536 adds), "heap/id" the heap and
// ArrayBuffers still held after a gc.
// Usage: npx tsc -p tsconfig.build.json && node --expose-gc bench/seen-ids.js \
//          [--baseline /tmp/seen-base] [--counts 1000000,5000000] [--kinds bench,sequential,numeric] [--rounds 3]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { orderId } from './generate.js';
import { median } from './measure.js';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    counts: { type: 'string', default: '1000000,5000000' },
    kinds: { type: 'string', default: 'bench,sequential,numeric' },
    rounds: { type: 'string', default: '3' },
  },
});

const load = async (dir) => (await import(resolve(dir, 'dist/pipeline/seen-ids.js'))).SeenIds;
const built = await load(resolve(import.meta.dirname, '..'));
/** Name, class and constructor options of each build measured. */
const builds = [
  ['new', built, {}],
  ['kept', built, { spillAfter: Number.POSITIVE_INFINITY }],
];
if (values.baseline) builds.push(['old', await load(values.baseline), {}]);

/** Plain numbers of 6 to 9 digits, a scrambled bijection of 10^5..10^9-1 (mostly 9 digits, as uniform). */
const numericSpace = 999_900_000n;
const numericId = (i) => String(100_000n + ((BigInt(i) * 2_654_435_761n + 977n) % numericSpace));

const kinds = {
  bench: orderId,
  sequential: (i) => `ORD-${String(i + 1).padStart(10, '0')}`,
  numeric: numericId,
};

const gc = globalThis.gc ?? (() => {});
const held = () => {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

/**
 * One build over the ids: ns per add, bytes it reports (at the end and the most), and heap + ArrayBuffers it
 * holds after a gc.
 */
function measure([, SeenIds, options], ids) {
  const before = held();
  // CPU time, not wall time: on a shared box the wall clock also counts the time other processes ran (and
  // system time counts too: the spilled run's reads and writes).
  const start = process.cpuUsage();
  const seen = new SeenIds(options);
  let added = 0;
  let most = 0;
  for (let i = 0; i < ids.length; i++) {
    if (seen.add(ids[i])) added++;
    if ((i & 0xffff) === 0xffff) most = Math.max(most, seen.bytes);
  }
  const cpu = process.cpuUsage(start);
  const ns = ((cpu.user + cpu.system) * 1000) / ids.length;
  if (added !== ids.length) throw new Error(`${added} of ${ids.length} distinct ids taken as new`);
  if (seen.add(ids[0]) || seen.add(ids[ids.length - 1])) throw new Error('a repeat taken as new');
  const heap = held() - before;
  const bytes = seen.bytes;
  // The old build has no close (nor a file to close).
  seen.close?.();
  return { ns, bytes, most: Math.max(most, bytes), heap };
}

const fixed = (n, digits = 2) => n.toFixed(digits);

console.log(
  'kind        ids      build  bytes/id  most/id  heap/id  CPU ns/add (rounds)      ns vs old: median (rounds)',
);
for (const kind of values.kinds.split(',')) {
  for (const count of values.counts.split(',').map(Number)) {
    const ids = Array.from({ length: count }, (_, i) => kinds[kind](i));
    const runs = new Map(builds.map(([name]) => [name, []]));
    // A first pass for each build, so neither's rounds include its compilation or the heap's first growth.
    for (const build of builds) measure(build, ids);
    for (let round = 0; round < Number(values.rounds); round++) {
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      for (const build of order) runs.get(build[0]).push(measure(build, ids));
    }
    const fastest = (name) => Math.min(...runs.get(name).map((run) => run.ns));
    const ratios = (name) => runs.get(name).map((run, i) => run.ns / runs.get('old')[i].ns);
    for (const [name, list] of runs) {
      const ns = list.map((run) => fixed(run.ns, 0)).join(' ');
      const ratio =
        name !== 'old' && runs.has('old')
          ? `${fixed(median(ratios(name)))} (${ratios(name)
              .map((r) => fixed(r))
              .join(' ')}; fastest/fastest ${fixed(fastest(name) / fastest('old'))})`
          : '';
      console.log(
        `${kind.padEnd(11)} ${String(count).padStart(8)} ${name.padStart(5)}  ${fixed(list[0].bytes / count).padStart(8)}  ${fixed(list[0].most / count).padStart(7)}  ${fixed(median(list.map((r) => r.heap)) / count).padStart(7)}  ${ns.padEnd(24)}  ${ratio}`,
      );
    }
  }
}
