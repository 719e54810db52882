// The process edges a command may touch, passed in so tests can run commands in-process.
import { escapeControls } from '../quote.js';

export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream;
  env: Record<string, string | undefined>;
  cwd: string;
}

const unguarded = Symbol('unguarded');

/**
 * `stream` with every control character written to it escaped (`\u001b`), line feeds and tabs kept: no
 * message path can put a cell's ESC, BEL or C1 control on the user's terminal or into a log (issue 24).
 * JSON stays the same JSON (`\u009b` in a string is the character). Only the spinner, which draws with
 * escape codes of its own, writes to the stream underneath (`unguardedStream`).
 */
export function guardedStream<S extends NodeJS.WritableStream>(stream: S): S {
  const write = (chunk: unknown, ...rest: unknown[]) => {
    const text =
      typeof chunk === 'string'
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk).toString('utf8')
          : String(chunk);
    return (stream.write as (...args: unknown[]) => boolean)(escapeControls(text, true), ...rest);
  };
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'write') return write;
      if (property === unguarded) return target;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The stream under a guardedStream (the stream itself otherwise): for the spinner's own escape codes. */
export function unguardedStream<S extends NodeJS.WritableStream>(stream: S): S {
  return ((stream as S & { [unguarded]?: S })[unguarded] ?? stream) as S;
}

export function processIO(): CliIO {
  return {
    stdout: guardedStream(process.stdout),
    stderr: guardedStream(process.stderr),
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  };
}
