// Lists the functions of src/ longer than a limit (default 80 lines), longest first: the house issue's table.
// Usage: node scripts/house/long-functions.mjs [limit] [--json]
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const limit = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 80);
const root = join(import.meta.dirname, '../../src');

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

const found = [];
for (const path of files(root)) {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = end - start + 1;
      if (lines > limit) found.push({ file: relative(join(root, '..'), path), name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
found.sort((a, b) => b.lines - a.lines);
if (process.argv.includes('--json')) console.log(JSON.stringify(found));
else for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.file}  ${f.name}`);
