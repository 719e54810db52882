// The errors that end a run. Bad rows and refused records are data (Rejection), not exceptions:
// only what stops the whole run is thrown, and cli/exit-codes.ts maps `kind` to an exit code.

export const errorKinds = ['usage', 'config', 'auth', 'delivery', 'lock', 'internal'] as const;
export type ErrorKind = (typeof errorKinds)[number];

export class RevimportError extends Error {
  readonly kind: ErrorKind;
  readonly hint: string | undefined;

  constructor(kind: ErrorKind, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.kind = kind;
    this.hint = options.hint;
  }
}

/** A flag or argument is wrong (exit 2). */
export class UsageError extends RevimportError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super('usage', message, options);
  }
}

/** The config file, mapping or key is wrong or missing (exit 2). */
export class ConfigError extends RevimportError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super('config', message, options);
  }
}

/** A file nothing in which links a conversion to a visitor (no e-mail, no visitor id): the run stops at once. */
export class UnlinkableError extends ConfigError {}

/** A file that looks like a preset's export but is another report (abandoned checkouts for orders). */
export class WrongReportError extends ConfigError {}

/**
 * A file that no preset matches (or several do) while no mapping says how to read it: the CLI adds, when
 * it found no config file, that none was found and how to write one (`revimport init <file>`).
 */
export class NoPresetError extends ConfigError {
  readonly file: string;

  constructor(file: string, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options);
    this.file = file;
  }
}

/**
 * A header without columns the mapping names. The CLI, which knows which config (and preset) the mapping
 * came from, names it: `the config ./revimport.config.yaml (preset shopify) expects ...` (issue 20).
 */
export class ColumnMismatchError extends ConfigError {
  /** `orders.csv:1` (or the file alone). */
  readonly where: string;
  /**
   * `no column "Order ID" (mapped to conversionId; did you mean "Order"?)`; undefined when no row came
   * close to the header the mapping expects (the message lists the columns expected).
   */
  readonly lacks: string | undefined;

  constructor(
    where: string,
    lacks: string | undefined,
    message: string,
    options: { hint?: string; cause?: unknown } = {},
  ) {
    super(message, options);
    this.where = where;
    this.lacks = lacks;
  }
}

/** The server refused the API key (401/403): the run stops at once (exit 3). */
export class AuthError extends RevimportError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super('auth', message, options);
  }
}

/**
 * Delivery cannot go on, though key and URL may be right: an answer that is not the CRM's (an HTML page
 * from a login portal or firewall). What was not delivered stays pending (exit 4).
 */
export class DeliveryError extends RevimportError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super('delivery', message, options);
  }
}

/** Another run holds the ledger lock (exit 5). */
export class LockError extends RevimportError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super('lock', message, options);
  }
}

export function isRevimportError(error: unknown): error is RevimportError {
  return error instanceof RevimportError;
}
