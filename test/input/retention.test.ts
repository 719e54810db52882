// What a run keeps of a file to its end must not keep the file's text: a cell of 13 characters or more is a
// view into its chunk's 64 KiB of decoded text (csv-tokenizer.ts), and a header kept as read held that chunk
// for as long as the run kept the file's SourceInfo (found in review: 64 KiB a file, ~64 MB for 1,000 files).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readRowBatches } from '../../src/input/read-rows.js';
import type { SourceInfo } from '../../src/input/types.js';
import { canonicalZone } from '../../src/record/zone-name.js';
import { tempFile } from './helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap in use after two full collections. */
function liveHeap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const header = 'Transaction Identifier,Customer Email Address,Conversion Time Zone,Amount';

/** An ASCII file of ~64 KiB whose header names and zone cells are long enough to be views. */
function exportFile(index: number): string {
  const rows = [header];
  for (let i = 0; rows.join('\n').length < 64 * 1024; i++) {
    rows.push(`TX-${index}-${i}-000000000,buyer${i}@shop.example.net,America/New_York,12.50`);
  }
  return tempFile(`retention-${index}.csv`, `${rows.join('\n')}\n`);
}

describe('what outlives a file keeps none of its text', () => {
  it("keeps each file's header (SourceInfo) without its first chunk", async () => {
    const files = Array.from({ length: 120 }, (_, i) => exportFile(i));
    const sources: SourceInfo[] = [];
    const before = liveHeap();
    for (const file of files) {
      for await (const rows of readRowBatches(file, { onSource: (source) => sources.push(source) })) {
        expect(rows.length).toBeGreaterThan(0);
      }
    }
    const held = liveHeap() - before;
    expect(sources.map((source) => source.header?.[0])).toEqual(files.map(() => 'Transaction Identifier'));
    // 120 headers of four names are a few KiB each; a first chunk kept with each was 120 x 64 KiB (7.5 MiB).
    expect(held).toBeLessThan(2 * 1024 * 1024);
  });

  it('keeps the zone names it resolved without the chunks they were read from', async () => {
    const before = liveHeap();
    for (let i = 0; i < 120; i++) {
      // A spelling of its own (no zone: the cache keeps those too) in a 64 KiB text, as a cell of a chunk is.
      const text = `${'x'.repeat(64 * 1024)}Nowhere/Zone-${i}-of-a-junk-column`;
      const name = text.slice(64 * 1024);
      expect(canonicalZone(name)).toBeUndefined();
    }
    const held = liveHeap() - before;
    expect(held).toBeLessThan(2 * 1024 * 1024);
  });
});
