// Prints the top functions of a V8 .cpuprofile by self time (and the files they are in):
// node bench/profile-top.js <file.cpuprofile> [count]
import { readFileSync } from 'node:fs';

const [file, countText = '25'] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top.js <file.cpuprofile> [count]');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i]);
  const { functionName, url, lineNumber } = node.callFrame;
  const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${lineNumber + 1}`;
  self.set(name, (self.get(name) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(countText));
process.stdout.write(`total ${(total / 1e6).toFixed(2)} s sampled\n`);
for (const [name, us] of top) {
  process.stdout.write(
    `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${name}\n`,
  );
}
