import { DomainError, Embedder } from '@svc/kernel';
import { idfWeight } from './idf-table';
import { foldedWords, STOPWORDS } from '@svc/text';

export const DEFAULT_LOCAL_DIMENSIONS = 512;
export const MIN_DIMENSIONS = 8;
/** pgvector's `vector` type holds at most 16,000 dimensions. */
export const MAX_DIMENSIONS = 16_000;

/** Relative weight of each feature family in the final vector (each family is normalised first). */
const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.6;
const CHAR_WEIGHT = 1;
const BLOCK_WEIGHTS = [WORD_WEIGHT, BIGRAM_WEIGHT, CHAR_WEIGHT];
const WORD = 0;
const BIGRAM = 1;
const CHAR = 2;

const MIN_GRAM = 3;
const MAX_GRAM = 5;
/** Longer tokens (URLs, hashes, base64) only contribute their first characters' n-grams. */
const MAX_GRAM_WORD_LENGTH = 40;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const WORD_SEED = 0x1b873593;
const BIGRAM_SEED = 0x2f6b1a4d;
const CHAR_SEED = 0x68e31da4;
const SIGN_SEED = 0x5bd1e995;
const BEGIN = 0x3c; // '<': cannot occur inside a token (letters and digits only)
const END = 0x3e; // '>'

/** MurmurHash3's finaliser: spreads FNV-1a's weak high bits over the whole word. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function fnv1a(word: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h >>> 0;
}

/**
 * Features of one text, counted: slot `s` holds feature `keys[s]` (a 30-bit hash, small enough to stay
 * an unboxed integer in V8 maps), its family, its count and the sum of its occurrences' IDF weights.
 * Reused from text to text to spare allocations.
 */
class FeatureBag {
  private readonly slots = new Map<number, number>();
  keys: number[] = [];
  blocks: number[] = [];
  counts: number[] = [];
  idfSums: number[] = [];

  reset(): void {
    this.slots.clear();
    this.keys.length = 0;
    this.blocks.length = 0;
    this.counts.length = 0;
    this.idfSums.length = 0;
  }

  add(hash: number, block: number, idf: number): void {
    const key = hash & 0x3fffffff;
    const slot = this.slots.get(key);
    if (slot === undefined) {
      this.slots.set(key, this.keys.length);
      this.keys.push(key);
      this.blocks.push(block);
      this.counts.push(1);
      this.idfSums.push(idf);
    } else {
      this.counts[slot] += 1;
      this.idfSums[slot] += idf;
    }
  }
}

/**
 * The embedded default: feature hashing of a text's words, word bigrams and character 3- to 5-grams,
 * no model download, no network. Texts are lower-cased and accent-folded; English and French function
 * words are skipped (kept only when a text has nothing else). Each feature is hashed (FNV-1a, then
 * MurmurHash3's finaliser) to one of `dimensions` coordinates with a sign taken from a second hash,
 * so colliding features cancel out on average instead of piling up. A feature weighs
 * (1 + ln tf) × idf (a fixed table, see idf-table.ts); each family is L2-normalised, weighted, summed,
 * and the sum is L2-normalised.
 *
 * Honest limits: it matches shared vocabulary and word forms (refund / refunds / refunded), not
 * meaning (refund / reimbursement). A text without letters or digits maps to the zero vector, which
 * has no direction and therefore no similarity to anything.
 */
export class LocalHashingEmbedder extends Embedder {
  readonly model: string;
  readonly dimensions: number;
  private readonly bag = new FeatureBag();
  private readonly codes = new Uint16Array(MAX_GRAM_WORD_LENGTH + 2);

  constructor(dimensions: number = DEFAULT_LOCAL_DIMENSIONS) {
    super();
    if (!Number.isInteger(dimensions) || dimensions < MIN_DIMENSIONS || dimensions > MAX_DIMENSIONS) {
      throw DomainError.invalid(
        'EMBEDDINGS.INVALID_DIMENSIONS',
        `The local embedder needs a whole number of dimensions between ${MIN_DIMENSIONS} and ${MAX_DIMENSIONS}.`,
      );
    }
    this.dimensions = dimensions;
    this.model = `local-hash-v1-d${dimensions}`;
  }

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.embedOne(text));
  }

  /** Synchronous core of `embed`: the same text always gives the same vector. */
  embedOne(text: string): number[] {
    const all = foldedWords(text);
    let words = all.filter((w) => !STOPWORDS.has(w));
    if (words.length === 0) words = all;
    const bag = this.bag;
    bag.reset();
    let previousHash = 0;
    let previousIdf = 0;
    for (let i = 0; i < words.length; i++) {
      const word = words[i];
      const idf = idfWeight(word);
      const wordHash = fnv1a(word);
      bag.add(fmix32(wordHash ^ WORD_SEED), WORD, idf);
      if (i > 0) bag.add(fmix32(Math.imul(previousHash, 0x9e3779b1) ^ wordHash ^ BIGRAM_SEED), BIGRAM, (idf + previousIdf) / 2);
      this.addCharGrams(word, idf);
      previousHash = wordHash;
      previousIdf = idf;
    }
    return this.project();
  }

  /** Character n-grams of `<word>`, so prefixes and suffixes are features of their own. */
  private addCharGrams(word: string, idf: number): void {
    const codes = this.codes;
    const length = Math.min(word.length, MAX_GRAM_WORD_LENGTH);
    codes[0] = BEGIN;
    for (let i = 0; i < length; i++) codes[i + 1] = word.charCodeAt(i);
    codes[length + 1] = END;
    const total = length + 2;
    for (let start = 0; start + MIN_GRAM <= total; start++) {
      let h = FNV_OFFSET;
      const stop = Math.min(start + MAX_GRAM, total);
      for (let j = start; j < stop; j++) {
        h ^= codes[j];
        h = Math.imul(h, FNV_PRIME);
        if (j - start + 1 >= MIN_GRAM) this.bag.add(fmix32(h ^ CHAR_SEED), CHAR, idf);
      }
    }
  }

  private project(): number[] {
    const d = this.dimensions;
    const { keys, blocks, counts, idfSums } = this.bag;
    const families = new Float64Array(3 * d);
    for (let s = 0; s < keys.length; s++) {
      const key = keys[s];
      const tf = counts[s];
      const weight = (1 + Math.log(tf)) * (idfSums[s] / tf);
      const sign = fmix32(key ^ SIGN_SEED) & 1 ? 1 : -1;
      families[blocks[s] * d + (key % d)] += sign * weight;
    }
    const out = new Array<number>(d).fill(0);
    for (let b = 0; b < 3; b++) {
      let sq = 0;
      for (let i = b * d; i < (b + 1) * d; i++) sq += families[i] * families[i];
      if (sq === 0) continue;
      const scale = BLOCK_WEIGHTS[b] / Math.sqrt(sq);
      for (let i = 0; i < d; i++) out[i] += families[b * d + i] * scale;
    }
    let sq = 0;
    for (let i = 0; i < d; i++) sq += out[i] * out[i];
    if (sq === 0) return out;
    const inv = 1 / Math.sqrt(sq);
    for (let i = 0; i < d; i++) out[i] *= inv;
    return out;
  }
}
