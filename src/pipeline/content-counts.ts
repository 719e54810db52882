// Identical records without a conversionId, counted per file (the in-run check for records keyed by content).
// The ledger knows such a record by its content hash (record-key.ts), so two identical rows of one export would
// be one key. They are two conversions, as the export says (two equal purchases in the same second, or a file
// that repeats a line: the ledger cannot tell either from the other, the export's own count is kept). The nth
// identical record of a file is keyed as the nth occurrence (`h:<hash>#n` past the first), so:
// - a file's identical rows are all sent, wherever they sit (one batch, batches apart, a merge between them);
// - a later run of the same file, or of a later export holding the same rows, finds each occurrence sent;
// - in one run, a file repeating what an earlier file of the run had (overlapping exports pushed together) sends
//   only the occurrences past the earlier file's count: the same as pushing the two files in two runs.
// Files are met one after another. A summed record (mapping.sumBy) is counted at the run's end, as a record of its
// first row's file: when a later file had an identical record meanwhile, that file's count is folded into the others'
// and the earlier file's restarts at 0, so the summed record is taken for a repeat of the later file's (reported as
// identical to an earlier file's row, never sent twice, never a key given twice). It takes a user's sumBy without a
// conversionId (both presets that sum, PayPal and Shopify Payments, map one) and identical records in two files.
// Exact at the ledger's own identity: a slot keeps the content hash's whole 128 bits (4 words), the file it was
// last met in, its count there, and the highest count in the run's other files: 28 bytes a slot, 35-40 bytes
// per distinct record (measured 40.0 at 100,000). 256 tables picked by the hash's top byte, each grown by a
// quarter (grown-slots.ts: no run-sized copy).
import { contentHashLength } from '../ledger/record-key.js';
import { grownCapacity, placedAgain } from './grown-slots.js';

const shardBits = 8;
const stride = 7;
const firstSlots = 16;
const maxLoad = 0.8;

export class ContentCounts {
  readonly #tables = Array.from({ length: 1 << shardBits }, () => new CountTable());
  readonly #words = new Uint32Array(4);

  /**
   * Counts a record of `file` (a number > 0 per file of the run) with content hash `digest` (hex, as contentHash
   * makes it). Returns its occurrence in its file (1 for the first), or 0 when an earlier file of the run had
   * that occurrence already (a duplicate).
   */
  add(digest: string, file: number): number {
    const words = this.#words;
    wordsOf(digest, words);
    return this.#tables[words[0]! >>> (32 - shardBits)]!.add(words, file);
  }

  /** Bytes of the slots, for the tests' bound. */
  get bytes(): number {
    let slots = 0;
    for (const table of this.#tables) slots += table.capacity;
    return slots * stride * 4;
  }
}

/** The hex digest's 128 bits as four words. */
function wordsOf(digest: string, into: Uint32Array): void {
  if (digest.length !== contentHashLength) throw new Error(`not a content hash: ${digest.length} characters`);
  for (let w = 0; w < 4; w++) {
    let word = 0;
    for (let i = w * 8; i < w * 8 + 8; i++) word = word * 16 + hexValue(digest.charCodeAt(i));
    into[w] = word;
  }
}

function hexValue(unit: number): number {
  if (unit >= 48 && unit <= 57) return unit - 48;
  if (unit >= 97 && unit <= 102) return unit - 87;
  throw new Error(`not a content hash: ${String.fromCharCode(unit)}`);
}

/** Open addressing over slots of seven words: the digest's four, file (0: empty), count, others' highest count. */
class CountTable {
  #slots = new Uint32Array(firstSlots * stride);
  #capacity = firstSlots;
  #size = 0;

  get capacity(): number {
    return this.#capacity;
  }

  add(words: Uint32Array, file: number): number {
    const slots = this.#slots;
    const capacity = this.#capacity;
    let i = home(words[1]!, capacity);
    for (let at = i * stride; slots[at + 4] !== 0; at = i * stride) {
      if (
        slots[at] === words[0] &&
        slots[at + 1] === words[1] &&
        slots[at + 2] === words[2] &&
        slots[at + 3] === words[3]
      )
        return met(slots, at, file);
      if (++i === capacity) i = 0;
    }
    const at = i * stride;
    slots.set(words, at);
    slots[at + 4] = file;
    slots[at + 5] = 1;
    slots[at + 6] = 0;
    if (++this.#size > capacity * maxLoad) this.#grow();
    return 1;
  }

  #grow(): void {
    const old = this.#slots;
    const capacity = grownCapacity(this.#capacity);
    this.#slots = placedAgain(old, stride, 4, capacity, (at) => home(old[at + 1]!, capacity));
    this.#capacity = capacity;
  }
}

/**
 * A record met again: its occurrence in `file`, or 0 when other files of the run had as many. A slot last met in
 * another file folds that file's count into the others' highest (files come one after another).
 */
function met(slots: Uint32Array, at: number, file: number): number {
  if (slots[at + 4] !== file) {
    slots[at + 6] = Math.max(slots[at + 6]!, slots[at + 5]!);
    slots[at + 4] = file;
    slots[at + 5] = 0;
  }
  const occurrence = slots[at + 5]! + 1;
  slots[at + 5] = occurrence;
  return occurrence <= slots[at + 6]! ? 0 : occurrence;
}

/** A slot's home among `capacity`: the hash's second word (the first picked the table). */
function home(word: number, capacity: number): number {
  return Math.floor((word * capacity) / 0x1_0000_0000);
}
