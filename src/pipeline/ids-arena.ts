// The ids SeenIds keeps as text (those with no exact 64-bit key): their UTF-16 code units, one byte each
// when all are below 256 (Latin-1, most ids) else two, after a 4-byte header (length and which width: an
// id's bytes are its code units exactly, so lone surrogates stay apart too), in 1 MiB chunks that are never copied or regrown, so a hash match can be confirmed exactly at
// the id's length + 4 bytes, without keeping the row text a JS string slice would keep alive.

const chunkBytes = 1 << 20;

export class IdsArena {
  readonly #chunks: Uint8Array[] = [];
  /** Bytes used in the last chunk. */
  #used = chunkBytes;
  #scratch = new Uint8Array(256);

  /** Chunks allocated, in bytes. */
  get bytes(): number {
    return this.#chunks.length * chunkBytes;
  }

  /** Appends the id; its position (below 2^32 - 1: 4 GiB of ids, far past memory). */
  append(id: string): number {
    const { header, bytes } = this.#encode(id);
    const need = bytes.length + 4;
    if (this.#used + need > chunkBytes) {
      this.#chunks.push(new Uint8Array(Math.max(chunkBytes, need)));
      this.#used = 0;
    }
    const chunk = this.#chunks.at(-1)!;
    writeHeader(chunk, this.#used, header);
    chunk.set(bytes, this.#used + 4);
    const position = (this.#chunks.length - 1) * chunkBytes + this.#used;
    this.#used += need;
    return position;
  }

  /** Whether the id at `position` is `id`, byte for byte. */
  equals(position: number, id: string): boolean {
    const chunk = this.#chunks[Math.floor(position / chunkBytes)]!;
    const at = position % chunkBytes;
    const { header, bytes } = this.#encode(id);
    if (readHeader(chunk, at) !== header) return false;
    for (let i = 0; i < bytes.length; i++) if (chunk[at + 4 + i] !== bytes[i]) return false;
    return true;
  }

  /** The id's bytes, in a scratch buffer (valid until the next call); the header says which width. */
  #encode(id: string): { header: number; bytes: Uint8Array } {
    let wide = false;
    for (let i = 0; i < id.length && !wide; i++) wide = id.charCodeAt(i) > 255;
    const length = wide ? id.length * 2 : id.length;
    if (this.#scratch.length < length) this.#scratch = new Uint8Array(length);
    const bytes = this.#scratch.subarray(0, length);
    for (let i = 0; i < id.length; i++) {
      const code = id.charCodeAt(i);
      if (!wide) bytes[i] = code;
      else {
        bytes[i * 2] = code >>> 8;
        bytes[i * 2 + 1] = code & 0xff;
      }
    }
    return { header: (wide ? 0x8000_0000 : 0) + length, bytes };
  }
}

function writeHeader(chunk: Uint8Array, at: number, header: number): void {
  chunk[at] = header >>> 24;
  chunk[at + 1] = (header >>> 16) & 0xff;
  chunk[at + 2] = (header >>> 8) & 0xff;
  chunk[at + 3] = header & 0xff;
}

function readHeader(chunk: Uint8Array, at: number): number {
  return ((chunk[at]! << 24) | (chunk[at + 1]! << 16) | (chunk[at + 2]! << 8) | chunk[at + 3]!) >>> 0;
}
