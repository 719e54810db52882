// The run's row checker closes its duplicate check (SeenIds.close: the spilled ids' temporary file,
// seen-ids.ts) once the run's files are checked, and when the run ends in an error too.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type MappingInput, mappingSchema } from '../../src/config/schema.js';
import { checkRows } from '../../src/pipeline/checked-rows.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { tempDir } from '../helpers/cli.js';
import { orderFields, testSettings } from '../helpers/settings.js';

const closes = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/pipeline/seen-ids.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/pipeline/seen-ids.js')>();
  class SeenIds extends real.SeenIds {
    override close(): void {
      closes.count++;
      super.close();
    }
  }
  return { ...real, SeenIds };
});

const dir = tempDir('revimport-checker-close-');
const mapping: MappingInput = {
  fields: orderFields,
};
const file = path.join(dir, 'orders.csv');
writeFileSync(
  file,
  ['id,email,time,total,currency', '1,a@example.com,2024-07-01 10:00:00,100.00,USD'].join('\n'),
);

const checkRun = (files: string[]) =>
  runPipeline(
    testSettings({ timezone: 'UTC', mappingInput: mapping }),
    { files, check: true, resend: false },
    { userAgent: 't', now: () => 0 },
  );

describe("the run's row checker", () => {
  beforeEach(() => {
    closes.count = 0;
  });

  it('closes its duplicate check once the files are checked', async () => {
    const summary = await checkRun([file]);
    expect(summary.valid).toBe(1);
    expect(closes.count).toBe(1);
  });

  it('closes it when the run ends in an error', async () => {
    await expect(checkRun([file, path.join(dir, 'missing.csv')])).rejects.toThrow();
    expect(closes.count).toBe(1);
  });

  it('closes it at the end of checkRows', async () => {
    const rows = (async function* () {})();
    const options = { transform: undefined, timezone: 'UTC', currency: undefined, allowNegative: false };
    const checked = [];
    for await (const row of checkRows(rows, { mapping: mappingSchema.parse(mapping), ...options }))
      checked.push(row);
    expect(checked).toEqual([]);
    expect(closes.count).toBe(1);
  });
});
