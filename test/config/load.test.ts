// Config files on a real temp folder: TypeScript configs are refused with a way out; a JS config's
// exported transform is kept (issue 13).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, loadMappingFile } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';

const tsConfig = `import type { Config } from 'revimport';\nexport default { currency: 'EUR' } satisfies Config;\n`;

describe('loadConfig', () => {
  it.each(['revimport.config.ts', '.revimportrc.ts', '.config/revimportrc.ts'])(
    'refuses %s found by the search, naming it and what to do',
    async (name) => {
      const cwd = tempDir();
      mkdirSync(path.join(cwd, '.config'));
      writeFileSync(path.join(cwd, name), tsConfig);
      const error = await loadConfig({ cwd }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toBe(
        `${path.join(cwd, name)}: TypeScript config files are not supported`,
      );
      expect((error as ConfigError).hint).toMatch(/^rename .+\.mjs and remove its type annotations/);
    },
  );

  it('refuses -c file.ts and -m file.ts the same way', async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, 'mine.ts'), tsConfig);
    await expect(loadConfig({ cwd, configPath: 'mine.ts' })).rejects.toThrow(
      /mine\.ts: TypeScript config files are not supported/,
    );
    await expect(loadMappingFile('mine.ts', cwd)).rejects.toThrow(
      /TypeScript config files are not supported/,
    );
  });

  it('keeps the transform a JS config exports next to its default export', async () => {
    const cwd = tempDir();
    writeFileSync(
      path.join(cwd, 'revimport.config.mjs'),
      "export default { currency: 'EUR' };\nexport function transform(row) { return { ...row, conversionName: 'X' }; }\n",
    );
    const loaded = await loadConfig({ cwd });
    expect(loaded.filepath).toBe(path.join(cwd, 'revimport.config.mjs'));
    expect(loaded.config.currency).toBe('EUR');
    expect(typeof loaded.config.transform).toBe('function');
  });
});
