// Arbitrary bytes as an export never crash the importer, and every row read ends as exactly one of
// valid, invalid or skipped (a footer, issue 21): nothing is lost silently.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { tempDir } from '../helpers/cli.js';
import { simpleMapping, testSettings } from '../helpers/settings.js';

const dir = tempDir('revimport-prop-');
let n = 0;

async function check(content: Buffer | string, extension = 'csv') {
  const file = path.join(dir, `input-${n++}.${extension}`);
  writeFileSync(file, content);
  const settings = testSettings({ mappingInput: simpleMapping, timezone: 'Europe/Berlin' });
  return runPipeline(
    settings,
    { files: [file], check: true, resend: false },
    { userAgent: 't', now: () => 0 },
  );
}

const cell = fc.oneof(
  fc.constantFrom(
    '',
    'EUR',
    'usd',
    '12.50',
    '1,234',
    '2024-03-05 14:22:10',
    '1710405000',
    'v-1',
    '"',
    '""',
    ',',
    '\n',
    '\r\n',
    ';',
  ),
  fc.string({ maxLength: 12 }),
);
const line = fc.array(cell, { maxLength: 7 }).map((cells) => cells.join(','));

describe('the importer on arbitrary input', () => {
  it('CSV text under a valid header: no crash, rowsRead = valid + invalid + skipped, every invalid row explained', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 30 }),
        fc.constantFrom('\n', '\r\n'),
        async (lines, eol) => {
          const text = ['id,visitor,time,value,currency', ...lines].join(eol);
          const summary = await check(text);
          expect(summary.rowsRead).toBe(summary.valid + summary.invalid + summary.skipped);
          const explained = summary.errors.reduce((sum, g) => sum + g.count, 0);
          expect(explained).toBeGreaterThanOrEqual(summary.invalid);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('arbitrary bytes: either a clear config error (no header) or a full accounting of rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), fc.boolean(), async (bytes, withHeader) => {
        const content = withHeader
          ? Buffer.concat([Buffer.from('id,visitor,time,value,currency\n'), Buffer.from(bytes)])
          : Buffer.from(bytes);
        try {
          const summary = await check(content);
          expect(summary.rowsRead).toBe(summary.valid + summary.invalid + summary.skipped);
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('arbitrary JSON lines: no crash, every line accounted for', async () => {
    const jsonLine = fc.oneof(
      fc.json(),
      fc.string(),
      fc
        .record({
          id: fc.string(),
          visitor: fc.string(),
          time: fc.integer(),
          value: fc.double(),
          currency: fc.string(),
        })
        .map((o) => JSON.stringify(o)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(jsonLine, { maxLength: 20 }), async (lines) => {
        try {
          const summary = await check(lines.map((l) => l.replaceAll('\n', ' ')).join('\n'), 'jsonl');
          expect(summary.rowsRead).toBe(summary.valid + summary.invalid + summary.skipped);
        } catch (error) {
          // A first line opening an array or an object on its own is a JSON document, refused as a whole.
          expect(error).toBeInstanceOf(ConfigError);
          expect((error as Error).message).toMatch(/JSON array|pretty-printed JSON/);
        }
      }),
      { numRuns: 100 },
    );
  });
});
