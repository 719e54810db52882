// A ledger URL pointing at something that is not a PostgreSQL server that answers (review of issue 15): a
// server that accepts TCP and closes it at once made the run reconnect forever (postgres.js kept opening
// sockets, ~1,000 a second) and never exit. No PostgreSQL needed: the peer is a plain TCP server here.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { writeConfig, writeExport } from '../helpers/exports.js';

let server: Server;
let port: number;
let accepted = 0;
const sockets = new Set<Socket>();
beforeEach(async () => {
  accepted = 0;
  server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

it('a server closing every connection: exit 2 after connect_timeout x 3, the process ends, no password shown', async () => {
  const work = tempDir();
  const config = writeConfig(work);
  const file = writeExport(work, 'orders.csv', { to: 10 });
  const state = `postgres://app:hunter2-secret@127.0.0.1:${port}/crm?connect_timeout=1`;
  const started = Date.now();
  const result = await runCli(['push', file, '-c', config, '--state', state, '--json'], {
    cwd: work,
    env: { REVIMPORT_BASE_URL: 'http://127.0.0.1:9', REVIMPORT_API_KEY: 'unreachable-key-1' },
  });
  const seconds = (Date.now() - started) / 1000;
  expect(result.stderr).toContain(
    `cannot reach the ledger database postgres://app:***@127.0.0.1:${port}/crm?connect_timeout=1: no answer from the server within 3 s`,
  );
  expect(result.code).toBe(2);
  expect(JSON.parse(result.stdout)).toMatchObject({ exitCode: 2, error: { kind: 'config' } });
  expect(result.stdout + result.stderr).not.toContain('hunter2-secret');
  // It ended by itself (the server still runs): not bounded by the server going away.
  expect(seconds).toBeLessThan(30);
  expect(accepted).toBeGreaterThan(0);
});
