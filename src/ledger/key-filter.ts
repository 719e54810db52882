// The ledger's key filter (issue 23): a set of (target, key) pairs that answers "certainly not in the records
// table" without a page read. A push of new records into a large ledger spent ~9 us a key probing a cold leaf
// page of the records table for a key that was never there (bench/README.md, "The key filter").
//
// A split-block Bloom filter (the layout of Apache Parquet's, by Putze, Sanders and Singler): a key picks one
// 256-bit block with one hash and sets one bit in each of the block's eight 32-bit words with the other, so a
// probe reads one cache line. It never answers "absent" for a key that was added; it answers "maybe" for a
// key never added about once in 200 at the capacity's 12 bits a key. Bloom filters cannot grow, so the
// filter is a list of segments, each twice the last up to `maxPages`, then of `maxPages` each; a key goes into the
// newest and is looked for in all.
// Pure: the pages are written to and read from the ledger file by key-filter-store.ts.

/** 256-bit blocks, 2,048 to a page: a page is 64 KiB, what the ledger stores and rewrites as one row. */
const wordsPerBlock = 8;
export const blocksPerPage = 2048;
const wordsPerPage = blocksPerPage * wordsPerBlock;
export const pageBytes = wordsPerPage * 4;
/** Bits of a segment per key it is sized for: ~0.5 % of absent keys answer "maybe" when it is full. */
const bitsPerKey = 12;
/** The first segment: 2 pages (128 KiB, ~87,000 keys); each next one twice the pages of the last, up to `maxPages`. */
const firstPages = 2;
/**
 * The largest segment: 32 pages (2 MiB, ~1.4M keys). A writer holds its newest segment whole while it adds (the
 * copy it keeps ahead of its merge, key-filter-store.ts) and its merge writes every page it dirtied: a push of 1M
 * keys into a 5M-record ledger opened a 128-page segment (8 MiB) and wrote all of it at its final merge; with this
 * cap it took 0.89 x the time (bench/README.md, "Session 29"). A probe reads one block a segment: 5M keys take
 * seven segments instead of six. Segments already stored keep their size.
 */
export const maxPages = 32;

/** Parquet's split-block salts: one odd multiplier per word of a block. */
const salts = new Uint32Array([
  0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31,
]);

/** One Bloom filter: `pages` pages of blocks, sized for `capacity` keys; `keys` counts what went in. */
export interface Segment {
  readonly pages: number;
  readonly capacity: number;
  keys: number;
  readonly words: Uint32Array;
}

/** A segment of `pages` pages; `unread`: its bits left out (a writer adds to the newest segment only). */
export function newSegment(pages: number, keys = 0, unread = false): Segment {
  const blocks = pages * blocksPerPage;
  return {
    pages,
    capacity: Math.floor((blocks * wordsPerBlock * 32) / bitsPerKey),
    keys,
    words: new Uint32Array(unread ? 0 : blocks * wordsPerBlock),
  };
}

/** murmur3's finaliser: every input bit moves every output bit. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Lone surrogates, and the U+FFFD a key read back from the ledger holds in their place (see `filterForm`). */
const unstable = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\ufffd/g;

/**
 * The key as the filter hashes it: without its lone surrogates and U+FFFD. better-sqlite3 hands back a stored
 * lone surrogate as U+FFFD, three of them on Node 20 (it writes ED A0 80 for U+D800) and one on Node 24: a key
 * read from the records table (a merge of staged rows, a rebuild, a target's merge) is other text than the same
 * key as the pipeline looks it up, though SQLite compares them equal. Without both, the two forms are one text,
 * whatever the release; keys that differ only there share a hash, which costs a probe, never a key.
 */
export function filterForm(key: string): string {
  return key.replace(unstable, '');
}

/**
 * Two 32-bit hashes of `key` of `target` (in its filter form) into `hash`: two lanes over its UTF-16 code units
 * (FNV-1a, and a multiply-rotate lane with another prime), each seeded by the target and finished by `mix`. The
 * first chooses the block, the second the bits. A key with a surrogate or U+FFFD (rare) is hashed again in its
 * filter form.
 */
function hashPair(hash: { block: number; bits: number }, target: number, key: string): void {
  if (!hashUnits(hash, target, key)) hashUnits(hash, target, filterForm(key));
}

/** `hashPair`'s lanes over `key` as it is; false when it holds a surrogate code unit or U+FFFD. */
function hashUnits(hash: { block: number; bits: number }, target: number, key: string): boolean {
  let a = (0x811c9dc5 ^ target) >>> 0;
  let b = Math.imul(target + 1, 0x9e3779b1) ^ key.length;
  let stable = true;
  for (let i = 0; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    stable &&= unit < 0xd800 || (unit > 0xdfff && unit !== 0xfffd);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0xcc9e2d51);
    b = (b << 15) | (b >>> 17);
  }
  hash.block = mix(a ^ key.length);
  hash.bits = mix(b ^ Math.imul(a, 0x1b873593));
  return stable;
}

/** The first word of the block that `block` (a hash) picks in `segment`. */
function blockOf(segment: Segment, block: number): number {
  // Multiply-shift onto [0, blocks): the hash's high bits pick the block (exact in a double below 2^53).
  return Math.floor((block * (segment.pages * blocksPerPage)) / 4294967296) * wordsPerBlock;
}

function setIn(segment: Segment, block: number, bits: number): void {
  const base = blockOf(segment, block);
  const words = segment.words;
  for (let i = 0; i < wordsPerBlock; i++) words[base + i]! |= 1 << (Math.imul(bits, salts[i]!) >>> 27);
}

function isIn(segment: Segment, block: number, bits: number): boolean {
  const base = blockOf(segment, block);
  const words = segment.words;
  for (let i = 0; i < wordsPerBlock; i++) {
    if ((words[base + i]! & (1 << (Math.imul(bits, salts[i]!) >>> 27))) === 0) return false;
  }
  return true;
}

/** The segments of one ledger's filter, oldest first. */
export class KeyFilter {
  readonly segments: Segment[];
  /** Pages written since `takeDirty`, as `segment index * 2^20 + page index`. */
  readonly #dirty = new Set<number>();
  /** The last key's two hashes (one object for the filter's life, not one a key). */
  readonly #hash = { block: 0, bits: 0 };

  constructor(segments: Segment[] = []) {
    this.segments = segments;
  }

  /** False only when (target, key) was never added. */
  mayContain(target: number, key: string): boolean {
    const hash = this.#hash;
    hashPair(hash, target, key);
    const segments = this.segments;
    for (let s = segments.length - 1; s >= 0; s--) if (isIn(segments[s]!, hash.block, hash.bits)) return true;
    return false;
  }

  add(target: number, key: string): void {
    let newest = this.segments.at(-1);
    if (!newest || newest.keys >= newest.capacity) {
      newest = newSegment(newest ? Math.min(newest.pages * 2, maxPages) : firstPages);
      this.segments.push(newest);
    }
    const hash = this.#hash;
    hashPair(hash, target, key);
    setIn(newest, hash.block, hash.bits);
    newest.keys++;
    const page = Math.floor(blockOf(newest, hash.block) / wordsPerPage);
    this.#dirty.add((this.segments.length - 1) * 2 ** 20 + page);
  }

  /** The pages changed since the last call, each as [segment, page]; clears the list. */
  takeDirty(): [number, number][] {
    const pages = [...this.#dirty].map((id): [number, number] => [Math.floor(id / 2 ** 20), id % 2 ** 20]);
    this.#dirty.clear();
    return pages;
  }

  /**
   * Page `page` of segment `segment` as stored, written into `bytes` (`pageBytes` long: the writer reuses one for
   * every page it writes): its words little-endian, whatever the machine's order.
   */
  page(segment: number, page: number, bytes: Buffer): Buffer {
    const words = this.segments[segment]!.words;
    const view = new DataView(bytes.buffer, bytes.byteOffset, pageBytes);
    const first = page * wordsPerPage;
    for (let i = 0; i < wordsPerPage; i++) view.setUint32(i * 4, words[first + i]!, true);
    return bytes;
  }

  /** Overwrites a page from its stored bytes (`pageBytes` long, little-endian words). */
  setPage(segment: number, page: number, bytes: Uint8Array): void {
    if (bytes.byteLength !== pageBytes) throw new Error(`key filter page of ${bytes.byteLength} bytes`);
    const words = this.segments[segment]!.words;
    const view = new DataView(bytes.buffer, bytes.byteOffset, pageBytes);
    const first = page * wordsPerPage;
    for (let i = 0; i < wordsPerPage; i++) words[first + i] = view.getUint32(i * 4, true);
  }
}
