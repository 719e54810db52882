// The receiver's public shapes (options, scripted answers, what it records), shared by the receiver and
// its answer rules without an import circle.

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
