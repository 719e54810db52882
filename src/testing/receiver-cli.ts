// `npm run receiver`: the test receiver as a standalone server for manual runs and the demo. Its flags are
// documented by `--help` (receiverHelp); it listens on 127.0.0.1:8787 by default, where the bundled
// fixture configs point (--port 0: any free port).
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type Receiver, type ReceiverOptions, startReceiver } from './receiver.js';

/** The port of the bundled fixture configs' baseUrl (`http://127.0.0.1:8787`). */
export const defaultReceiverPort = 8787;

/** What `npm run receiver -- --help` prints: every flag, the fault syntax, and what the receiver does. */
export const receiverHelp = `Usage: npm run receiver -- [options]
       node dist/testing/receiver-cli.js [options]

A local stand-in for the CRM's POST /api/revenues, for trying revimport without a CRM. It listens on
127.0.0.1 only, answers 200 to a JSON array of records and logs one line per request on stderr (never
the key). A repeated Idempotency-Key of an accepted body is answered 200 again without storing twice.

Options:
  --port <n>          port on 127.0.0.1 (default ${defaultReceiverPort}, where the bundled configs point; 0: any free port)
  --api-key <key>     answer 401 to a request without exactly this X-API-KEY (default: any key is taken)
  --faults <spec>     seeded random faults, at most one per request: seed,5xx,reset,429
                        seed   an integer: the same seed gives the same faults in the same order
                        5xx    probability (0 to 1) of answering 500, 502 or 503 without storing
                        reset  probability of closing the connection without an answer, nothing stored
                        429    probability of answering 429 Too Many Requests
                      the last three default to 0; e.g. --faults 7,0.2,0.05,0.1
  -h, --help          print this help and exit

Stop it with Ctrl-C.
`;

/** Asked for help: the caller prints receiverHelp and starts nothing. */
export class ReceiverHelpRequested extends Error {}

/** A flag the receiver does not have, or a bad value: exit 2 with the help hint. */
export class ReceiverUsageError extends Error {}

function parseFaults(text: string): ReceiverOptions['faults'] {
  const values = text.split(',').map((value) => Number(value.trim()));
  const [seed, error5xx = 0, reset = 0, throttle429 = 0] = values;
  if (seed === undefined || values.some((value) => !Number.isFinite(value))) {
    throw new ReceiverUsageError(`--faults expects seed,5xx,reset,429 (numbers), got "${text}"`);
  }
  return { seed, error5xx, reset, throttle429 };
}

function parseReceiverArgs(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'api-key': { type: 'string' },
        faults: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    // node:util's words for an unknown flag or a missing value, as a usage error.
    throw new ReceiverUsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Start the receiver from argv (without node and script); request lines go to `log`, never the key. */
export async function runReceiverCli(argv: string[], log: (line: string) => void): Promise<Receiver> {
  const values = parseReceiverArgs(argv);
  if (values.help) throw new ReceiverHelpRequested();
  const port = values.port === undefined ? defaultReceiverPort : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ReceiverUsageError(`--port: not a port: ${values.port}`);
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
    if (error instanceof ReceiverHelpRequested) {
      process.stdout.write(receiverHelp);
      return;
    }
    process.stderr.write(`receiver: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof ReceiverUsageError)
      process.stderr.write('(run npm run receiver -- --help for usage)\n');
    process.exitCode = 2;
  });
}
