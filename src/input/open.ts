// Opens an input (a path or `-` for stdin) as a stream of byte chunks, gunzipping on the fly.
// Every failure that ends the read becomes a ConfigError naming the file.

import { open } from 'node:fs/promises';
import { addAbortSignal, pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ConfigError, isRevimportError } from '../errors.js';
import { peek } from './chunks.js';

/** Read size: large enough to amortise per-chunk work, small enough to keep memory flat. */
export const CHUNK_BYTES = 64 * 1024;

export interface OpenOptions {
  /** The stream read when the file is `-`. */
  stdin?: NodeJS.ReadableStream;
  /** Aborting ends the byte stream quietly (the caller decides what an abort means). */
  signal?: AbortSignal;
  /** Gzip: inflated bytes per compressed byte read, at most, once past GZIP_GRACE_BYTES. Default 100. */
  maxGzipRatio?: number;
  /** Told the size of each chunk read from the source, before gunzip (progress: a share of the file's size). */
  onBytes?: (bytes: number) => void;
}

/** Inflated bytes never checked against maxGzipRatio: a small file costs little whatever its ratio. */
export const GZIP_GRACE_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_GZIP_RATIO = 100;

/** True when the bytes start with the gzip magic number 1f 8b. */
export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * The decompressed bytes of `file`. Gzip is recognised by its magic bytes, whatever the name:
 * a `.gz` name on plain bytes is read as plain (with a warning), since the content decides.
 */
export async function* openBytes(
  file: string,
  options: OpenOptions & { onWarning?: (message: string) => void },
): AsyncGenerator<Buffer, void, undefined> {
  const raw = await peek(sourceBytes(file, options), 2);
  if (!isGzip(raw.head)) {
    if (/\.gz$/i.test(file) && raw.head.length > 0) {
      options.onWarning?.(`${file}: the name ends in .gz but the content is not gzip; reading it as is`);
    }
    yield* raw.chunks;
    return;
  }
  yield* gunzip(raw.chunks, file, options);
}

async function* sourceBytes(file: string, options: OpenOptions): AsyncGenerator<Buffer, void, undefined> {
  const stream = file === '-' ? stdinStream(options.stdin) : await openFile(file);
  if (options.signal !== undefined) addAbortSignal(options.signal, stream);
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
      options.onBytes?.(bytes.length);
      yield bytes;
    }
  } catch (error) {
    if (options.signal?.aborted === true) return;
    throw readError(file, error);
  }
}

function stdinStream(stdin: NodeJS.ReadableStream | undefined): Readable {
  if (stdin === undefined) throw new ConfigError('-: reading from stdin, but no stdin stream was given');
  // Wrap so that addAbortSignal and the async iterator see a modern Readable.
  return stdin instanceof Readable ? stdin : new Readable().wrap(stdin);
}

async function openFile(file: string): Promise<Readable> {
  try {
    const handle = await open(file, 'r');
    return handle.createReadStream({ highWaterMark: CHUNK_BYTES });
  } catch (error) {
    throw readError(file, error);
  }
}

function readError(file: string, error: unknown): ConfigError {
  if (isRevimportError(error)) return error as ConfigError;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOENT'
      ? 'file not found'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a directory, not a file'
          : `cannot be read (${error instanceof Error ? error.message : String(error)})`;
  return new ConfigError(`${file}: ${reason}`, { cause: error });
}

async function* gunzip(
  chunks: AsyncIterable<Buffer>,
  file: string,
  options: OpenOptions,
): AsyncGenerator<Buffer, void, undefined> {
  const { signal } = options;
  const maxRatio = options.maxGzipRatio ?? DEFAULT_MAX_GZIP_RATIO;
  const inflate = createGunzip({ chunkSize: CHUNK_BYTES });
  const read = { bytes: 0 };
  // pipeline forwards a read error from the source into `inflate`, so one catch sees both.
  pipeline(Readable.from(counted(chunks, read), { objectMode: false }), inflate, () => {});
  let inflated = 0;
  try {
    for await (const chunk of inflate) {
      inflated += (chunk as Buffer).length;
      // A 0.6 MB file of repeated rows inflated to 6.2M rows, and a 1.26 GB rejects file (issue 24).
      if (inflated > GZIP_GRACE_BYTES && inflated > read.bytes * maxRatio) {
        inflate.destroy();
        throw gzipRatioError(file, read.bytes, inflated, maxRatio);
      }
      yield chunk as Buffer;
    }
  } catch (error) {
    if (signal?.aborted === true) return;
    if (isRevimportError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`${file}: corrupt gzip data (${message})`, { cause: error });
  }
}

async function* counted(
  chunks: AsyncIterable<Buffer>,
  read: { bytes: number },
): AsyncGenerator<Buffer, void, undefined> {
  for await (const chunk of chunks) {
    read.bytes += chunk.length;
    yield chunk;
  }
}

function gzipRatioError(file: string, read: number, inflated: number, maxRatio: number): ConfigError {
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return new ConfigError(
    `${file}: the gzip data inflates more than ${maxRatio} times (maxGzipRatio): ${mib(read)} read became ` +
      `${mib(inflated)}; stopped reading (a decompression bomb, or an export of rows repeated over and over)`,
    {
      hint: `if the file is genuine, raise maxGzipRatio in the config (now ${maxRatio}), or gunzip it and read the plain file`,
    },
  );
}
