// The flags push and retry share: where to deliver, how (batches, concurrency, retries, proxy) and what to
// print.
import { type Command, Option } from 'commander';

/** Options shared by push and retry. */
export function addDeliveryOptions(command: Command): Command {
  return (
    command
      .option(
        '-c, --config <path>',
        'config file (default: search for revimport.config.* / .revimportrc* in the cwd)',
      )
      .option(
        '--base-url <url>',
        'CRM base URL; revimport posts to {base-url}/api/revenues (env REVIMPORT_BASE_URL)',
      )
      .option(
        '--account <name>',
        'the CRM account at the base URL, where one URL serves several (env REVIMPORT_ACCOUNT; default: the URL has one)',
      )
      .option(
        '--state <path|url>',
        'ledger file or postgres:// URL (env REVIMPORT_STATE; default: revimport-ledger.db beside the config file, without one ~/.local/state/revimport/ledger.db)',
      )
      .option('--batch-size <n>', 'records per request (default 500; bodies are also capped at 1 MiB)')
      .option('--concurrency <n>', 'requests in flight at most (default 4)')
      .option(
        '--retries <n>',
        'retries per request at most for network errors, 408, 429 and 5xx (default: no cap, --max-retry-time ends them)',
      )
      .option(
        '--max-retry-time <s>',
        'seconds a request may be retried, from its first failure, before the run stops with exit 4 (default 300)',
      )
      .option('--timeout <s>', 'seconds per request (default 30)')
      .option('--rate <n>', 'requests per second at most')
      .option('--wait <s>', 'seconds to wait for another run holding the ledger (default 0: exit 5 at once)')
      .option('--allow-http', 'allow plain http to a non-loopback host')
      .option(
        '--proxy <url>',
        'proxy for the CRM requests (default: https_proxy/HTTP_PROXY..., then the proxy key)',
      )
      .option('--no-proxy', 'connect directly, whatever the proxy variables and the proxy key say')
      .option('--json', 'print the summary as one JSON object on stdout')
      .option('--no-progress', 'no spinner on a terminal: one line per file, as without a TTY')
      .option(
        '--progress-interval <s>',
        'without a spinner: a progress line on stderr every s seconds of a long run (default 30)',
      )
      // Errors only and every request's line contradict each other: refused as a usage error (exit 2).
      .addOption(new Option('-q, --quiet', 'print errors only').conflicts('verbose'))
      .option('-v, --verbose', "print the config file and ledger used, and each request's status and time")
  );
}
