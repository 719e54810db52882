import { describe, expect, it } from 'vitest';
import {
  type AnswerState,
  answerBatch,
  answerChecks,
  type BatchRequest,
  parseBody,
} from '../../src/testing/answer-rules.js';
import type { ReceiverOptions } from '../../src/testing/receiver-types.js';

function state(options: ReceiverOptions = {}, random?: () => number): AnswerState {
  return {
    options,
    random,
    bodyLimit: options.maxBodyBytes ?? 1000,
    honourKeys: options.honourIdempotencyKey ?? true,
    stored: new Map(),
    accepted: [],
  };
}

function request(text: string, over: Partial<BatchRequest> = {}): BatchRequest {
  return {
    method: 'POST',
    path: '/api/revenues',
    apiKey: undefined,
    idempotencyKey: undefined,
    body: parseBody({ text, bytes: Buffer.byteLength(text) }),
    fault: undefined,
    ...over,
  };
}

describe('answerChecks', () => {
  it('runs in the CRM order: route, key, fault, body limit, JSON array, maxBatch, validate, idempotency', () => {
    expect(answerChecks.map(([name]) => name)).toEqual([
      'route',
      'apiKey',
      'fault',
      'bodyLimit',
      'jsonArray',
      'maxBatch',
      'validate',
      'idempotency',
    ]);
  });

  it.each<[string, ReceiverOptions, BatchRequest, number]>([
    ['GET', {}, request('[]', { method: 'GET' }), 404],
    ['wrong key before a bad body', { apiKey: 's' }, request('[{', { apiKey: 'x' }), 401],
    ['too large before not JSON', { maxBodyBytes: 2 }, request('[{"a":1}'), 413],
    ['not an array', {}, request('{}'), 400],
    ['too many before invalid', { maxBatch: 1, validate: () => 'bad' }, request('[1,2]'), 413],
    ['an invalid element', { validate: (_, i) => (i === 1 ? 'bad' : undefined) }, request('[1,2]'), 422],
  ])('%s answers %i and stores nothing', (_, options, req, status) => {
    const s = state(options);
    expect(answerBatch(req, s).status).toBe(status);
    expect(s.accepted).toEqual([]);
  });

  it('rolls the fault only once route and key pass', () => {
    let rolls = 0;
    const s = state({ apiKey: 'k', faults: { seed: 1, error5xx: 0 } }, () => {
      rolls++;
      return 0.5;
    });
    answerBatch(request('[]', { path: '/other' }), s);
    answerBatch(request('[]', { apiKey: 'no' }), s);
    expect(rolls).toBe(0);
    expect(answerBatch(request('[1]', { apiKey: 'k' }), s).status).toBe(200);
    expect(rolls).toBe(1);
  });

  it('stores a batch under its key, replays the same body and refuses another', () => {
    const s = state();
    expect(answerBatch(request('[{"a":1}]', { idempotencyKey: 'k' }), s)).toEqual({
      status: 200,
      body: '{"accepted":1}',
    });
    const replay = answerBatch(request('[{"a":1}]', { idempotencyKey: 'k' }), s);
    expect(replay).toMatchObject({ status: 200, replayed: true, headers: { 'idempotent-replayed': 'true' } });
    expect(answerBatch(request('[{"a":2}]', { idempotencyKey: 'k' }), s).status).toBe(422);
    expect(s.accepted).toEqual([{ record: { a: 1 }, idempotencyKey: 'k' }]);
  });

  it('stores, then resets, when resetAfterAccept is rolled', () => {
    const s = state({ faults: { seed: 1, resetAfterAccept: 1 } }, () => 0.5);
    expect(answerBatch(request('[{"a":1}]'), s)).toEqual({ status: 0, reset: true });
    expect(s.accepted).toEqual([{ record: { a: 1 } }]);
  });
});
