import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { targetOf } from '../../src/ledger/target.js';

describe('targetOf', () => {
  it('strips trailing slashes and fingerprints the key without keeping it', () => {
    const target = targetOf('https://crm.example/base//', 'sk_live_secret');
    expect(target).toEqual({
      baseUrl: 'https://crm.example/base',
      account: '',
      keyFingerprint: createHash('sha256').update('sk_live_secret').digest('hex').slice(0, 16),
    });
    expect(JSON.stringify(target)).not.toContain('secret');
  });

  it('normalizes the spelling of the URL', () => {
    expect(targetOf('HTTPS://CRM.Example:443/base/', 'k').baseUrl).toBe('https://crm.example/base');
    expect(targetOf('http://127.0.0.1:80', 'k').baseUrl).toBe('http://127.0.0.1');
  });

  it('gives two keys on one URL two fingerprints', () => {
    expect(targetOf('https://a', 'k1').keyFingerprint).not.toBe(targetOf('https://a', 'k2').keyFingerprint);
  });
});
