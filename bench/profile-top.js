// Prints the top functions of a V8 .cpuprofile by self time (and the files they are in):
// node bench/profile-top.js <file.cpuprofile> [count]
// With a second profile, the functions whose self time grew most from it to the first (ms: the difference, the
// first's, the second's), e.g. a push again against a `--check` of the same build:
// node bench/profile-top.js <file.cpuprofile> [count] <other.cpuprofile>
import { readFileSync } from 'node:fs';

const [file, countText = '25', other] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top.js <file.cpuprofile> [count] [other.cpuprofile]');
const count = Number(countText);

/** Self time (us) by function and place. */
function selfTimes(path) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (dt[i] ?? 0));
  }
  return self;
}

const ms = (us) => (us / 1e3).toFixed(0).padStart(7);
const self = selfTimes(file);
const total = [...self.values()].reduce((a, b) => a + b, 0);
if (other === undefined) {
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
  process.stdout.write(`total ${(total / 1e6).toFixed(2)} s sampled\n`);
  for (const [name, us] of top) {
    process.stdout.write(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${ms(us)} ms  ${name}\n`);
  }
} else {
  const base = selfTimes(other);
  const baseTotal = [...base.values()].reduce((a, b) => a + b, 0);
  const names = new Set([...self.keys(), ...base.keys()]);
  const rows = [...names].map((name) => [name, (self.get(name) ?? 0) - (base.get(name) ?? 0)]);
  rows.sort((a, b) => b[1] - a[1]);
  process.stdout.write(
    `total ${(total / 1e6).toFixed(2)} s against ${(baseTotal / 1e6).toFixed(2)} s sampled\n`,
  );
  process.stdout.write('   grew ms   this ms  other ms\n');
  for (const [name, grew] of rows.slice(0, count)) {
    process.stdout.write(`${ms(grew)}   ${ms(self.get(name) ?? 0)}   ${ms(base.get(name) ?? 0)}  ${name}\n`);
  }
}
