// Lists the import circles in src/ (strongly connected modules), type-only imports included: the house
// issue asks for none. Usage: node scripts/house/circles.mjs [--values-only]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '../../src');
const valuesOnly = process.argv.includes('--values-only');

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

/** The modules one file imports (relative specifiers, resolved to .ts files). */
export function importsOf(path) {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false);
  const out = new Set();
  for (const statement of source.statements) {
    let specifier;
    let typeOnly = false;
    if (ts.isImportDeclaration(statement)) {
      specifier = statement.moduleSpecifier.text;
      const clause = statement.importClause;
      typeOnly =
        clause?.isTypeOnly === true ||
        (clause !== undefined &&
          clause.name === undefined &&
          clause.namedBindings !== undefined &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((e) => e.isTypeOnly));
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      specifier = statement.moduleSpecifier.text;
      typeOnly = statement.isTypeOnly;
    }
    if (!specifier?.startsWith('.') || (valuesOnly && typeOnly)) continue;
    const target = resolve(dirname(path), specifier.replace(/\.js$/, '.ts'));
    if (existsSync(target)) out.add(target);
  }
  return out;
}

const graph = new Map([...files(root)].map((path) => [path, importsOf(path)]));

// Tarjan's strongly connected components.
let index = 0;
const stack = [];
const state = new Map();
const circles = [];
function connect(v) {
  state.set(v, { index, low: index, onStack: true });
  index += 1;
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!state.has(w)) {
      connect(w);
      state.get(v).low = Math.min(state.get(v).low, state.get(w).low);
    } else if (state.get(w).onStack) state.get(v).low = Math.min(state.get(v).low, state.get(w).index);
  }
  if (state.get(v).low === state.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      state.get(w).onStack = false;
      component.push(relative(root, w));
    } while (w !== v);
    if (component.length > 1) circles.push(component.sort());
  }
}
for (const v of graph.keys()) if (!state.has(v)) connect(v);
for (const c of circles) console.log(c.join(' <-> '));
console.log(
  `${circles.length} circle(s)${valuesOnly ? ' (value imports)' : ' (type-only imports included)'}`,
);
process.exitCode = circles.length > 0 ? 1 : 0;
