// A real HTTP receiver standing in for the CRM's POST /api/revenues: records every request, plays
// scripted answers and seeded faults, and honours Idempotency-Key like Stripe. Used by the tests,
// `npm run receiver` and `npm run demo`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { seededRandom } from './seeded-random.js';

/** A canned answer, used once, in order, before normal behaviour. */
export interface ScriptedResponse {
  /** Status to answer without processing the batch. Omitted: process it normally (after the waits). */
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Wait for this promise before answering (deterministic holds in tests). */
  until?: Promise<unknown>;
  /** Destroy the socket without answering (nothing is stored). */
  reset?: true;
}

/** Per-request fault probabilities, drawn from a PRNG seeded with `seed`; at most one fault a request. */
export interface ReceiverFaults {
  seed: number;
  /** Answer 500, 502 or 503 without storing. */
  error5xx?: number;
  /** Destroy the socket before processing: nothing stored. */
  reset?: number;
  /** Answer 429 (with Retry-After when `retryAfterSeconds` is set). */
  throttle429?: number;
  /** Store the batch, then destroy the socket: the client never learns it was accepted. */
  resetAfterAccept?: number;
  retryAfterSeconds?: number;
}

export interface ReceiverOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** When set, a request without exactly this X-API-KEY gets 401. */
  apiKey?: string;
  /** More elements than this => 413. */
  maxBatch?: number;
  /** A larger body => 413. Bodies are never buffered beyond 64 MiB. */
  maxBodyBytes?: number;
  /** A message for a bad element; any message => the whole batch gets 422. */
  validate?: (record: unknown, index: number) => string | undefined;
  /** Default true: a repeated Idempotency-Key of an accepted batch is answered 200 without storing. */
  honourIdempotencyKey?: boolean;
  faults?: ReceiverFaults;
  /**
   * Something answering before the CRM (a firewall's block page, a captive portal): asked per request
   * once the scripted answers are used up, with the body's elements; undefined lets the request through.
   */
  intercept?: (elements: unknown[] | undefined) => ScriptedResponse | undefined;
  /** Called once per request, when it has been answered (or reset). */
  onRequest?: (request: RecordedRequest) => void;
  /** Serve https with this key and certificate chain (PEM) instead of http. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-case names, as node:http gives them. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The status answered; 0 when the socket was destroyed instead. */
  status: number;
  idempotencyKey: string | undefined;
  /** True when answered from the idempotency store. */
  replayed: boolean;
  /** Elements in the body when it was a JSON array, else 0. */
  elements: number;
}

export interface AcceptedRecord {
  record: Record<string, unknown>;
  idempotencyKey?: string;
}

export interface Receiver {
  /** http://host:port (https:// with `tls`) */
  readonly url: string;
  /** TCP connections accepted so far (with `tls`: handshakes attempted, failed ones included). */
  readonly connections: number;
  readonly requests: RecordedRequest[];
  /** Every element of every accepted batch, in order, duplicates included. */
  readonly accepted: AcceptedRecord[];
  /** Requests read and waiting for their answer (delays, `until`). */
  readonly held: number;
  script(...responses: ScriptedResponse[]): void;
  setDelay(ms: number): void;
  close(): Promise<void>;
}

const hardBodyLimit = 64 * 1024 * 1024;
const endpoint = '/api/revenues';

async function readBody(req: IncomingMessage, limit: number): Promise<{ text: string; bytes: number }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    if (bytes + buffer.length <= limit) chunks.push(buffer);
    bytes += buffer.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes };
}

interface ParsedBody {
  text: string;
  bytes: number;
  /** The elements when the body is a JSON array. */
  elements: unknown[] | undefined;
}

function parseBody({ text, bytes }: { text: string; bytes: number }): ParsedBody {
  try {
    const parsed: unknown = JSON.parse(text);
    return { text, bytes, elements: Array.isArray(parsed) ? parsed : undefined };
  } catch {
    return { text, bytes, elements: undefined };
  }
}

type Fault = 'error5xx' | 'reset' | 'throttle429' | 'resetAfterAccept' | undefined;

function pickFault(faults: ReceiverFaults | undefined, random: (() => number) | undefined): Fault {
  if (!faults || !random) return undefined;
  let roll = random();
  for (const fault of ['error5xx', 'reset', 'throttle429', 'resetAfterAccept'] as const) {
    const p = faults[fault] ?? 0;
    if (roll < p) return fault;
    roll -= p;
  }
  return undefined;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Destroy the socket instead of answering. */
  reset?: boolean;
  replayed?: boolean;
}

const json = (status: number, value: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body: JSON.stringify(value),
  ...(headers ? { headers } : {}),
});

/** Start a receiver; `close()` it when done. */
export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const requests: RecordedRequest[] = [];
  const accepted: AcceptedRecord[] = [];
  const queue: ScriptedResponse[] = [];
  const stored = new Map<string, string>();
  const wakers = new Set<() => void>();
  const random = options.faults ? seededRandom(options.faults.seed) : undefined;
  const bodyLimit = Math.min(options.maxBodyBytes ?? hardBodyLimit, hardBodyLimit);
  const honourKeys = options.honourIdempotencyKey ?? true;
  let delayMs = 0;
  let held = 0;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });

  function answerBatch(req: IncomingMessage, body: ParsedBody): Answer {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    if (method !== 'POST' || path !== endpoint) return json(404, { error: 'not found' });
    if (options.apiKey !== undefined && req.headers['x-api-key'] !== options.apiKey) {
      return json(401, { error: 'invalid API key' });
    }
    const fault = pickFault(options.faults, random);
    if (fault === 'reset') return { status: 0, reset: true };
    if (fault === 'error5xx')
      return json([500, 502, 503][Math.floor(random!() * 3)] ?? 500, { error: 'fault' });
    if (fault === 'throttle429') {
      const seconds = options.faults?.retryAfterSeconds;
      return json(
        429,
        { error: 'slow down' },
        seconds === undefined ? undefined : { 'retry-after': `${seconds}` },
      );
    }
    if (body.bytes > bodyLimit) return json(413, { error: `body larger than ${bodyLimit} bytes` });
    const { elements, text } = body;
    if (elements === undefined) return json(400, { error: 'body must be a JSON array' });
    if (options.maxBatch !== undefined && elements.length > options.maxBatch) {
      return json(413, { error: `more than ${options.maxBatch} elements` });
    }
    const details = elements.flatMap((record, index) => {
      const message = options.validate?.(record, index);
      return message === undefined ? [] : [{ index, message }];
    });
    if (details.length > 0) return json(422, { error: 'invalid elements', details });
    const key = req.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' ? key : undefined;
    if (honourKeys && idempotencyKey !== undefined && stored.has(idempotencyKey)) {
      if (stored.get(idempotencyKey) !== text) {
        return json(422, { error: 'Idempotency-Key reused with a different body' });
      }
      return {
        ...json(200, { accepted: elements.length }, { 'idempotent-replayed': 'true' }),
        replayed: true,
      };
    }
    for (const record of elements as Record<string, unknown>[]) {
      accepted.push(idempotencyKey === undefined ? { record } : { record, idempotencyKey });
    }
    if (honourKeys && idempotencyKey !== undefined) stored.set(idempotencyKey, text);
    if (fault === 'resetAfterAccept') return { status: 0, reset: true };
    return json(200, { accepted: elements.length });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = parseBody(await readBody(req, bodyLimit));
    const scripted = queue.shift() ?? options.intercept?.(body.elements);
    held += 1;
    try {
      const ms = scripted?.delayMs ?? delayMs;
      if (ms > 0) await wait(ms);
      if (scripted?.until) await scripted.until.catch(() => undefined);
    } finally {
      held -= 1;
    }
    let answer: Answer;
    if (scripted?.reset) answer = { status: 0, reset: true };
    else if (scripted?.status !== undefined) answer = { status: scripted.status, body: scripted.body ?? '' };
    else answer = answerBatch(req, body);
    if (scripted?.headers) answer.headers = { ...answer.headers, ...scripted.headers };

    const key = req.headers['idempotency-key'];
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: { ...req.headers },
      body: body.text,
      status: answer.status,
      idempotencyKey: typeof key === 'string' ? key : undefined,
      replayed: answer.replayed ?? false,
      elements: body.elements?.length ?? 0,
    };
    requests.push(recorded);
    options.onRequest?.(recorded);
    if (answer.reset) {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body ?? '');
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
  const server = options.tls ? createHttpsServer(options.tls, listener) : createServer(listener);
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${address.port}`,
    requests,
    get connections() {
      return connections;
    },
    accepted,
    get held() {
      return held;
    },
    script: (...responses) => {
      queue.push(...responses);
    },
    setDelay: (ms) => {
      delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const wake of [...wakers]) wake();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
