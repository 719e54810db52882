// `npm run demo` and `npm run receiver` as a user meets them: the receiver listens where the bundled
// configs point, and the command the demo prints for "try it yourself" runs as printed (issue 13).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startReceiver } from '../../src/testing/receiver.js';
import { defaultReceiverPort } from '../../src/testing/receiver-cli.js';
import { cleanEnv, root, tempDir } from '../helpers/cli.js';
import { runProcess } from '../helpers/spawn.js';

const run = (command: string, args: string[], env: Record<string, string>) =>
  runProcess(command, args, { cwd: root, env });

describe('receiver and demo', () => {
  it('the receiver listens by default where every bundled config with a baseUrl points', async () => {
    const configs = readdirSync(path.join(root, 'fixtures'), { recursive: true, encoding: 'utf8' })
      .filter((file) => /(^|\/)revimport\.config\.(json|ya?ml)$/.test(file))
      .map((file) => path.join(root, 'fixtures', file));
    const urls = new Set<string>();
    for (const file of configs) {
      const { config } = await loadConfig({ configPath: file, cwd: root });
      if (config.baseUrl) urls.add(config.baseUrl);
    }
    expect([...urls]).toEqual([`http://127.0.0.1:${defaultReceiverPort}`]);
  });

  it("the demo's try-it-yourself command runs as printed", async () => {
    const demo = await run(process.execPath, ['dist/testing/demo.js'], cleanEnv());
    expect(demo.code).toBe(0);
    expect(demo.stdout).toContain('the receiver stored 5 records in 1 request; first:');
    const printed = demo.stdout.split('\n').filter((line) => line.startsWith('$ '));
    expect(printed).toHaveLength(4);
    expect(printed[2]).toBe('$ npm run receiver');
    const yours = printed[3]!.slice(2);
    expect(yours).toBe(
      'REVIMPORT_API_KEY=any-key node bin/revimport.js push fixtures/google-ads-style/conversions.csv -c fixtures/google-ads-style/revimport.config.json',
    );
    // Run it word for word in a shell; the receiver of this test stands in for `npm run receiver` (port
    // 8787 may be taken on a shared machine), reached through REVIMPORT_BASE_URL, which outranks the config.
    const receiver = await startReceiver({ apiKey: 'any-key' });
    try {
      // The ledger would be beside the fixture's config (issue 19): fixtures stay read-only.
      const env = cleanEnv({
        REVIMPORT_BASE_URL: receiver.url,
        REVIMPORT_STATE: path.join(tempDir(), 'ledger.db'),
      });
      const result = await run('/bin/sh', ['-c', yours], env);
      expect(result.stderr).not.toContain('revimport:');
      expect(result.code).toBe(1);
      expect(receiver.accepted).toHaveLength(5);
    } finally {
      await receiver.close();
    }
  });
});
