// `--startup`: how long `revimport --version` and `--help` take as whole processes (median of 15),
// next to a bare `node -e 0` for the floor of this machine.
import { measure, median } from './measure.js';

const RUNS = 15;

export async function measureStartup(cli, cwd) {
  const cases = {
    'node -e 0 (floor)': { script: '-e', args: ['0'] },
    'revimport --version': { script: cli, args: ['--version'] },
    'revimport --help': { script: cli, args: ['--help'] },
  };
  const out = {};
  for (const [name, spec] of Object.entries(cases)) {
    const times = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const result = await measure({ cwd, ...spec });
      if (result.code !== 0) throw new Error(`${name} exited ${result.code}: ${result.stderr}`);
      if (i > 0) times.push(result.wallMs);
    }
    out[name] = Math.round(median(times));
  }
  return out;
}
