// Issue 24: the config init writes is read by the next push, whatever the sample's cells hold.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { toYaml } from '../../src/config/write-yaml.js';
import { hostileCells, unprintableIn } from '../helpers/unprintable.js';

describe('toYaml with text quoted from cells', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'write-yaml-'));

  it.each(hostileCells)(
    '%j in a comment and a value: the loader reads the file, the value intact',
    async (cell) => {
      const text = toYaml([
        {
          key: 'mapping',
          comment: `>> review: "Status" holds ${cell} (3)\nsecond line`,
          children: [
            {
              key: 'fields',
              children: [
                { key: 'serviceId', value: `Visitor ${cell}`, comment: `init chose ${cell}` },
                { key: 'conversionId', suggestion: cell, comment: 'runner-up' },
              ],
            },
            { key: 'keep', value: [{ column: cell, in: [cell, 'paid'] }] },
          ],
        },
      ]);
      expect(unprintableIn(text)).toEqual([]);
      // A CR in a comment would end it early: every comment line still starts with #.
      expect(text.split('\n').filter((line) => line.includes('review') || line.includes('second'))).toEqual([
        expect.stringMatching(/^# >> review/),
        '# second line',
      ]);
      const file = path.join(dir, 'revimport.config.yaml');
      writeFileSync(file, text);
      const { config } = await loadConfig({ configPath: file, cwd: dir });
      expect(config.mapping?.fields.serviceId).toBe(`Visitor ${cell}`);
      expect(config.mapping?.keep).toEqual([{ column: cell, in: [cell, 'paid'] }]);
    },
  );
});
