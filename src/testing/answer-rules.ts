// How the receiver answers one POST that no script or interceptor took: a table of named checks run in
// order (the first that answers wins), then the batch is accepted. The order is the CRM's, and the fault
// roll happens only once route and key pass, so a seeded run draws the same faults as before.
import type { AcceptedRecord, ReceiverFaults, ReceiverOptions } from './receiver-types.js';

export interface ParsedBody {
  text: string;
  bytes: number;
  /** The elements when the body is a JSON array. */
  elements: unknown[] | undefined;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Destroy the socket instead of answering. */
  reset?: boolean;
  replayed?: boolean;
}

export type Fault = 'error5xx' | 'reset' | 'throttle429' | 'resetAfterAccept' | undefined;

/** What the checks read of one request; `fault` is rolled by the `fault` check. */
export interface BatchRequest {
  method: string;
  path: string;
  apiKey: string | string[] | undefined;
  idempotencyKey: string | undefined;
  body: ParsedBody;
  fault: Fault;
}

/** The receiver's lasting state the checks read and the acceptance writes. */
export interface AnswerState {
  readonly options: ReceiverOptions;
  readonly random: (() => number) | undefined;
  readonly bodyLimit: number;
  readonly honourKeys: boolean;
  /** Idempotency-Key -> the body accepted under it. */
  readonly stored: Map<string, string>;
  readonly accepted: AcceptedRecord[];
}

export type AnswerCheck = (request: BatchRequest, state: AnswerState) => Answer | undefined;

export const endpoint = '/api/revenues';

export const json = (status: number, value: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body: JSON.stringify(value),
  ...(headers ? { headers } : {}),
});

export function parseBody({ text, bytes }: { text: string; bytes: number }): ParsedBody {
  try {
    const parsed: unknown = JSON.parse(text);
    return { text, bytes, elements: Array.isArray(parsed) ? parsed : undefined };
  } catch {
    return { text, bytes, elements: undefined };
  }
}

export function pickFault(faults: ReceiverFaults | undefined, random: (() => number) | undefined): Fault {
  if (!faults || !random) return undefined;
  let roll = random();
  for (const fault of ['error5xx', 'reset', 'throttle429', 'resetAfterAccept'] as const) {
    const p = faults[fault] ?? 0;
    if (roll < p) return fault;
    roll -= p;
  }
  return undefined;
}

const route: AnswerCheck = (request) =>
  request.method !== 'POST' || request.path !== endpoint ? json(404, { error: 'not found' }) : undefined;

const apiKey: AnswerCheck = (request, { options }) =>
  options.apiKey !== undefined && request.apiKey !== options.apiKey
    ? json(401, { error: 'invalid API key' })
    : undefined;

const fault: AnswerCheck = (request, { options, random }) => {
  request.fault = pickFault(options.faults, random);
  if (request.fault === 'reset') return { status: 0, reset: true };
  if (request.fault === 'error5xx') {
    return json([500, 502, 503][Math.floor(random!() * 3)] ?? 500, { error: 'fault' });
  }
  if (request.fault !== 'throttle429') return undefined;
  const seconds = options.faults?.retryAfterSeconds;
  return json(
    429,
    { error: 'slow down' },
    seconds === undefined ? undefined : { 'retry-after': `${seconds}` },
  );
};

const bodyLimit: AnswerCheck = (request, state) =>
  request.body.bytes > state.bodyLimit
    ? json(413, { error: `body larger than ${state.bodyLimit} bytes` })
    : undefined;

const jsonArray: AnswerCheck = (request) =>
  request.body.elements === undefined ? json(400, { error: 'body must be a JSON array' }) : undefined;

const maxBatch: AnswerCheck = (request, { options }) =>
  options.maxBatch !== undefined && request.body.elements!.length > options.maxBatch
    ? json(413, { error: `more than ${options.maxBatch} elements` })
    : undefined;

const validate: AnswerCheck = (request, { options }) => {
  const details = request.body.elements!.flatMap((record, index) => {
    const message = options.validate?.(record, index);
    return message === undefined ? [] : [{ index, message }];
  });
  return details.length > 0 ? json(422, { error: 'invalid elements', details }) : undefined;
};

/** A key already accepted: the same body is replayed (200, nothing stored), another body refused. */
const idempotency: AnswerCheck = ({ idempotencyKey, body }, { honourKeys, stored }) => {
  if (!honourKeys || idempotencyKey === undefined || !stored.has(idempotencyKey)) return undefined;
  if (stored.get(idempotencyKey) !== body.text) {
    return json(422, { error: 'Idempotency-Key reused with a different body' });
  }
  return {
    ...json(200, { accepted: body.elements!.length }, { 'idempotent-replayed': 'true' }),
    replayed: true,
  };
};

/** The checks in the order the CRM applies them; each answers or lets the request through. */
export const answerChecks: readonly (readonly [name: string, check: AnswerCheck])[] = [
  ['route', route],
  ['apiKey', apiKey],
  ['fault', fault],
  ['bodyLimit', bodyLimit],
  ['jsonArray', jsonArray],
  ['maxBatch', maxBatch],
  ['validate', validate],
  ['idempotency', idempotency],
];

/** Stores every element (and the key's body), then answers 200, or resets when that fault was rolled. */
function accept({ body, idempotencyKey, fault }: BatchRequest, state: AnswerState): Answer {
  const elements = body.elements as Record<string, unknown>[];
  for (const record of elements) {
    state.accepted.push(idempotencyKey === undefined ? { record } : { record, idempotencyKey });
  }
  if (state.honourKeys && idempotencyKey !== undefined) state.stored.set(idempotencyKey, body.text);
  if (fault === 'resetAfterAccept') return { status: 0, reset: true };
  return json(200, { accepted: elements.length });
}

/** The answer to one batch: the first check that answers, else acceptance. */
export function answerBatch(request: BatchRequest, state: AnswerState): Answer {
  for (const [, check] of answerChecks) {
    const answer = check(request, state);
    if (answer) return answer;
  }
  return accept(request, state);
}
