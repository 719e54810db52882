// better-sqlite3 12 aborts a Node 24 process when the garbage collector finalizes a Statement (ledger/native.ts),
// so every statement revimport prepares must be retained. A statement prepared without `retain` passed every test
// on Node 20 and aborted three end-to-end tests on CI's Node 24 leg (issue 19's migration check); this finds one
// before a Node 24 run does.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../helpers/cli.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('better-sqlite3 objects in src/', () => {
  it('every prepared statement and every Database is retained', () => {
    const unretained: string[] = [];
    for (const file of sources(path.join(root, 'src'))) {
      // Comments may name the calls; only code counts.
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const [pattern, retained] of [
        [/\.prepare\(/g, /retain\(\s*[\w.#]+\.prepare\(/g],
        [/new Database\(/g, /retain\(\s*new Database\(/g],
      ] as const) {
        const all = code.match(pattern)?.length ?? 0;
        const kept = code.match(retained)?.length ?? 0;
        if (all !== kept)
          unretained.push(`${path.relative(root, file)}: ${all - kept} of ${all} ${pattern.source}`);
      }
    }
    expect(unretained).toEqual([]);
  });
});
