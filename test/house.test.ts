// The house rules (scripts/house/house.mjs, docs/architecture.md): no import circle, rooms import only the
// rooms below them, every module says its purpose on its first line. Checked on src/ and shown to catch
// each kind of breach on a tree of its own.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkHouse, rooms } from '../scripts/house/house.mjs';
import { tempDir } from './helpers/cli.js';

function tree(files: Record<string, string>): string {
  const root = join(tempDir(), 'src');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

describe('the house rules', () => {
  it('hold on src/', () => {
    expect(checkHouse(join(import.meta.dirname, '../src'))).toEqual({ circles: [], rooms: [], purpose: [] });
  });

  it('find a circle, type-only imports included', () => {
    const root = tree({
      'record/a.ts': "// a\nimport type { B } from './b.js';\nexport type A = B;\n",
      'record/b.ts': "// b\nimport { c } from './c.js';\nexport type B = string;\nexport const b = c;\n",
      'record/c.ts': "// c\nimport type { A } from './a.js';\nexport const c: A = '';\n",
      'record/d.ts': "// d, outside the circle\nimport { c } from './c.js';\nexport const d = c;\n",
    });
    expect(checkHouse(root).circles).toEqual([['record/a.ts', 'record/b.ts', 'record/c.ts']]);
  });

  it('find an import that goes up a room, and one sideways', () => {
    const root = tree({
      'record/money.ts':
        "// money\nimport type { Field } from '../mapping/field.js';\nexport type M = Field;\n",
      'mapping/field.ts': "// field\nimport type { M } from '../record/other.js';\nexport type Field = M;\n",
      'record/other.ts': '// other\nexport type M = number;\n',
      'transport/send.ts': "// send\nimport { open } from '../ledger/open.js';\nexport const send = open;\n",
      'ledger/open.ts': '// open\nexport const open = 1;\n',
    });
    expect(checkHouse(root).rooms).toEqual([
      'record/money.ts -> mapping/field.ts (record may not import mapping)',
      'transport/send.ts -> ledger/open.ts (transport may not import ledger)',
    ]);
  });

  it('find a module that does not open with its purpose', () => {
    const root = tree({
      'input/said.ts': '/** Reads rows. */\nexport const a = 1;\n',
      'input/unsaid.ts': "import { a } from './said.js';\nexport const b = a;\n",
    });
    expect(checkHouse(root).purpose).toEqual(['input/unsaid.ts']);
  });

  describe('docs/architecture.md matches the code', () => {
    const root = join(import.meta.dirname, '..');
    const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

    it('names only files that exist', () => {
      const named = [...doc.matchAll(/`((?:src|test|scripts)\/[\w./-]+\.(?:ts|mjs))`/g)].map((m) => m[1]!);
      expect(named.length).toBeGreaterThan(40);
      expect(named.filter((file) => !existsSync(join(root, file)))).toEqual([]);
    });

    it('gives each room the imports the house rules allow', () => {
      const table = Object.fromEntries(
        [
          ...doc
            .slice(doc.indexOf('## The rooms'), doc.indexOf('## A run'))
            .matchAll(/^\| (\w+) \| [^|]+ \|([^|]*)\|$/gm),
        ]
          .filter((m) => m[1] !== 'room')
          .map((m) => [
            m[1]!,
            m[2]!
              .split(',')
              .map((room) => room.trim())
              .filter(Boolean),
          ]),
      );
      expect(table).toEqual(rooms);
    });
  });
});
