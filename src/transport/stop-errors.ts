// The errors that stop a run on an answer no retry can change: a refused key (exit 3), a URL with no
// revenues endpoint, or something other than the CRM answering. The records not delivered stay pending.
import { AuthError, ConfigError, DeliveryError } from '../errors.js';
import { maskKey } from './mask-key.js';

export function keyRefused(status: number): AuthError {
  return new AuthError(`the server refused the API key (HTTP ${status}); nothing more was sent`, {
    hint: 'check the key (REVIMPORT_API_KEY or apiKeyFile) and that it may import revenues',
  });
}

/** `message` is classify's (`HTTP 404: no revenues endpoint at this URL; ...`). */
export function wrongEndpoint(url: URL, message: string): ConfigError {
  return new ConfigError(`${url.href} answered ${message}; nothing more was sent`, {
    hint: 'the records not delivered stay pending in the ledger: fix baseUrl and run again',
  });
}

/** Why an answer that is not the CRM's stops the run: what it (dis)proves. */
export const notTheCrmBecause = {
  unproven: ': no proof the records were stored, so none is marked delivered',
  refusedAlone:
    ', even to one record sent alone: not the CRM judging the records, so none is marked rejected',
} as const;

/** The run stops on an answer that came from something other than the CRM; `why` says what it (dis)proves. */
export function notTheCrm(
  request: { url: URL; apiKey: string },
  status: number,
  answer: string,
  why: string,
): DeliveryError {
  // A page may echo the request; the key must not reach a message through it.
  const quoted = maskKey(answer, request.apiKey);
  return new DeliveryError(
    `${request.url.href} answered HTTP ${status} (${quoted}) instead of JSON${why}; nothing more was sent`,
    {
      hint:
        'a login page, proxy or firewall answered instead of the CRM; the records not delivered stay pending ' +
        'in the ledger: once requests reach the CRM, run push again (or revimport retry)',
    },
  );
}
