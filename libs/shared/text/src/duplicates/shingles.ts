import { DUPLICATES } from './constants';
import { fmix32, murmurStep } from './hash32';

/** Bound once (see hash32.ts: a global lookup per iteration is slow under Jest). */
const imul = Math.imul;

/** Letters, combining marks and digits of the Basic Multilingual Plane, built on first use (one regex test per code unit). */
let wordCharTable: Uint8Array | undefined;

function wordChars(): Uint8Array {
  if (wordCharTable) return wordCharTable;
  const table = new Uint8Array(0x10000);
  const wordChar = /[\p{L}\p{M}\p{N}]/u;
  for (let c = 0; c < 0x10000; c++) {
    // Surrogates: the letters of the other planes (CJK extensions, historic scripts) are rare enough to take every astral character as one.
    table[c] = (c >= 0xd800 && c <= 0xdfff) || wordChar.test(String.fromCharCode(c)) ? 1 : 0;
  }
  wordCharTable = table;
  return table;
}

/** Word hashes of the text being shingled; grown, never shrunk, so shingling allocates no strings. */
let wordBuffer = new Int32Array(1024);

/**
 * The 32-bit hashes (FNV-1a over UTF-16 code units) of the words of a text, in order: runs of letters,
 * marks and digits, so punctuation and symbols never change a shingle. Returns the count; the hashes are
 * in the shared buffer.
 */
function hashWords(text: string): number {
  const table = wordChars();
  let count = 0;
  let h = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (table[c] === 1) {
      if (!inWord) {
        h = 0x811c9dc5;
        inWord = true;
      }
      h = imul(h ^ c, 0x01000193);
    } else if (inWord) {
      count = pushWord(count, h);
      inWord = false;
    }
  }
  if (inWord) count = pushWord(count, h);
  return count;
}

function pushWord(count: number, hash: number): number {
  if (count === wordBuffer.length) {
    const grown = new Int32Array(wordBuffer.length * 2);
    grown.set(wordBuffer);
    wordBuffer = grown;
  }
  wordBuffer[count] = hash;
  return count + 1;
}

/**
 * The sorted, distinct 32-bit hashes of the word `size`-shingles (every run of `size` consecutive words)
 * of a canonical text ({@link canonicalText}). A text with fewer words gets one shingle of all its words,
 * so short notes still compare; a text without words gets none. The hash of a shingle is MurmurHash3
 * over its word hashes, in order.
 */
export function wordShingles(canonical: string, size: number = DUPLICATES.shingleSize): Uint32Array {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`shingle size must be a positive integer, got ${size}`);
  const words = hashWords(canonical);
  if (words === 0) return new Uint32Array(0);
  const width = Math.min(size, words);
  const out = new Uint32Array(words - width + 1);
  for (let start = 0; start < out.length; start++) {
    let h = width;
    for (let j = 0; j < width; j++) h = murmurStep(h, wordBuffer[start + j]);
    out[start] = fmix32(h ^ width) >>> 0;
  }
  return sortedUnique(out);
}

/** Sorts in place (typed-array sort is numeric) and returns the distinct values, copied to a right-sized array. */
function sortedUnique(values: Uint32Array): Uint32Array {
  values.sort();
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    if (i === 0 || values[i] !== values[n - 1]) values[n++] = values[i];
  }
  return n === values.length ? values : values.slice(0, n);
}

/**
 * Exact Jaccard similarity |A ∩ B| / |A ∪ B| of two sorted, distinct shingle sets, by one merge. Two empty
 * sets give 0: a document without words is like nothing, not like every other empty one.
 */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  const shared = intersectionSize(a, b);
  return shared / (a.length + b.length - shared);
}

/** |A ∩ B| of two sorted, distinct sets. */
export function intersectionSize(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return shared;
}

/**
 * The exact Jaccard of two sorted, distinct sets when it reaches `threshold`; otherwise some value below
 * `threshold`, returned as soon as the merge shows the threshold out of reach. J ≥ t needs
 * |A ∩ B| ≥ t·(|A| + |B|) / (1 + t): once the shared values found plus the values left on the shorter side
 * fall below that, the pair is rejected. Most LSH candidates are far below the threshold and stop early.
 */
export function jaccardAtLeast(a: Uint32Array, b: Uint32Array, threshold: number): number {
  const sizeA = a.length;
  const sizeB = b.length;
  if (sizeA === 0 || sizeB === 0) return 0;
  if (jaccardUpperBound(sizeA, sizeB) < threshold) return 0;
  const needed = Math.ceil(((threshold * (sizeA + sizeB)) / (1 + threshold)) * (1 - 1e-12));
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < sizeA && j < sizeB) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      shared++;
      i++;
      j++;
    } else {
      if (x < y) i++;
      else j++;
      // Each value passed over unmatched lowers what the rest can share.
      if (shared + Math.min(sizeA - i, sizeB - j) < needed) return 0;
    }
  }
  return shared / (sizeA + sizeB - shared);
}

/**
 * The highest Jaccard two sets of these sizes can have (min / max): pairs below the threshold by size
 * alone are rejected without a merge.
 */
export function jaccardUpperBound(sizeA: number, sizeB: number): number {
  if (sizeA === 0 || sizeB === 0) return 0;
  return sizeA < sizeB ? sizeA / sizeB : sizeB / sizeA;
}
