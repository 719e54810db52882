// The mask every text of a run report passes (issue 25): e-mails, a URL's password, the API key.
import { describe, expect, it } from 'vitest';
import { hideSecrets } from '../../src/cli/report-facts.js';

describe('hideSecrets', () => {
  const hide = hideSecrets('sk_live_0123456789');

  it.each([
    ['Customer: jane.doe@example.com', 'Customer: j***@example.com'],
    [
      'ledger postgres://crm:s3cret@db.internal:5432/revimport',
      'ledger postgres://crm:***@db.internal:5432/revimport',
    ],
    [
      'postgres://crm@db/x?password=hunter2&sslmode=require',
      'postgres://crm@db/x?password=***&sslmode=require',
    ],
    ['key sk_live_0123456789 in a reason', 'key *** in a reason'],
    ['orders.csv', 'orders.csv'],
  ])('%s -> %s', (text, shown) => {
    expect(hide(text)).toBe(shown);
  });
});
