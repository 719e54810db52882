// Micro-benchmark of the in-run duplicate check (SeenIds, issue 23): bytes held per distinct id and ns per
// add(), for this build and, with --baseline <dir>, an older build's dist/ side by side, alternating which
// goes first each round in one process (the box is shared and noisy: compare the per-round ratios).
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
const builds = [['new', await load(resolve(import.meta.dirname, '..'))]];
if (values.baseline) builds.push(['old', await load(values.baseline)]);

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

/** One build over the ids: ns per add, bytes it reports, and heap + ArrayBuffers it holds after a gc. */
function measure(SeenIds, ids) {
  const before = held();
  // CPU time, not wall time: on a shared box the wall clock also counts the time other processes ran.
  const start = process.cpuUsage();
  const seen = new SeenIds();
  let added = 0;
  for (const id of ids) if (seen.add(id)) added++;
  const cpu = process.cpuUsage(start);
  const ns = ((cpu.user + cpu.system) * 1000) / ids.length;
  if (added !== ids.length) throw new Error(`${added} of ${ids.length} distinct ids taken as new`);
  if (seen.add(ids[0]) || seen.add(ids[ids.length - 1])) throw new Error('a repeat taken as new');
  const heap = held() - before;
  return { ns, bytes: seen.bytes, heap };
}

const fixed = (n, digits = 2) => n.toFixed(digits);

console.log(
  'kind        ids      build  bytes/id  heap/id  CPU ns/add (rounds)      ns new/old: median (rounds)',
);
for (const kind of values.kinds.split(',')) {
  for (const count of values.counts.split(',').map(Number)) {
    const ids = Array.from({ length: count }, (_, i) => kinds[kind](i));
    const runs = new Map(builds.map(([name]) => [name, []]));
    // A first pass for each build, so neither's rounds include its compilation or the heap's first growth.
    for (const [, SeenIds] of builds) measure(SeenIds, ids);
    for (let round = 0; round < Number(values.rounds); round++) {
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      for (const [name, SeenIds] of order) runs.get(name).push(measure(SeenIds, ids));
    }
    const fastest = (name) => Math.min(...runs.get(name).map((run) => run.ns));
    const ratios = runs.has('old') ? runs.get('new').map((run, i) => run.ns / runs.get('old')[i].ns) : [];
    for (const [name, list] of runs) {
      const ns = list.map((run) => fixed(run.ns, 0)).join(' ');
      const ratio =
        name === 'new' && ratios.length > 0
          ? `${fixed(median(ratios))} (${ratios.map((r) => fixed(r)).join(' ')}; fastest/fastest ${fixed(fastest('new') / fastest('old'))})`
          : '';
      console.log(
        `${kind.padEnd(11)} ${String(count).padStart(8)} ${name.padStart(5)}  ${fixed(list[0].bytes / count).padStart(8)}  ${fixed(median(list.map((r) => r.heap)) / count).padStart(7)}  ${ns.padEnd(24)}  ${ratio}`,
      );
    }
  }
}
