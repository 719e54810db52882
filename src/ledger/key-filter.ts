// The ledger's key filter (issue 23): a set of (target, key) pairs that answers "certainly not in the records
// table" without a page read. A push of new records into a large ledger spent ~9 us a key probing a cold leaf
// page of the records table for a key that was never there (bench/README.md, "The key filter").
//
// A split-block Bloom filter (the layout of Apache Parquet's, by Putze, Sanders and Singler): a key picks one
// 256-bit block with one hash and sets one bit in each of the block's eight 32-bit words with the other, so a
// probe reads one cache line. It never answers "absent" for a key that was added; it answers "maybe" for a
// key never added about once in 200 at the capacity's 12 bits a key. Bloom filters cannot grow, so the
// filter is a list of segments, each twice the last up to `maxPages`, then of `maxPages` each; a key goes into the
// newest and is looked for in all. Every key's two hashes are also handed out (`takeLog`) for the file's log of
// them, from which `fillPages` builds one segment in place of many (a compaction: key-filter-store.ts).
// Pure: the pages are written to and read from the ledger file by key-filter-store.ts.
import { doubled } from '../grown-array.js';

/** 256-bit blocks, 2,048 to a page: a page is 64 KiB, what the ledger stores and rewrites as one row. */
const wordsPerBlock = 8;
export const blocksPerPage = 2048;
export const wordsPerPage = blocksPerPage * wordsPerBlock;
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

/** Pairs of hashes a log row holds at most (512 KiB): `takeLog`'s caller writes one when this many wait. */
export const logRowPairs = 65_536;

/** Parquet's split-block salts: one odd multiplier per word of a block. */
const salts = new Uint32Array([
  0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31,
]);

/**
 * One Bloom filter: `pages` pages of blocks, sized for `capacity` keys; `keys` counts what went in. A `sealed` one (a
 * compaction's, key-filter-store.ts) takes no key after the ones it was built from.
 */
export interface Segment {
  readonly pages: number;
  readonly capacity: number;
  keys: number;
  readonly words: Uint32Array;
  readonly sealed?: boolean;
}

/** A segment of `pages` pages; `unread`: its bits left out (a writer adds to the newest segment only). */
export function newSegment(pages: number, keys = 0, unread = false, sealed = false): Segment {
  return {
    pages,
    capacity: capacityOf(pages),
    keys,
    words: new Uint32Array(unread ? 0 : pages * wordsPerPage),
    ...(sealed ? { sealed } : {}),
  };
}

/** Whether `segment` takes no more keys: it holds its capacity, or it is sealed. */
export function isFull(segment: Pick<Segment, 'keys' | 'capacity' | 'sealed'>): boolean {
  return segment.sealed === true || segment.keys >= segment.capacity;
}

/** The capacity of a segment of `pages` pages. */
function capacityOf(pages: number): number {
  return Math.floor((pages * blocksPerPage * wordsPerBlock * 32) / bitsPerKey);
}

/**
 * Bits a key of a compacted segment: ~0.12 % of absent keys answer "maybe" (0.51 % at 12; a "maybe" costs a look in
 * the records table, ~60 us of a push's main thread in a 5M-record ledger), for 1.33 x the bytes of the one segment
 * that is most of a large ledger's filter (7.7 MiB at 4M keys against 5.8; bench/README.md, "Session 36").
 */
const compactedBitsPerKey = 16;

/** The pages of a compacted segment for `keys` keys, at `compactedBitsPerKey`. */
export function compactedPages(keys: number): number {
  return Math.max(1, Math.ceil((keys * compactedBitsPerKey) / (blocksPerPage * wordsPerBlock * 32)));
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

/** The index of the block that `block` (a hash) picks among a segment's `blocks`. */
function blockIndex(block: number, blocks: number): number {
  // Multiply-shift onto [0, blocks): the hash's high bits pick the block (exact in a double below 2^53).
  return Math.floor((block * blocks) / 4294967296);
}

/** The first word of the block that `block` (a hash) picks in `segment`. */
function blockOf(segment: Segment, block: number): number {
  return blockIndex(block, segment.pages * blocksPerPage) * wordsPerBlock;
}

/** Sets `bits`' eight bits in the block whose first word is `base`. */
function setBits(words: Uint32Array, base: number, bits: number): void {
  for (let i = 0; i < wordsPerBlock; i++) words[base + i]! |= 1 << (Math.imul(bits, salts[i]!) >>> 27);
}

function setIn(segment: Segment, block: number, bits: number): void {
  setBits(segment.words, blockOf(segment, block), bits);
}

/**
 * A compaction's step: sets in `words` (pages `firstPage` on of a segment of `pages` pages) the bits of every
 * pair of `log` (block hash, bits hash, as `takeLog` gives them) whose block lies there; the pairs of the others
 * go to their own step. Pairs are those of `add`, so the segment answers as if every key had been added to it.
 */
export function fillPages(log: Uint32Array, pages: number, firstPage: number, words: Uint32Array): void {
  const blocks = pages * blocksPerPage;
  const first = firstPage * blocksPerPage;
  const count = words.length / wordsPerBlock;
  for (let i = 0; i + 1 < log.length; i += 2) {
    const index = blockIndex(log[i]!, blocks) - first;
    if (index >= 0 && index < count) setBits(words, index * wordsPerBlock, log[i + 1]!);
  }
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
  /** The hashes of the keys added since `takeLog`, two words a key. */
  #log = new Uint32Array(1024);
  #logged = 0;

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
    if (!newest || isFull(newest)) {
      newest = newSegment(newest ? Math.min(newest.pages * 2, maxPages) : firstPages);
      this.segments.push(newest);
    }
    const hash = this.#hash;
    hashPair(hash, target, key);
    setIn(newest, hash.block, hash.bits);
    newest.keys++;
    if (this.#logged + 2 > this.#log.length) this.#log = doubled(this.#log);
    this.#log[this.#logged++] = hash.block;
    this.#log[this.#logged++] = hash.bits;
    const page = Math.floor(blockOf(newest, hash.block) / wordsPerPage);
    this.#dirty.add((this.segments.length - 1) * 2 ** 20 + page);
  }

  /** Keys added since the last `takeLog`. */
  get unlogged(): number {
    return this.#logged / 2;
  }

  /**
   * The two hashes of every key added since the last call, in order (block hash, bits hash), and clears them: a
   * view of the filter's own array, good until the next `add` (the store binds it at once: SQLite copies it).
   */
  takeLog(): Uint32Array {
    const log = this.#log.subarray(0, this.#logged);
    this.#logged = 0;
    return log;
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
    return pageOf(this.segments[segment]!.words, page, bytes);
  }

  /** Overwrites a page from its stored bytes (`pageBytes` long, little-endian words). */
  setPage(segment: number, page: number, bytes: Uint8Array): void {
    if (bytes.byteLength !== pageBytes) throw new Error(`key filter page of ${bytes.byteLength} bytes`);
    this.segments[segment]!.words.set(bytesWords(bytes), page * wordsPerPage);
  }
}

/** Whether this machine keeps a word's bytes little-endian, as the file does: its words are then used as they are. */
const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Page `page` of `words` as stored, into `bytes` (`pageBytes` long): its words little-endian. */
export function pageOf(words: Uint32Array, page: number, bytes: Buffer): Buffer {
  const first = page * wordsPerPage;
  if (littleEndian) {
    bytes.set(new Uint8Array(words.buffer, words.byteOffset + first * 4, pageBytes));
    return bytes;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, pageBytes);
  for (let i = 0; i < wordsPerPage; i++) view.setUint32(i * 4, words[first + i]!, true);
  return bytes;
}

/** Words as a log row stores them (little-endian): on a little-endian machine a view of them, not a copy. */
export function wordBytes(words: Uint32Array): Buffer {
  if (littleEndian) return Buffer.from(words.buffer, words.byteOffset, words.byteLength);
  const bytes = Buffer.allocUnsafe(words.length * 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let i = 0; i < words.length; i++) view.setUint32(i * 4, words[i]!, true);
  return bytes;
}

/** A stored log row's words (`wordBytes` read back): a view of `bytes` where the machine and alignment allow. */
export function bytesWords(bytes: Uint8Array): Uint32Array {
  const length = bytes.byteLength >>> 2;
  if (littleEndian && bytes.byteOffset % 4 === 0)
    return new Uint32Array(bytes.buffer, bytes.byteOffset, length);
  const words = new Uint32Array(length);
  const view = new DataView(bytes.buffer, bytes.byteOffset, length * 4);
  for (let i = 0; i < length; i++) words[i] = view.getUint32(i * 4, true);
  return words;
}
