// startWorker (young-generation.ts): every thread's starter waits for `started`, so it must settle however
// the worker's start goes: it runs, it fails as it runs, or it ends before it ever ran.
import { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';
import { startWorker } from '../src/young-generation.js';

/** Which of the worker's events came, in order, until `started` settled. */
async function eventsUntilStarted(start: () => Worker, then?: (worker: Worker) => void): Promise<string[]> {
  const seen: string[] = [];
  const { worker, started } = startWorker(() => {
    const made = start();
    for (const event of ['online', 'error', 'exit']) made.on(event, () => seen.push(event));
    return made;
  }, 1);
  then?.(worker);
  await started;
  const settled = [...seen];
  await worker.terminate();
  return settled;
}

it('settles once a worker runs', async () => {
  const events = await eventsUntilStarted(() => new Worker('setInterval(() => {}, 1000)', { eval: true }));
  expect(events).toEqual(['online']);
});

it('settles for a worker ended before it ever ran (no online event comes)', async () => {
  const events = await eventsUntilStarted(
    () => new Worker('setInterval(() => {}, 1000)', { eval: true }),
    (worker) => void worker.terminate(),
  );
  expect(events).toEqual(['exit']);
});

it('settles for a worker whose start throws, and rethrows', () => {
  expect(() =>
    startWorker(() => {
      throw new Error('no thread');
    }, 1),
  ).toThrow('no thread');
});
