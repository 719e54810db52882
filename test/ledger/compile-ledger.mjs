// Transpiles src/ledger (and the modules it imports: errors, quote, record/fields, record/number-bytes,
// record/json-bytes, young-generation, collect-garbage, grown-array) to plain ESM in a folder, so a spawned
// child process or a benchmark can run the real ledger code: Node 20 cannot run .ts, and
// dist/ may not be built. Type-stripping only (typescript's transpileModule), no checking.

import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** @param {string} outDir @returns {string} the path of ledger/ledger.js inside outDir */
export function compileLedger(outDir) {
  const sources = [
    join(root, 'src/errors.ts'),
    join(root, 'src/quote.ts'),
    join(root, 'src/record/fields.ts'),
    join(root, 'src/record/number-bytes.ts'),
    join(root, 'src/record/json-bytes.ts'),
    join(root, 'src/young-generation.ts'),
    join(root, 'src/collect-garbage.ts'),
    join(root, 'src/grown-array.ts'),
    ...readdirSync(join(root, 'src/ledger'))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(root, 'src/ledger', name)),
  ];
  for (const source of sources) {
    const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    const target = join(outDir, relative(join(root, 'src'), source)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  writeFileSync(join(outDir, 'package.json'), '{"type":"module"}\n');
  // ESM ignores NODE_PATH: a node_modules link is how the copy finds better-sqlite3.
  symlinkSync(join(root, 'node_modules'), join(outDir, 'node_modules'), 'dir');
  return join(outDir, 'ledger', 'ledger.js');
}
