// mapping.skip: rows left out on purpose are counted as skipped, never as valid or invalid.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/pipeline/run.js';
import { tempDir } from '../helpers/cli.js';
import { simpleMapping, testSettings } from '../helpers/settings.js';

const dir = tempDir('revimport-skip-');
const check = (file: string, skip: unknown) =>
  runPipeline(
    testSettings({ mappingInput: { ...simpleMapping, skip } as never, timezone: 'UTC' }),
    { files: [file], check: true, resend: false },
    { userAgent: 't', now: () => 0 },
  );

describe('mapping.skip', () => {
  it('leaves out CSV rows whose column holds a listed value, any case, trimmed', async () => {
    const file = path.join(dir, 'a.csv');
    writeFileSync(
      file,
      'id,visitor,time,value,currency,status\n1,v,1710405000,1,EUR,paid\n2,v,1710405000,1,EUR, FAILED \n3,v,bad,1,EUR,canceled\n',
    );
    const summary = await check(file, [{ column: 'status', in: ['Failed', 'Canceled'] }]);
    expect([summary.rowsRead, summary.valid, summary.invalid, summary.skipped]).toEqual([3, 1, 0, 2]);
  });

  it('leaves out JSON lines by path', async () => {
    const file = path.join(dir, 'a.jsonl');
    const line = (status: string) =>
      JSON.stringify({
        id: status,
        visitor: 'v',
        time: 1710405000,
        value: 1,
        currency: 'EUR',
        meta: { status },
      });
    writeFileSync(file, `${['ok', 'test', 'ok2'].map(line).join('\n')}\n`);
    const summary = await check(file, [{ path: 'meta.status', in: ['test'] }]);
    expect([summary.valid, summary.skipped]).toEqual([2, 1]);
  });
});
