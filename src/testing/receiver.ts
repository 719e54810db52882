// A real HTTP receiver standing in for the CRM's POST /api/revenues: records every request, plays
// scripted answers and seeded faults, and honours Idempotency-Key like Stripe. Used by the tests,
// `npm run receiver` and `npm run demo`. The answer rules themselves live in answer-rules.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type Answer, type AnswerState, answerBatch, type ParsedBody, parseBody } from './answer-rules.js';
import type { Receiver, ReceiverOptions, RecordedRequest, ScriptedResponse } from './receiver-types.js';
import { seededRandom } from './seeded-random.js';

export type {
  AcceptedRecord,
  Receiver,
  ReceiverFaults,
  ReceiverOptions,
  RecordedRequest,
  ScriptedResponse,
} from './receiver-types.js';

const hardBodyLimit = 64 * 1024 * 1024;

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

function answerState(options: ReceiverOptions): AnswerState {
  return {
    options,
    random: options.faults ? seededRandom(options.faults.seed) : undefined,
    bodyLimit: Math.min(options.maxBodyBytes ?? hardBodyLimit, hardBodyLimit),
    honourKeys: options.honourIdempotencyKey ?? true,
    stored: new Map(),
    accepted: [],
  };
}

/** Timed waits that `close()` can cut short (so a held request never keeps the server open). */
function wakeableWaits() {
  const wakers = new Set<() => void>();
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
  const wakeAll = () => {
    for (const wake of [...wakers]) wake();
  };
  return { wait, wakeAll };
}

const headerText = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/** A scripted reset or status wins; otherwise the answer rules decide. Scripted headers are added on top. */
function answerFor(
  req: IncomingMessage,
  body: ParsedBody,
  scripted: ScriptedResponse | undefined,
  state: AnswerState,
): Answer {
  let answer: Answer;
  if (scripted?.reset) answer = { status: 0, reset: true };
  else if (scripted?.status !== undefined) answer = { status: scripted.status, body: scripted.body ?? '' };
  else {
    answer = answerBatch(
      {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        apiKey: req.headers['x-api-key'],
        idempotencyKey: headerText(req.headers['idempotency-key']),
        body,
        fault: undefined,
      },
      state,
    );
  }
  if (scripted?.headers) answer.headers = { ...answer.headers, ...scripted.headers };
  return answer;
}

function recordOf(req: IncomingMessage, body: ParsedBody, answer: Answer): RecordedRequest {
  return {
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    headers: { ...req.headers },
    body: body.text,
    status: answer.status,
    idempotencyKey: headerText(req.headers['idempotency-key']),
    replayed: answer.replayed ?? false,
    elements: body.elements?.length ?? 0,
  };
}

function send(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  if (answer.reset) {
    req.socket.destroy();
    return;
  }
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
  res.end(answer.body ?? '');
}

async function listen(
  options: ReceiverOptions,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
) {
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
  const server = options.tls ? createHttpsServer(options.tls, listener) : createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { server, url: `${options.tls ? 'https' : 'http'}://${host}:${address.port}` };
}

/** Start a receiver; `close()` it when done. */
export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedResponse[] = [];
  const state = answerState(options);
  const { wait, wakeAll } = wakeableWaits();
  let delayMs = 0;
  let held = 0;
  let connections = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = parseBody(await readBody(req, state.bodyLimit));
    const scripted = queue.shift() ?? options.intercept?.(body.elements);
    held += 1;
    try {
      const ms = scripted?.delayMs ?? delayMs;
      if (ms > 0) await wait(ms);
      if (scripted?.until) await scripted.until.catch(() => undefined);
    } finally {
      held -= 1;
    }
    const answer = answerFor(req, body, scripted, state);
    const recorded = recordOf(req, body, answer);
    requests.push(recorded);
    options.onRequest?.(recorded);
    send(req, res, answer);
  }

  const { server, url } = await listen(options, handle);
  server.on('connection', () => {
    connections += 1;
  });
  return {
    url,
    requests,
    get connections() {
      return connections;
    },
    accepted: state.accepted,
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
        wakeAll();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
