import { describe, expect, it } from 'vitest';
import { runReceiverCli } from '../../src/testing/receiver-cli.js';

describe('runReceiverCli', () => {
  it('starts with a key, logs one line per request and never the key', async () => {
    const lines: string[] = [];
    const receiver = await runReceiverCli(['--api-key', 'sk_cli_secret_value'], (line) => lines.push(line));
    try {
      const send = (key: string) =>
        fetch(`${receiver.url}/api/revenues`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'idempotency-key': 'abcdef0123456789' },
          body: '[{"a":1},{"a":2}]',
        });
      expect((await send('sk_cli_secret_value')).status).toBe(200);
      expect((await send('wrong')).status).toBe(401);
      expect(lines).toEqual([
        'POST /api/revenues 200 elements=2 key=abcdef012345',
        'POST /api/revenues 401 elements=2 key=abcdef012345',
      ]);
      expect(lines.join('\n')).not.toContain('sk_cli_secret_value');
    } finally {
      await receiver.close();
    }
  });

  it.each([
    [['--faults', '7,x'], /--faults expects/],
    [['--port', 'abc'], /not a port/],
  ])('refuses %j', async (argv, message) => {
    await expect(runReceiverCli(argv, () => undefined)).rejects.toThrow(message);
  });
});
