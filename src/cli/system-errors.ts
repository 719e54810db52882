// Raw system and undici error codes (ENOENT, ECONNREFUSED, UND_ERR_SOCKET...) as plain sentences with the
// code in parentheses, for every message a person reads (issue 13). One table, used where errors are
// rendered: the core keeps the bare codes (--json, the ledger), the CLI explains them.

/** Code -> what it means, in the words of someone who did not write the socket code. */
const sentences: Record<string, string> = {
  // Files
  ENOENT: 'the file does not exist',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EMFILE: 'too many files are open',
  ENOSPC: 'the disk is full',
  EROFS: 'the file system is read-only',
  EEXIST: 'the file exists already',
  // Names and connections
  ENOTFOUND: 'the host name did not resolve',
  EAI_AGAIN: 'the host name could not be resolved for now: DNS did not answer',
  ECONNREFUSED: 'the connection was refused: nothing listens at that address and port',
  ECONNRESET: 'the connection was reset by the other side',
  ECONNABORTED: 'the connection was aborted',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the other side closed the connection',
  // undici
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  UND_ERR_CONNECT_TIMEOUT: 'connecting to the server timed out',
  UND_ERR_HEADERS_TIMEOUT: 'the server did not answer in time',
  UND_ERR_BODY_TIMEOUT: 'the server stopped sending its answer',
  UND_ERR_CLOSED: 'the connection was closed',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the answer was shorter or longer than announced',
};

/** `ENOENT` -> `the file does not exist (ENOENT)`; an unknown code is returned as it is. */
export function describeCode(code: string): string {
  const sentence = sentences[code];
  return sentence === undefined ? code : `${sentence} (${code})`;
}

/** The sentence for an error's `code`, else its message. */
export function describeSystemError(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && code in sentences) return describeCode(code);
  return error instanceof Error ? error.message : String(error);
}

// A known code standing alone (not already in parentheses, not part of a longer word or code).
const bareCode = new RegExp(`(?<![\\w(])(${Object.keys(sentences).join('|')})(?![\\w)])`, 'g');

/** Every bare known code in a message, explained: `gave up: ECONNREFUSED` -> `gave up: the connection was refused... (ECONNREFUSED)`. */
export function explainCodes(message: string): string {
  return message.replace(bareCode, (code) => describeCode(code));
}
