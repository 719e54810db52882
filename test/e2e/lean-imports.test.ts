// What a SQLite push loads (issue 23, memory): neither the PostgreSQL client (loaded for a postgres:// ledger
// only) nor undici's index (every part undici has: fetch, WebSocket, its cache and mocks), only the two
// dispatchers it sends with (transport/undici-parts.ts). Each cost megabytes of every push's peak memory.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, expect, it } from 'vitest';
import { root, runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { exportCsv } from '../helpers/exports.js';

const key = 'e2e-lean-imports-key-7c2e';
const e2e = useE2E({ key });
let file: string;

beforeEach(() => {
  file = path.join(e2e.work, 'orders.csv');
});

it('a push into a SQLite ledger loads neither the postgres client nor all of undici', async () => {
  const receiver = await e2e.start();
  writeFileSync(file, exportCsv({ to: 3 }));
  const preload = path.join(root, 'test/helpers/loaded-modules.mjs');
  const result = await runCli(['push', file, '-c', e2e.config, '--json'], {
    cwd: e2e.work,
    env: { ...e2e.env(), NODE_OPTIONS: `--import ${preload}` },
  });
  expect(result.code).toBe(0);
  expect(receiver.accepted).toHaveLength(3);
  // As node_modules/<package>/<file>, whichever folder node_modules is in (a link, in a worktree).
  const loaded = [...result.stderr.matchAll(/^loaded-module (.+)$/gm)].map((m) =>
    m[1]!.slice(m[1]!.lastIndexOf('/node_modules/') + 1),
  );
  // The hook saw the run's modules: the ones it needs are there.
  expect(loaded).toContain('node_modules/undici/lib/dispatcher/pool.js');
  expect(loaded).toContain('node_modules/better-sqlite3/lib/index.js');
  expect(loaded.filter((file) => file.startsWith('node_modules/postgres/'))).toEqual([]);
  expect(loaded).not.toContain('node_modules/undici/index.js');
  expect(loaded.filter((file) => file.startsWith('node_modules/undici/lib/web/'))).toEqual([]);
});
