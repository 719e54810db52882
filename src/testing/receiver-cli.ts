// `npm run receiver`: the test receiver as a standalone server for manual runs and the demo.
// Usage: node dist/testing/receiver-cli.js [--port N] [--api-key K] [--faults seed,5xx,reset,429]
// It listens on 127.0.0.1:8787 by default, where the bundled fixture configs point (--port 0: any free port).
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type Receiver, type ReceiverOptions, startReceiver } from './receiver.js';

/** The port of the bundled fixture configs' baseUrl (`http://127.0.0.1:8787`). */
export const defaultReceiverPort = 8787;

function parseFaults(text: string): ReceiverOptions['faults'] {
  const values = text.split(',').map((value) => Number(value.trim()));
  const [seed, error5xx = 0, reset = 0, throttle429 = 0] = values;
  if (seed === undefined || values.some((value) => !Number.isFinite(value))) {
    throw new Error(`--faults expects seed,5xx,reset,429 (numbers), got "${text}"`);
  }
  return { seed, error5xx, reset, throttle429 };
}

/** Start the receiver from argv (without node and script); request lines go to `log`, never the key. */
export async function runReceiverCli(argv: string[], log: (line: string) => void): Promise<Receiver> {
  const { values } = parseArgs({
    args: argv,
    options: { port: { type: 'string' }, 'api-key': { type: 'string' }, faults: { type: 'string' } },
  });
  const port = values.port === undefined ? defaultReceiverPort : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port: not a port: ${values.port}`);
  return startReceiver({
    port,
    ...(values['api-key'] === undefined ? {} : { apiKey: values['api-key'] }),
    ...(values.faults === undefined ? {} : { faults: parseFaults(values.faults) }),
    onRequest: (request) => {
      const key = request.idempotencyKey ? ` key=${request.idempotencyKey.slice(0, 12)}` : '';
      const status = request.status === 0 ? 'reset' : String(request.status);
      const replay = request.replayed ? ' (replayed)' : '';
      log(`${request.method} ${request.path} ${status} elements=${request.elements}${key}${replay}`);
    },
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let receiver: Receiver;
  try {
    receiver = await runReceiverCli(argv, (line) => process.stderr.write(`${line}\n`));
  } catch (error) {
    const taken = error as NodeJS.ErrnoException & { address?: string; port?: number };
    if (taken.code !== 'EADDRINUSE') throw error;
    throw new Error(
      `${taken.address}:${taken.port} is in use (another receiver?): stop it, or pass --port N (and --base-url http://127.0.0.1:N to revimport)`,
    );
  }
  process.stdout.write(`receiver listening on ${receiver.url}\n`);
  const stop = () => void receiver.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`receiver: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
