// Byte-chunk plumbing shared by the readers: look at the head of a stream without losing it,
// and cut a bounded `raw` excerpt for malformed rows.

/** How much of a row's text a MalformedRow keeps for the rejects file. */
export const RAW_CHARS = 200;
/** Enough UTF-8 bytes for RAW_CHARS characters (4 bytes per character at most). */
export const RAW_BYTES = RAW_CHARS * 4;

export interface Peeked {
  /** The first chunks joined: at least the requested size unless the stream is shorter. */
  head: Buffer;
  /** True when `head` is the whole stream. */
  ended: boolean;
  /** The whole stream again, `head` first. Iterate it once. */
  chunks: AsyncGenerator<Buffer, void, undefined>;
  /** Releases the underlying source when `chunks` is never iterated to its end. */
  close(): Promise<void>;
}

export async function peek(source: AsyncIterable<Buffer>, minBytes: number): Promise<Peeked> {
  const iterator = source[Symbol.asyncIterator]();
  const parts: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < minBytes) {
    const next = await iterator.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    parts.push(next.value);
    size += next.value.length;
  }
  const head = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
  const close = async (): Promise<void> => {
    if (!ended) await iterator.return?.();
  };
  return { head, ended, chunks: replay(head, ended, iterator), close };
}

async function* replay(
  head: Buffer,
  ended: boolean,
  iterator: AsyncIterator<Buffer>,
): AsyncGenerator<Buffer, void, undefined> {
  let done = ended;
  try {
    if (head.length > 0) yield head;
    while (!done) {
      const next = await iterator.next();
      if (next.done === true) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // An early `return()` by the consumer (break, abort, thrown error) must close the file.
    if (!done) await iterator.return?.();
  }
}

/** The text of `bytes` cut to RAW_CHARS characters. */
export function rawText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.length > RAW_CHARS ? text.slice(0, RAW_CHARS) : text;
}
