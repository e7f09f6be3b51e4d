/** Letters that Unicode decomposition leaves whole but readers treat as plain letters. */
const LIGATURES: Record<string, string> = { œ: 'oe', æ: 'ae', ß: 'ss', ø: 'o', ł: 'l', đ: 'd', ı: 'i', ŀ: 'l' };

/** Lower-cased, accent-folded text ("Élève" → "eleve", "ﬁn" → "fin"); lengths may change. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[œæßøłđıŀ]/g, (c) => LIGATURES[c] ?? c);
}

/** The folded words of a text: runs of letters and digits ("l'offre" gives "l", "offre"). */
export function foldedWords(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A word as written and folded; one written word may fold into several ("œuvre²" → "oeuvre2"). */
export interface Word {
  written: string;
  folded: string;
}

/** The words of a text with their written form, for messages that quote them back. */
export function writtenWords(text: string): Word[] {
  return (text.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).flatMap((written) => foldedWords(written).map((folded) => ({ written, folded })));
}

/**
 * English and French function words and question words, folded. They say nothing about the topic,
 * so neither the question's terms nor the sentences' terms include them.
 */
const FUNCTION_WORDS = `
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing down during each either else ever few for from further
had has have having he her here hers him his how i if in into is it its itself just let ll may me might
more most must my myself neither no nor not now of off on once only or other our ours out over own per re
s same shall she should so some such t than that the their theirs them themselves then there these they
this those through to too under until up upon us very ve was we were what when where which while who whom
whose why will with would yet you your yours d m o y within
a ai aie aient ainsi alors au aucun aucune aussi autre autres aux avaient avais avait avant avec avez
avions avoir avons ayant c ca car ce ceci cela celle celles celui ces cet cette ceux chaque chez comme
comment combien d dans de des donc dont du elle elles en encore entre es est et etaient etais etait etant
ete etes etre eu eux fut ici il ils j je l la le les leur leurs lors lui m ma mais me meme memes mes moi
mon n ne ni nos notre nous on ont or ou ou par parce pas peu peut plus pour pourquoi qu quand que quel
quelle quelles quels qui quoi s sa se sera seront ses si son sont sous suis sur t ta te tes toi ton tous
tout toute toutes tres tu un une unes uns vers vos votre vous y`;

export const STOPWORDS: ReadonlySet<string> = new Set(FUNCTION_WORDS.split(/\s+/).filter(Boolean));

/**
 * Words a question uses to frame the request rather than to name its subject ("how long does a refund
 * take", "what is the deadline"): a sentence answers without them, so they only count when the
 * question has nothing else, and break ties otherwise (weighted WEAK_TERM_WEIGHT among themselves).
 */
const WEAK_WORDS = `take get make give need want know happen tell find say possible
deadline delay period duration date time amount number quantity percentage rate maximum minimum limit
faut faire obtenir prendre falloir delai duree periode montant nombre quantite pourcentage taux plafond`;

export const WEAK_TERM_WEIGHT = 0.3;

/** Ordered longest first: the first suffix that leaves a stem of at least 3 letters is removed. */
const SUFFIXES: [string, string][] = (
  [
    ['issements', ''],
    ['issement', ''],
    ['ations', ''],
    ['ation', ''],
    ['ements', ''],
    ['ement', ''],
    ['ments', ''],
    ['ment', ''],
    ['ables', ''],
    ['able', ''],
    ['ibles', ''],
    ['ible', ''],
    ['ances', ''],
    ['ance', ''],
    ['ences', ''],
    ['ence', ''],
    ['ities', ''],
    ['ity', ''],
    ['ites', ''],
    ['ite', ''],
    ['ness', ''],
    ['ings', ''],
    ['ing', ''],
    ['ives', ''],
    ['ive', ''],
    ['ies', 'y'],
    ['ied', 'y'],
    ['ers', ''],
    ['eurs', ''],
    ['euses', ''],
    ['euse', ''],
    ['eur', ''],
    ['ions', ''],
    ['ion', ''],
    ['aux', 'al'],
    ['ly', ''],
    ['ed', ''],
    ['es', ''],
    ['er', ''],
    ['al', ''],
  ] as [string, string][]
).sort((a, b) => b[0].length - a[0].length);

const MIN_STEM = 3;

/**
 * A light, deterministic English and French stemmer for folded words: one suffix off (plurals,
 * participles, -ment/-ation nouns), then a final silent "e" and a doubled final consonant. It only
 * needs to give related forms one key ("refunds", "refunded" → "refund"; "remboursements",
 * "remboursé" → "rembours"), not linguistic roots. Digits are kept as they are.
 */
export function stem(word: string): string {
  if (word.length <= MIN_STEM || /\d/.test(word)) return word;
  let w = word;
  let stripped = false;
  for (const [suffix, replacement] of SUFFIXES) {
    if (w.endsWith(suffix) && w.length - suffix.length + replacement.length >= MIN_STEM) {
      w = w.slice(0, w.length - suffix.length) + replacement;
      stripped = true;
      break;
    }
  }
  if (!stripped && w.endsWith('s') && !/[sui]s$/.test(w) && w.length - 1 >= MIN_STEM) w = w.slice(0, -1);
  while (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 4 && /([^aeiouys])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

const WEAK_STEMS: ReadonlySet<string> = new Set(WEAK_WORDS.split(/\s+/).filter(Boolean).map(stem));

export function isWeakStem(s: string): boolean {
  return WEAK_STEMS.has(s);
}

/** The stems of a text's content words (function words and one-letter words left out). */
export function contentStems(text: string): string[] {
  return foldedWords(text)
    .filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\d/.test(w)))
    .map(stem);
}

export type SentenceKind = 'statement' | 'heading' | 'question';

export interface Sentence {
  /** The sentence as written (list markers and heading marks removed, whitespace collapsed). */
  text: string;
  kind: SentenceKind;
  /** Blocks are separated by blank lines; a sentence's neighbours in one block continue it. */
  block: number;
}

/** Words before a period that do not end a sentence (folded). A single letter never does ("e.g.", "J. Smith"). */
const ABBREVIATIONS = new Set(
  'mr mrs ms dr prof st vs fig art cf approx env mme mlle dept inc ltd corp ref vol pp min max av bd'.split(' '),
);
/** Abbreviations only before a number ("No. 5", "n° 12"). */
const NUMBER_ABBREVIATIONS = new Set(['no', 'nr', 'nos']);

const LIST_MARKER = /^(?:#{1,6}\s+|[-*+•▪◦]\s+|\d{1,3}[.)]\s+|>\s*)/u;
const TERMINAL = /[.!?…:;]["'”»)\]]*$/u;

/**
 * Splits a passage into sentences, keeping each one's words exactly as written. Lines are units of
 * their own (chunks keep headings, list items and table rows on separate lines); within a line a
 * period, "!", "?" or "…" ends a sentence when followed by a space and a capital, a digit or a quote,
 * except after an abbreviation or an initial. A line of at most eight words without final
 * punctuation (not a list item), or a Markdown heading, is a heading; a sentence ending with "?" is
 * a question.
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let block = 0;
  let blankSeen = false;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((raw, lineIndex) => {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (line === '') {
      blankSeen = true;
      return;
    }
    if (blankSeen && out.length > 0) block++;
    blankSeen = false;
    const markdownHeading = /^#{1,6}\s/.test(line);
    const listItem = !markdownHeading && LIST_MARKER.test(line);
    const body = line.replace(LIST_MARKER, '').trim();
    if (body === '' || !/[\p{L}\p{N}]/u.test(body)) return;
    const hasNext = lines.slice(lineIndex + 1).some((l) => l.trim() !== '');
    const words = body.split(' ').length;
    const heading = markdownHeading || (!listItem && !TERMINAL.test(body) && words <= 8 && hasNext);
    for (const piece of splitLine(body)) {
      const kind: SentenceKind = /\?["'”»)\]]*$/u.test(piece) ? 'question' : heading ? 'heading' : 'statement';
      out.push({ text: piece, kind, block });
    }
  });
  return out;
}

function splitLine(line: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  const boundary = /[.!?…]+["'”»)\]]*(?=\s)/gu;
  for (let match = boundary.exec(line); match; match = boundary.exec(line)) {
    const end = match.index + match[0].length;
    const rest = line.slice(end).trimStart();
    if (!/^[\p{Lu}\p{N}"'“«([]/u.test(rest)) continue;
    if (match[0].startsWith('.')) {
      const before = /([\p{L}]+)$/u.exec(line.slice(start, match.index));
      const word = before ? foldText(before[1]) : '';
      if (word.length === 1 || ABBREVIATIONS.has(word)) continue;
      if (NUMBER_ABBREVIATIONS.has(word) && /^\d/.test(rest)) continue;
    }
    pieces.push(line.slice(start, end).trim());
    start = end;
  }
  const last = line.slice(start).trim();
  if (last !== '') pieces.push(last);
  return pieces;
}

/** French-only and English-only function words, to tell the language of a question. */
const FRENCH_MARKERS = new Set(
  'le la les des du un une est sont que qui quel quelle quels quelles combien quand comment pourquoi dans pour avec sur ou je nous vous il elle ils faut peut puis doit mon ma mes au aux'.split(' '),
);
const ENGLISH_MARKERS = new Set(
  'the a an is are what which who when where why how does do did can could will should must my our your of for with on in it this that there'.split(' '),
);

/** `fr` when the text reads as French, else `en`. */
export function guessLanguage(text: string): 'en' | 'fr' {
  let fr = 0;
  let en = 0;
  for (const word of foldedWords(text)) {
    if (FRENCH_MARKERS.has(word)) fr++;
    if (ENGLISH_MARKERS.has(word)) en++;
  }
  return fr > en ? 'fr' : 'en';
}
