// The two dispatchers a push uses, loaded without the rest of undici. Its index loads every part it has
// (fetch, WebSocket, the cache, the mocks, a WebAssembly HTTP parser held as text): 8.6 MiB of memory and
// 40-70 ms of start-up a push never used (measured: `require('undici')` against these parts, 60.2 against
// 51.5 MiB, 0.24-0.32 against 0.21 s). undici has no `exports` map, so its files are reachable by path; the
// request methods (`request`, `stream`, ...) are put on the dispatcher's prototype by its index, as here.
// Its files are not a public interface, so package.json pins undici's exact version (an install without the lock
// file, `npm install -g`, would otherwise take a newer 7.x); a layout change in an upgrade fails every push test.
import { createRequire } from 'node:module';
import type { Pool as PoolType, ProxyAgent as ProxyAgentType } from 'undici';

const require = createRequire(import.meta.url);

const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof PoolType;
export const ProxyAgent = require('undici/lib/dispatcher/proxy-agent.js') as typeof ProxyAgentType;
