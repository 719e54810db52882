import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idempotencyKey } from '../../src/transport/idempotency.js';

describe('idempotencyKey', () => {
  it.each([
    ['[]', '4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945'],
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ])('is the hex SHA-256 of %j', (body, expected) => {
    expect(idempotencyKey(body)).toBe(expected);
  });

  it('is the same for the same body and different when the order of records changes', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 2 }), (values) => {
        const body = JSON.stringify(values);
        expect(idempotencyKey(body)).toBe(idempotencyKey(`${body}`));
        const reversed = JSON.stringify([...values].reverse());
        if (reversed !== body) expect(idempotencyKey(reversed)).not.toBe(idempotencyKey(body));
      }),
    );
  });
});
