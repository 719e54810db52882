// An error thrown on the row thread, carried to the main thread as data and thrown there again as the same
// class with the same fields, so the CLI says and exits exactly as when the rows are read on the main thread.
import {
  AuthError,
  ColumnMismatchError,
  ConfigError,
  DeliveryError,
  LockError,
  NoPresetError,
  RevimportError,
  UnlinkableError,
  UsageError,
  WrongReportError,
} from '../../errors.js';

/** An error as it crosses threads: its class name, message, stack and own fields (code, path, file...). */
export interface SentError {
  className: string;
  name: string;
  message: string;
  stack: string | undefined;
  fields: Record<string, unknown>;
  cause: SentError | undefined;
}

// Subclasses first: `instanceof` of a parent would match them too.
const classes = [
  ['UnlinkableError', UnlinkableError],
  ['WrongReportError', WrongReportError],
  ['NoPresetError', NoPresetError],
  ['ColumnMismatchError', ColumnMismatchError],
  ['ConfigError', ConfigError],
  ['UsageError', UsageError],
  ['AuthError', AuthError],
  ['DeliveryError', DeliveryError],
  ['LockError', LockError],
  ['RevimportError', RevimportError],
  ['RangeError', RangeError],
  ['TypeError', TypeError],
  ['Error', Error],
] as const;

export function sendError(error: unknown, depth = 0): SentError {
  if (!(error instanceof Error)) {
    return {
      className: 'Error',
      name: 'Error',
      message: String(error),
      stack: undefined,
      fields: {},
      cause: undefined,
    };
  }
  const className = classes.find(([, type]) => error instanceof type)?.[0] ?? 'Error';
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(error)) {
    if (name !== 'cause' && isPlain(value)) fields[name] = value;
  }
  const cause = error.cause !== undefined && depth < 3 ? sendError(error.cause, depth + 1) : undefined;
  return { className, name: error.name, message: error.message, stack: error.stack, fields, cause };
}

/** The error again, of its class: fields set as they were (a RevimportError's kind and hint among them). */
export function reviveError(sent: SentError): Error {
  const type = classes.find(([name]) => name === sent.className)?.[1] ?? Error;
  const error = Object.create(type.prototype) as Error;
  Object.defineProperty(error, 'message', { value: sent.message, writable: true, configurable: true });
  Object.defineProperty(error, 'stack', { value: sent.stack, writable: true, configurable: true });
  if (sent.cause)
    Object.defineProperty(error, 'cause', {
      value: reviveError(sent.cause),
      writable: true,
      configurable: true,
    });
  Object.assign(error, sent.fields);
  if (error.name !== sent.name)
    Object.defineProperty(error, 'name', { value: sent.name, writable: true, configurable: true });
  return error;
}

function isPlain(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return true;
  return Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number');
}
