// LookupQueue: valid records chunked, looked up in a real SQLite ledger, and handed to the deliverer in
// the order read, except those the run counts as known.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Ledger, openLedger } from '../../src/ledger/ledger.js';
import { contentHash } from '../../src/ledger/record-key.js';
import { targetOf } from '../../src/ledger/target.js';
import type { LedgerEntry } from '../../src/ledger/types.js';
import { endsSpan, SPAN_MAX, SPAN_MIN, SpanContent } from '../../src/pipeline/delivered-spans.js';
import type { Item } from '../../src/pipeline/item.js';
import { LookupQueue } from '../../src/pipeline/lookup-queue.js';
import type { RunLedger } from '../../src/pipeline/types.js';
import type { Deliverer } from '../../src/transport/deliver.js';
import { tempDir } from '../helpers/cli.js';

let dir: string;
let ledger: Ledger;
let run: RunLedger;
beforeEach(() => {
  dir = tempDir('revimport-lookup-queue-');
  ledger = openLedger(path.join(dir, 'ledger.db'));
  const targetId = ledger.target(targetOf('https://crm.example', 'k'));
  run = { ledger, targetId, runId: ledger.beginRun({ command: 'push', files: ['a.csv'] }) };
});
afterEach(() => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

const item = (id: string): Item => ({
  record: { conversionId: id } as never,
  key: `id:${id}`,
  contentHash: `hash-${id}`,
  row: undefined,
  file: 'a.csv',
  line: Number(id) + 1,
  idColumn: 'id',
});
const pending = (id: string) => ({
  key: `id:${id}`,
  contentHash: `hash-${id}`,
  payload: '{}',
  idempotencyKey: 'k1',
});

/** A queue whose deliverer records what it is handed; `delivered` entries count as known. */
function queueOver(ledgerOrNone: RunLedger | undefined) {
  const pushed: Item[] = [];
  const known: Array<[string, string]> = [];
  let shown = 0;
  const queue = new LookupQueue({
    deliverer: { push: async (i: Item) => void pushed.push(i) } as unknown as Deliverer<Item>,
    knownAlready: async (i: Item, entry: LedgerEntry) => {
      known.push([i.key, entry.state]);
      return entry.state === 'delivered';
    },
    ledger: ledgerOrNone,
    showRowsRead: () => void shown++,
  });
  return { queue, pushed, known, shown: () => shown };
}

/** What the ledger's span look-ups answered, as they come: `delivered` is a hit (one row read, not each key). */
function spanAnswers(): boolean[] {
  const answers: boolean[] = [];
  const lookupSpan = ledger.lookupSpan.bind(ledger);
  ledger.lookupSpan = (targetId, keys, digest) => {
    const found = lookupSpan(targetId, keys, digest);
    answers.push(found.delivered);
    return found;
  };
  return answers;
}

describe('LookupQueue', () => {
  it('skips what the ledger knows and the run counts, marks known pending records per-record, keeps order', async () => {
    ledger.markPending(run.targetId, run.runId, [pending('1'), pending('2')]);
    ledger.markDelivered(run.targetId, ['id:1'], 'k1');
    const { queue, pushed, known, shown } = queueOver(run);
    for (const id of ['3', '1', '2', '4']) queue.add(item(id));
    expect(queue.waiting).toBe(4);
    await queue.flush();
    await queue.lookedUp;
    expect(known).toEqual([
      ['id:1', 'delivered'],
      ['id:2', 'pending'],
    ]);
    expect(pushed.map((i) => [i.key, i.perRecord ?? false])).toEqual([
      ['id:3', false],
      ['id:2', true],
      ['id:4', false],
    ]);
    expect([queue.waiting, shown()]).toEqual([0, 1]);
  });

  it('says a chunk ends where a span is cut; an empty flush shows nothing and sends nothing', async () => {
    const { queue, pushed, shown } = queueOver(undefined);
    await queue.flush();
    expect(shown()).toBe(0);
    const ends = Array.from({ length: SPAN_MAX }, (_, i) => queue.add(item(String(i))));
    const cut = ends.indexOf(true);
    // The first key that ends a span (delivered-spans.ts), past SPAN_MIN records and by SPAN_MAX at the latest.
    expect(cut).toBeGreaterThanOrEqual(SPAN_MIN - 1);
    expect(cut).toBe(ends.findIndex((_, i) => endsSpan(`id:${i}`, i + 1)));
    await queue.flush();
    expect(pushed).toHaveLength(SPAN_MAX);
    expect(shown()).toBe(1);
  });

  it('looks a span the ledger noted up in one row, and counts it complete again', async () => {
    const ids = ['1', '2', '3'];
    ledger.markPending(run.targetId, run.runId, ids.map(pending));
    ledger.markDelivered(
      run.targetId,
      ids.map((id) => `id:${id}`),
      'k1',
    );
    ledger.noteSpans(run.targetId, [{ digest: new SpanContent().digest(ids.map(item)), records: 3 }]);
    const answers = spanAnswers();
    const { queue, pushed, known } = queueOver(run);
    const spans = queue.spans!;
    for (const id of ids) queue.add(item(id));
    await queue.flush();
    await queue.lookedUp;
    expect(answers).toEqual([true]);
    expect(known).toEqual(ids.map((id) => [`id:${id}`, 'delivered']));
    expect(pushed).toEqual([]);
    expect(spans.complete).toEqual([{ digest: new SpanContent().digest(ids.map(item)), records: 3 }]);
  });

  it('a span with a record to send is complete only once that record is delivered', async () => {
    ledger.markPending(run.targetId, run.runId, [pending('1')]);
    ledger.markDelivered(run.targetId, ['id:1'], 'k1');
    const answers = spanAnswers();
    const { queue, pushed } = queueOver(run);
    const spans = queue.spans!;
    for (const id of ['1', '2']) queue.add(item(id));
    await queue.flush();
    await queue.lookedUp;
    expect(answers).toEqual([false]);
    expect(pushed.map((i) => i.key)).toEqual(['id:2']);
    expect(spans.complete).toEqual([]);
    pushed[0]!.span!.delivered();
    expect(spans.complete).toHaveLength(1);
  });

  it('hashes no record of a span the ledger noted delivered; a record to send gets its hash before it goes', async () => {
    // Records as the pipeline makes them: a conversionId, no content hash yet (take-outcome.ts).
    const fresh = (id: string, value = 10): Item => ({
      ...item(id),
      record: {
        conversionCurrency: 'EUR',
        conversionValue: value,
        conversionDatetime: '2024-05-01T00:00:00.000Z',
        conversionTimezone: 'Europe/Berlin',
        conversionId: id,
      },
      contentHash: undefined,
    });
    const ids = ['1', '2', '3'];
    const delivered = ids.map((id) => fresh(id));
    ledger.markPending(
      run.targetId,
      run.runId,
      delivered.map((i) => ({ ...pending(i.record.conversionId!), contentHash: contentHash(i.record) })),
    );
    ledger.markDelivered(
      run.targetId,
      ids.map((id) => `id:${id}`),
      'k1',
    );
    ledger.noteSpans(run.targetId, [{ digest: new SpanContent().digest(delivered), records: 3 }]);
    const answers = spanAnswers();
    const { queue, pushed, known } = queueOver(run);
    const again = ids.map((id) => fresh(id));
    for (const i of again) queue.add(i);
    await queue.flush();
    await queue.lookedUp;
    expect(answers).toEqual([true]);
    expect([known.length, pushed.length]).toEqual([3, 0]);
    expect(again.map((i) => i.contentHash)).toEqual([undefined, undefined, undefined]);

    // One record changed: the span is not the one noted, so each record is compared by its hash, and the changed
    // one is handed on with it.
    const changed = [fresh('1'), fresh('2', 99), fresh('3')];
    for (const i of changed) queue.add(i);
    await queue.flush();
    await queue.lookedUp;
    expect(answers).toEqual([true, false]);
    expect(changed.map((i) => i.contentHash)).toEqual(changed.map((i) => contentHash(i.record)));
    expect(known.slice(3)).toEqual(ids.map((id) => [`id:${id}`, 'delivered']));
  });

  it('counts what was never handed on, once', () => {
    const { queue } = queueOver(run);
    queue.add(item('1'));
    queue.add(item('2'));
    expect(queue.takeWaiting()).toBe(2);
    expect(queue.takeWaiting()).toBe(0);
  });
});
