/**
 * @module embed/word-index
 * The word → rank lookup of the binary word-vector cache, stored in the cache itself so that a process reads it
 * with one read and builds nothing: an open-addressing hash table (FNV-1a over the word's UTF-8 bytes, linear
 * probing, slot = rank + 1, 0 = empty) over the words' bytes and their offsets. Splitting 200,000 words into
 * strings and filling a Map with them cost about 0.28 s of CPU per process; a lookup here costs a hash and a
 * byte comparison, and only the words a text uses are ever looked up.
 */

/** Slots for `count` words: a power of two at least twice the count (load under one half, short probes). */
export function slotCountFor(count: number): number {
  let slots = 16;
  while (slots < count * 2) slots *= 2;
  return slots;
}

function fnv1a(bytes: Uint8Array, length: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

/** Byte offsets of each word in the joined words (count + 1 entries), from the words themselves. */
export function wordOffsets(words: readonly string[]): { offsets: Uint32Array; bytes: Buffer } {
  const parts = words.map((w) => Buffer.from(w, "utf8"));
  const offsets = new Uint32Array(words.length + 1);
  for (let r = 0; r < parts.length; r++) offsets[r + 1] = offsets[r] + parts[r].byteLength;
  return { offsets, bytes: Buffer.concat(parts) };
}

/**
 * The hash table over the words. A word listed twice maps to its later rank, as a Map filled in rank order did
 * (the cache's earlier layout), so that every lookup answers as before.
 */
export function buildSlots(bytes: Uint8Array, offsets: Uint32Array, slotCount: number): Uint32Array {
  const slots = new Uint32Array(slotCount);
  const mask = slotCount - 1;
  const count = offsets.length - 1;
  for (let r = 0; r < count; r++) {
    const word = bytes.subarray(offsets[r], offsets[r + 1]);
    let s = fnv1a(word, word.length) & mask;
    while (slots[s] !== 0 && !sameBytes(bytes, offsets, slots[s] - 1, word, word.length)) s = (s + 1) & mask;
    slots[s] = r + 1;
  }
  return slots;
}

function sameBytes(bytes: Uint8Array, offsets: Uint32Array, rank: number, word: Uint8Array, length: number): boolean {
  const start = offsets[rank];
  if (offsets[rank + 1] - start !== length) return false;
  for (let i = 0; i < length; i++) if (bytes[start + i] !== word[i]) return false;
  return true;
}

const LONE_SURROGATE = /\p{Cs}/u;

/** A Map-like `get` over the stored table (the interface the embedder has always used). */
export class WordIndex {
  private scratch = new Uint8Array(256);
  private readonly encoder = new TextEncoder();
  private readonly mask: number;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly offsets: Uint32Array,
    private readonly slots: Uint32Array,
  ) {
    this.mask = slots.length - 1;
  }

  get(word: string): number | undefined {
    // a lone surrogate would be encoded as U+FFFD and could meet a stored word; a Map of the stored words never did
    if (LONE_SURROGATE.test(word)) return undefined;
    // a UTF-8 encoding is at most three bytes per UTF-16 unit
    if (word.length * 3 > this.scratch.length) this.scratch = new Uint8Array(word.length * 3);
    const length = this.encoder.encodeInto(word, this.scratch).written;
    let s = fnv1a(this.scratch, length) & this.mask;
    for (;;) {
      const slot = this.slots[s];
      if (slot === 0) return undefined;
      if (sameBytes(this.bytes, this.offsets, slot - 1, this.scratch, length)) return slot - 1;
      s = (s + 1) & this.mask;
    }
  }

  has(word: string): boolean {
    return this.get(word) !== undefined;
  }
}
