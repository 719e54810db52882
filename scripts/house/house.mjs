// The house rules of src/ that a linter does not know: no import circle between modules (type-only imports
// count), rooms import only the rooms below them (docs/architecture.md), and every module opens with a
// comment saying its purpose. `npm run lint` runs it: node scripts/house/house.mjs [src folder]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** The folders under src/ ("rooms") and the rooms each may import; the top-level files are `base`. */
export const rooms = {
  base: [],
  input: ['base'],
  report: ['base', 'input'],
  record: ['base', 'input', 'report'],
  ledger: ['base', 'report', 'record'],
  transport: ['base', 'record'],
  config: ['base', 'record', 'ledger', 'transport'],
  mapping: ['base', 'input', 'record', 'report', 'config'],
  pipeline: ['base', 'input', 'report', 'record', 'ledger', 'transport', 'config', 'mapping'],
  init: ['base', 'input', 'report', 'record', 'ledger', 'config', 'mapping', 'pipeline'],
  testing: ['base', 'input', 'report', 'record', 'ledger', 'transport', 'config', 'mapping', 'pipeline'],
  cli: [
    'base',
    'input',
    'report',
    'record',
    'ledger',
    'transport',
    'config',
    'mapping',
    'pipeline',
    'init',
    'testing',
  ],
};

function* modulesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* modulesUnder(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** The modules of src/ each file imports or re-exports (relative specifiers), type-only ones included. */
export function importGraph(root) {
  const graph = new Map();
  for (const path of modulesUnder(root)) {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false);
    const targets = new Set();
    for (const statement of source.statements) {
      const specifier =
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier
          ? statement.moduleSpecifier.text
          : undefined;
      if (!specifier?.startsWith('.')) continue;
      const target = resolve(dirname(path), specifier.replace(/\.js$/, '.ts'));
      if (existsSync(target)) targets.add(target);
    }
    graph.set(path, { targets, source });
  }
  return graph;
}

/** Strongly connected groups of more than one module (Tarjan), as paths relative to root. */
export function circles(root, graph = importGraph(root)) {
  let next = 0;
  const stack = [];
  const marks = new Map();
  const found = [];
  const visit = (v) => {
    const mark = { index: next, low: next, onStack: true };
    next += 1;
    marks.set(v, mark);
    stack.push(v);
    for (const w of graph.get(v)?.targets ?? []) {
      if (!marks.has(w)) {
        visit(w);
        mark.low = Math.min(mark.low, marks.get(w).low);
      } else if (marks.get(w).onStack) mark.low = Math.min(mark.low, marks.get(w).index);
    }
    if (mark.low !== mark.index) return;
    const group = [];
    let w;
    do {
      w = stack.pop();
      marks.get(w).onStack = false;
      group.push(relative(root, w));
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!marks.has(v)) visit(v);
  return found;
}

export function roomOf(root, path) {
  const parts = relative(root, path).split(sep);
  return parts.length === 1 ? 'base' : parts[0];
}

/** Imports that go up or sideways: "from -> to (room -> room)". */
export function roomViolations(root, graph = importGraph(root), table = rooms) {
  const out = [];
  for (const [path, { targets }] of graph) {
    const from = roomOf(root, path);
    for (const target of targets) {
      const to = roomOf(root, target);
      if (from === to) continue;
      const allowed = table[from];
      if (!allowed?.includes(to)) {
        out.push(`${relative(root, path)} -> ${relative(root, target)} (${from} may not import ${to})`);
      }
    }
  }
  return out.sort();
}

/** Modules whose first line is not a comment. */
export function withoutPurpose(root, graph = importGraph(root)) {
  const out = [];
  for (const [path, { source }] of graph) {
    const text = source.text.trimStart();
    if (!text.startsWith('//') && !text.startsWith('/*')) out.push(relative(root, path));
  }
  return out.sort();
}

export function checkHouse(root) {
  const graph = importGraph(root);
  return {
    circles: circles(root, graph),
    rooms: roomViolations(root, graph),
    purpose: withoutPurpose(root, graph),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(process.argv[2] ?? join(import.meta.dirname, '../../src'));
  const found = checkHouse(root);
  for (const group of found.circles) console.error(`import circle: ${group.join(' <-> ')}`);
  for (const line of found.rooms) console.error(`room rule: ${line}`);
  for (const file of found.purpose) console.error(`no purpose comment on its first line: ${file}`);
  const problems = found.circles.length + found.rooms.length + found.purpose.length;
  if (problems > 0) {
    console.error(`house: ${problems} problem(s) in ${root} (see docs/architecture.md)`);
    process.exitCode = 1;
  }
}
