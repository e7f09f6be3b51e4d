import { foldText } from './fold';
import { ENGLISH_DAY_NAMES } from './days';

/**
 * The proper names of a repository: words written with a capital where a sentence does not start
 * ("the Trailhead 2", "in Paris") and never in lower case. Built once per scan from every text.
 */
export function properNames(texts: Iterable<string>): Set<string> {
  const upper = new Map<string, number>();
  const lower = new Set<string>();
  for (const text of texts) {
    for (const line of text.split('\n')) {
      const body = line.replace(/^\s*(?:#+|[-*+]|\d+[.)])\s+/u, '');
      // A title line ("Patient Billing and Payment Terms") capitalises every word: it says nothing of names.
      if (!/[|,]/u.test(body) && !/[.!?]\s*$/u.test(body) && isTitle(body.trim().split(/\s+/u))) continue;
      // Sentence, list item and table cell starts are capitalised whatever the word.
      for (const part of body.split(/\||[.!?:;]\s+/u)) {
        const words = part.trim().split(/\s+/u);
        words.forEach((raw, i) => {
          const w = raw.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
          if (w.length < 3) return;
          if (/^\p{Ll}/u.test(w)) lower.add(foldText(w));
          else if (i > 0 && /^\p{Lu}\p{Ll}+$/u.test(w)) upper.set(foldText(w), (upper.get(foldText(w)) ?? 0) + 1);
        });
      }
    }
  }
  return new Set([...upper.keys()].filter((w) => !lower.has(w) && canBeName(w)));
}

/** False for a folded word that is capitalised whatever it names: a month, a day, a kind of document ("these Terms"). */
export function canBeName(word: string): boolean {
  return !CALENDAR.has(word) && !DOCUMENT_KINDS.has(word);
}

/** Kinds of documents, capitalised when a document names itself ("under these Terms", "this Policy"): not a scope. */
const DOCUMENT_KINDS = new Set(
  'policy policies procedure procedures terms conditions agreement guide guidelines handbook manual charter schedule rules regulations code plan process notice annex appendix section article chapter politique procedure charte reglement guide annexe article chapitre'.split(' '),
);

/** Months and days, capitalised in English whatever they name: never a scope ("by 31 March", "on Saturdays"). */
const CALENDAR = new Set(['january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december', ...ENGLISH_DAY_NAMES]);

/** Words a title leaves in lower case ("Terms and Conditions of Sale"). */
const TITLE_FUNCTION_WORDS = new Set('a an and at by for from in of on or the to with de des du et la le les pour sur aux au en'.split(' '));

/** A line written in title case: at least three words, every word but the function words capitalised (table rows, sentences and lists with commas are not titles). */
function isTitle(words: readonly string[]): boolean {
  const content = words.map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')).filter((w) => w.length > 0 && !TITLE_FUNCTION_WORDS.has(w));
  return content.length >= 3 && content.every((w) => /^[\p{Lu}\p{N}]/u.test(w));
}

/** The proper names a text holds (see `properNames`). */
export function namesOf(text: string, names: ReadonlySet<string>): string[] {
  return [...new Set(text.split(/[^\p{L}]+/u).filter((w) => /^\p{Lu}/u.test(w)).map((w) => foldText(w)).filter((w) => names.has(w)))].sort();
}

/** Legal forms written after a company's name ("Quillmoor Freight Ltd", "Ravensmere Hôtels Belgique SRL"). */
const LEGAL_FORM = /((?:\p{Lu}[\p{L}'’&-]*\s+){1,4})(Ltd|Limited|PLC|plc|Inc|LLC|LLP|GmbH|SRL|SARL|SAS|SA|BV|NV|AG|Corp|Corporation)(?![\p{L}])/gu;

/**
 * The words of the legal names a text writes past their first (the capitalised words before a legal form, and the
 * form: "Freight" and "Ltd" of "Quillmoor Freight Ltd"). A legal name is one name, its first word: the others say
 * nothing of a statement's subject and add no scope of their own. Folded.
 */
export function organisationNames(texts: Iterable<string>): Set<string> {
  const out = new Set<string>();
  const first = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(LEGAL_FORM)) {
      const words = `${m[1]} ${m[2]}`.split(/[^\p{L}'’&-]+/u).filter(Boolean).map(foldText);
      first.add(words[0]);
      for (const w of words.slice(1)) out.add(w);
    }
  }
  for (const w of first) out.delete(w);
  return out;
}
