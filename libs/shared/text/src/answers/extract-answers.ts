import { foldedWords, foldText } from '../fold';
import { hasNegation } from '../negation';
import { canBeName, properNames } from '../names';
import { stem } from '../stem';
import { stopwordsOf } from '../stopwords';
import { extractValues, TypedValue, ValueKind } from '../values';
import { detectLanguage, Language } from '../language';
import { profileQuestion, QuestionProfile } from './question-profile';
import type { AnswerKind, ExtractedAnswer, Passage } from './question-analysis.types';
import { firstCell, Segment, segments } from './segments';
import { hasSynonym } from '../synonyms';
import { hasRelated } from './terms';
import { wordNetSynonyms } from '../wordnet';

/**
 * Tuning of the rule-based extraction. Set by hand on the demo corpus and the RAMDocs development split
 * (tools/eval), never fitted to single answers.
 */
export const EXTRACTION = {
  /** Share of the question's weighted terms a sentence must hold (with context credit) to answer a value question. */
  minValueCoverage: 0.55,
  /** The same for named questions, which lack a typed value to confirm the sentence. */
  minOpenCoverage: 0.6,
  /** Yes/no questions: any sentence on the subject reads as a "yes", so the sentence must state most of the question. */
  minYesNoCoverage: 0.75,
  /** Credit of a question term found in the sentence, as a prefix-related word, in a heading or the document name, elsewhere in the passage. */
  inSentence: 1,
  related: 0.8,
  inHeading: 0.7,
  inPassage: 0.45,
  /** A name of the question in another retrieved passage of the same document (its scope section: "applies to the Irish sites"). */
  inDocument: 0.3,
  /** Weight of a framing term ("price", "days") against a subject term. */
  framingWeight: 0.35,
  /** Largest share of the question's subject words that may be absent from every retrieved document. */
  maxUnknownSubject: 0.5,
};

interface Credit {
  coverage: number;
}

const DEMONYMS = new Set(
  'american british english german french italian spanish dutch belgian swiss austrian polish russian canadian australian irish scottish welsh japanese chinese indian mexican brazilian swedish norwegian danish finnish greek portuguese turkish israeli egyptian african european asian former professional retired famous noted known well'.split(' '),
);

/**
 * The answers the passages give to a question (ANALYSIS.md §2 step 3), at most a few per passage: for
 * each passage, the sentence or table row that covers most of the question's terms (credit for terms in
 * the sentence, in a related word form, in the passage's headings or document name, elsewhere in the
 * passage), when it covers enough and holds an answer of the expected form: a typed value of the kinds
 * the question asks for, a yes or a no, or a name. A sentence with several values of the asked kind in
 * separate clauses ("120 EUR per night; Paris and London up to 180 EUR") gives one answer per clause,
 * each with the scope its clause names.
 */
export function extractAnswers(question: string, passages: readonly Passage[], asked: QuestionProfile = profileQuestion(question)): ExtractedAnswer[] {
  const profile = inRepositoryWords(asked, passages);
  const weights = termWeights(profile, passages);
  if (unknownSubjectShare(profile, weights) > EXTRACTION.maxUnknownSubject) return [];
  const sharedNames = namesSharedByMostDocuments(passages);
  const elsewhere = documentsAboutOtherNames(question, passages);
  const stemsOfPassage = passages.map((p) => new Set(stemsOf(p.text, profile.language)));
  const documentStems = new Map<string, Set<string>>();
  passages.forEach((p, i) => documentStems.set(p.documentId, new Set([...(documentStems.get(p.documentId) ?? []), ...stemsOfPassage[i]])));
  const out: ExtractedAnswer[] = [];
  for (const [i, passage] of passages.entries()) {
    if (elsewhere.has(passage.documentId)) continue;
    const segs = segments(passage.text);
    const context = contextStems(passage, segs, profile.language);
    const passageStems = stemsOfPassage[i];
    let best: { seg: Segment; index: number; coverage: number; rank: number; answers: ExtractedAnswer[] } | undefined;
    segs.forEach((seg, index) => {
      // Headings and questions (an FAQ's) announce an answer; they do not give one.
      if (seg.heading || /\?["'”»)\]]*$/u.test(seg.text)) return;
      const yesNo = profile.expected.form === 'yes-no';
      const { coverage } = coverageOf(seg, index, segs, profile, weights, context, passageStems, yesNo, documentStems.get(passage.documentId));
      const min = profile.expected.form === 'value' ? EXTRACTION.minValueCoverage : yesNo ? EXTRACTION.minYesNoCoverage : EXTRACTION.minOpenCoverage;
      if (coverage < min) return;
      // Between sentences on the subject, the one that names the attribute asked ("population") wins.
      const rank = coverage + FRAMING_BONUS * framingShare(seg.text, profile);
      if (best && rank <= best.rank) return;
      const answers = answersIn(seg, passage, profile, coverage, sharedNames);
      if (answers.length > 0) best = { seg, index, coverage, rank, answers };
    });
    if (best) out.push(...best.answers);
  }
  return out;
}

/**
 * An English question's word that no retrieved passage writes ("bike", "wage", "fault") is read as a WordNet synonym
 * of it that one does ("bicycle", "pay", "defect"), from its two most frequent senses. Only such words: a word the
 * repository writes keeps its own reading, and the dictionary's senses never compete with it. The borrowed word only
 * adds: a sentence that writes it covers more of the question, one that does not covers no less (the asker did not
 * write it).
 */
function inRepositoryWords(profile: QuestionProfile, passages: readonly Passage[]): QuestionProfile {
  if (profile.language !== 'en') return profile;
  const written = new Set(passages.flatMap((p) => stemsOf(`${p.documentName ?? ''} ${p.text}`, profile.language)));
  let changed = false;
  const terms = profile.terms.map((t) => {
    if (t.framing || /\d/u.test(t.stem) || hasRelated(written, t.stem)) return t;
    const found = wordNetSynonyms(t.surface)
      .map((w) => stem(w, profile.language))
      .find((s) => !stopwordsOf(profile.language).has(s) && written.has(s));
    if (!found) return t;
    changed = true;
    return { ...t, stem: found, borrowed: true };
  });
  return changed ? { ...profile, terms } : profile;
}

const FRAMING_BONUS = 0.15;

/** Share of the question's framing words ("population", "price") the text holds. */
function framingShare(text: string, profile: QuestionProfile): number {
  const framing = profile.terms.filter((t) => t.framing);
  if (framing.length === 0) return 0;
  const here = new Set(stemsOf(text, profile.language));
  return framing.filter((t) => hasRelated(here, t.stem)).length / framing.length;
}

function termWeights(profile: QuestionProfile, passages: readonly Passage[]): number[] {
  const documents = new Map<string, Set<string>>();
  const texts = new Map<string, string>();
  for (const p of passages) {
    const stems = documents.get(p.documentId) ?? new Set<string>();
    for (const s of stemsOf(`${p.documentName ?? ''} ${p.text}`, profile.language)) stems.add(s);
    documents.set(p.documentId, stems);
    texts.set(p.documentId, `${texts.get(p.documentId) ?? ''}\n${p.text}`);
  }
  const n = documents.size;
  // The documents written in the question's language: a word found only in another language's documents is a false
  // friend there ("lit", a bed in French, for an English question's "lit a cigarette").
  const sameLanguage = [...documents].filter(([id]) => detectLanguage(texts.get(id)!) === profile.language).map(([, stems]) => stems);
  return profile.terms.map((t) => {
    if (t.framing) return EXTRACTION.framingWeight;
    const df = [...documents.values()].filter((stems) => hasRelated(stems, t.stem)).length;
    // A word no retrieved document holds is the asker's, not the repository's ("staff" where the
    // documents say "employees"): it tells no passage from another, so it weighs nothing.
    if (df === 0 || (sameLanguage.length > 0 && !sameLanguage.some((stems) => hasRelated(stems, t.stem)))) return 0;
    // Rarer terms name the subject; a term every document holds tells little. Never below 0.5.
    return t.salience * Math.max(0.5, 1 + Math.log((n + 1) / (df + 1)));
  });
}

/**
 * Share of the question's subject (salience of its non-framing terms) that no retrieved document holds
 * at all. Past EXTRACTION.maxUnknownSubject the repository does not speak of what is asked.
 */
function unknownSubjectShare(profile: QuestionProfile, weights: readonly number[]): number {
  let total = 0;
  let unknown = 0;
  profile.terms.forEach((t, i) => {
    if (t.framing) return;
    total += t.salience;
    if (weights[i] === 0) unknown += t.salience;
  });
  return total === 0 ? 0 : unknown / total;
}

function coverageOf(
  seg: Segment,
  index: number,
  segs: Segment[],
  profile: QuestionProfile,
  weights: number[],
  context: Set<string>,
  passageStems: Set<string>,
  /** Yes/no: the sentence itself must state the predicate; context credits only the subject it leans on. */
  strict = false,
  /** The stems of every retrieved passage of the passage's document. */
  documentStems: ReadonlySet<string> = new Set(),
): Credit {
  const here = new Set(stemsOf(seg.text, profile.language));
  // A table row is read with its table's header row; a sentence that leans back ("They...") with the one before.
  const header = seg.row ? segs.slice(0, index).reverse().find((s, i, all) => s.row && (i === all.length - 1 || !all[i + 1]?.row)) : undefined;
  const before = new Set(header ? stemsOf(header.text, profile.language) : index > 0 ? stemsOf(segs[index - 1].text, profile.language) : []);
  const asked = profile.terms.map((t) => t.stem);
  const unclaimed = new Set([...here].filter((s) => !asked.some((q) => hasRelated(new Set([s]), q))));
  let total = 0;
  let got = 0;
  profile.terms.forEach((t, i) => {
    // A value question's framing words ("price", "minimum length") are what the typed value itself
    // answers; they neither add nor cost coverage (the kinds asked for filter the values).
    if (t.framing && profile.expected.form === 'value') return;
    const w = weights[i];
    let credit = 0;
    if (here.has(t.stem)) credit = EXTRACTION.inSentence;
    // A related form ("refundable" for "refund"), or a word used for the same thing ("overdue" for "late") that does
    // not already stand for another of the question's words ("retention" for "kept" when "retention" is asked too).
    else if (hasRelated(here, t.stem) || hasSynonym(unclaimed, t.stem)) credit = EXTRACTION.related;
    else if (context.has(t.stem) || hasRelated(context, t.stem) || before.has(t.stem) || hasRelated(before, t.stem)) credit = strict ? EXTRACTION.inPassage : EXTRACTION.inHeading;
    else if (!strict && (passageStems.has(t.stem) || hasRelated(passageStems, t.stem))) credit = EXTRACTION.inPassage;
    // A name ("Irish sites", "Brussels") the document writes in another passage: its scope section.
    else if (!strict && t.salience > 1 && documentStems.has(t.stem)) credit = EXTRACTION.inDocument;
    // A borrowed word only adds: the asker did not write it.
    if (t.borrowed && credit === 0) return;
    total += w;
    got += w * credit;
  });
  return { coverage: total === 0 ? 0 : got / total };
}

function stemsOf(text: string, language: Language): string[] {
  return foldedWords(text)
    .filter((w) => !stopwordsOf(language).has(w) && (w.length > 1 || /\d/u.test(w)))
    .map((w) => stem(w, language));
}

function contextStems(passage: Passage, segs: Segment[], language: Language): Set<string> {
  const name = (passage.documentName ?? '').replace(/\.[a-z0-9]{1,5}$/iu, '').replace(/[-_/]+/gu, ' ');
  const headings = segs.filter((s) => s.heading).map((s) => s.text);
  return new Set(stemsOf([name, ...headings].join(' '), language));
}

function answersIn(seg: Segment, passage: Passage, profile: QuestionProfile, coverage: number, sharedNames: Set<string>): ExtractedAnswer[] {
  const confidence = confidenceOf(coverage, profile);
  const base = { passageId: passage.id, documentId: passage.documentId, start: seg.start, end: seg.end, text: seg.text, confidence };
  const expected = profile.expected;
  if (expected.form === 'yes-no') {
    const negative = hasNegation(seg.text);
    return [{ ...base, kind: 'yes-no', key: `yes-no:${negative ? 'no' : 'yes'}`, display: negative ? 'no' : 'yes', scope: scopeOf(seg.text, 0, seg.text.length, profile, sharedNames) }];
  }
  if (expected.form === 'named') {
    const named = namedAnswer(seg.text, profile, expected.relation);
    if (!named) return [];
    return [{ ...base, kind: 'named', key: `named:${named.key}`, display: named.display, scope: [], valueStart: seg.start + named.start, valueEnd: seg.start + named.end }];
  }
  const questionNumbers = new Set(profile.terms.filter((t) => /\d/u.test(t.stem)).map((t) => t.stem));
  const values = extractValues(seg.text, profile.language).filter(
    (v) =>
      expected.kinds.includes(v.kind) &&
      v.comparable &&
      !(v.kind === 'number' && questionNumbers.has(foldText(v.text))) &&
      !(v.kind === 'quantity' && expected.units && !expected.units.test(v.key)),
  );
  // "What is the monthly budget": an amount per kilometre or per night does not answer it.
  const period = questionRate(profile);
  const rated = period ? values.filter((v) => v.kind !== 'amount' || [period, ''].includes(rateOf(seg.text, v))) : values;
  // "How often": a frequency answers; a duration beside it is how long something lasts ("Every 12 months | 3 hours").
  const answering = rated.some((v) => v.kind === 'recurrence') ? rated.filter((v) => v.kind !== 'duration') : rated;
  if (answering.length === 0) return [];
  return clauses(seg.text, answering, anchorsOf(seg.text, profile)).map((clause, i) => {
    const scope = scopeOf(seg.text, clause.from, clause.to, profile, sharedNames, clause.values);
    const key = clause.values.map((v) => (expected.byYear ? yearKey(v) : v.key) + rateOf(seg.text, v)).join('+');
    return {
      ...base,
      // Later clauses answer for their scope only; a clause with no scope of its own repeats the first.
      confidence: i === 0 || scope.length > 0 ? confidence : confidence * 0.5,
      kind: clause.values[0].kind as AnswerKind,
      key,
      display: clause.values.map((v) => v.text).join(', '),
      scope,
      valueStart: seg.start + clause.values[0].start,
      valueEnd: seg.start + clause.values[clause.values.length - 1].end,
    };
  });
}

/** Coverage mapped onto 0.5 (just enough to answer) .. 0.95 (every term in the sentence). */
function confidenceOf(coverage: number, profile: QuestionProfile): number {
  const min = profile.expected.form === 'value' ? EXTRACTION.minValueCoverage : profile.expected.form === 'yes-no' ? EXTRACTION.minYesNoCoverage : EXTRACTION.minOpenCoverage;
  return Math.min(0.95, 0.5 + (0.5 * (coverage - min)) / (1 - min));
}

const RATE_UNITS: Record<string, string> = {
  night: 'night', nuit: 'night', day: 'day', jour: 'day', week: 'week', semaine: 'week', month: 'month', mois: 'month', year: 'year', an: 'year', annee: 'year',
  hour: 'hour', heure: 'hour', km: 'km', kilometre: 'km', kilometer: 'km', mile: 'mile', person: 'person', personne: 'person', employee: 'person', employe: 'person',
};

/** "In which year": dates compare by their year ("1 August 1917" and "1917" agree). */
function yearKey(v: TypedValue): string {
  const year = /(?:^|[^\d])(\d{4})(?:[^\d]|$)/u.exec(v.key.replace(/^[a-z-]+:/u, ''));
  return (v.kind === 'date' || v.kind === 'date-range') && year ? `year:${year[1]}` : v.key;
}

/** The rate an amount is stated per ("150 EUR per night" → `/night`), or '' for a plain amount. */
function rateOf(text: string, value: TypedValue): string {
  if (value.kind !== 'amount') return '';
  const m = /^\s*(?:per|a|an|each|every|\/|par|chaque)\s*(?:calendar\s+|working\s+)?([\p{L}]+)/iu.exec(text.slice(value.end));
  // A table row may say the rate in its first cell: "| Weekday on-call (per night) | EUR 85 |".
  const row = text.replace(/^\s*\|/u, '');
  const first = firstCell(text);
  const cell = !m && row.includes('|') && value.start >= text.length - row.length + first.length ? /\b(?:per|par|chaque)\s+([\p{L}]+)/iu.exec(first) : null;
  const word = m?.[1] ?? cell?.[1];
  const unit = word ? RATE_UNITS[foldText(word).replace(/s$/u, '')] : undefined;
  return unit ? `/${unit}` : '';
}

/** The rate a question asks for ("monthly budget", "per night") as `/month`, `/night`, or undefined. */
function questionRate(profile: QuestionProfile): string | undefined {
  for (const t of profile.terms) {
    const unit = RATE_UNITS[t.surface.replace(/s$/u, '')] ?? { daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year', annual: 'year', nightly: 'night', hourly: 'hour' }[t.surface];
    if (unit && /^(?:daily|weekly|monthly|yearly|annual|nightly|hourly)$/u.test(t.surface)) return `/${unit}`;
  }
  return undefined;
}

interface Clause {
  from: number;
  to: number;
  values: TypedValue[];
}

/** The sentence's values grouped by clause (";" or a new sentence part), one answer per clause. */
function clauses(text: string, values: TypedValue[], anchors: [number, number][]): Clause[] {
  const cuts = [0];
  for (const m of text.matchAll(/;|\s[–—-]\s|\.\s/gu)) cuts.push((m.index ?? 0) + m[0].length);
  cuts.push(text.length);
  const out: Clause[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [from, to] = [cuts[i], cuts[i + 1]];
    const inside = values.filter((v) => v.start >= from && v.start < to);
    if (inside.length > 0) out.push({ from, to, values: dedupe(inside, anchors) });
  }
  return out;
}

/**
 * One value per kind in a clause, in order; a date range next to a time range is kept (opening days and
 * hours). Of several values of one kind, the one nearest a word of the question ("one of the sixteen
 * townships ... the population was 459": 459).
 */
function dedupe(values: TypedValue[], anchors: [number, number][]): TypedValue[] {
  const distance = (v: TypedValue) => (anchors.length === 0 ? 0 : Math.min(...anchors.map(([s, e]) => (e <= v.start ? v.start - e : s >= v.end ? s - v.end : 0))));
  const best = new Map<ValueKind, TypedValue>();
  for (const v of values) {
    const seen = best.get(v.kind);
    if (!seen || distance(v) < distance(seen)) best.set(v.kind, v);
  }
  return values.filter((v) => best.get(v.kind) === v);
}

/** Framing words too general to tell where a value is ("below that amount"). */
const GENERIC_FRAMING = new Set(['amount', 'number', 'value', 'total', 'sum', 'montant', 'nombre', 'valeur']);

/**
 * Where the question's words occur in a text: [start, end) of each. The framing words ("population",
 * "price") when the text has any, since the value sits next to the attribute it gives; else every word.
 */
function anchorsOf(text: string, profile: QuestionProfile): [number, number][] {
  const find = (stems: Set<string>) => {
    const out: [number, number][] = [];
    for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
      if (hasRelated(stems, stem(foldText(m[0]), profile.language))) out.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
    }
    return out;
  };
  const framing = find(new Set(profile.terms.filter((t) => t.framing && !GENERIC_FRAMING.has(t.surface)).map((t) => t.stem)));
  return framing.length > 0 ? framing : find(new Set(profile.terms.map((t) => t.stem)));
}

/**
 * Who or where a clause's answer holds for, from explicit qualifiers only: place or group names the
 * clause opens with ("Paris and London up to 180 EUR") or introduces with "in", "at", "for", "en", "à",
 * "pour" ("in Poland", "for part-time employees"), and, wherever written, a kind of contract or children
 * ("Full-time employees are entitled to 25 days", "Children aged 6 to 15 pay EUR 1.20"). Words of the question, names most documents share
 * (the company's name) and the value itself are not scope.
 */
function scopeOf(text: string, from: number, to: number, profile: QuestionProfile, sharedNames: Set<string>, values: TypedValue[] = []): string[] {
  const clause = text.slice(from, to);
  const questionStems = new Set(profile.terms.map((t) => t.stem));
  const scope = new Set<string>();
  const add = (phrase: string) => {
    for (const w of foldedWords(phrase)) {
      if (stopwordsOf(profile.language).has(w) || w.length < 2 || /\d/u.test(w) || sharedNames.has(w)) continue;
      const s = stem(w, profile.language);
      if (!questionStems.has(s)) scope.add(s);
    }
  };
  const valueText = values.map((v) => v.text).join(' ');
  const name = String.raw`\p{Lu}[\p{L}'’-]+`;
  const names = new RegExp(String.raw`^\s*(${name}(?:(?:\s+and\s+|\s+et\s+|,\s*)${name})*)\s*(?::|up to|jusqu|above|below|from|within)`, 'u');
  const lead = names.exec(clause);
  if (lead && lead.index === 0 && from > 0) add(lead[1]);
  // "In Germany, ...", "For Paris: ...": a place or group the clause opens with. A place mentioned in
  // passing ("built in 1898 in Springfield") is not a scope.
  const introduced = new RegExp(String.raw`^\s*(?:[Ii]n|[Aa]t|[Ee]n|[àÀ]|[Aa]u|[Aa]ux|[Ff]or|[Pp]our)\s+(?:the\s+)?(${name}(?:(?:\s+and\s+|\s+et\s+|,\s*)${name})*)`, 'u');
  const opening = introduced.exec(clause);
  if (opening && !valueText.includes(opening[1])) add(opening[1]);
  const group = /\b(?:for|pour|les|des)\s+(?:the\s+|all\s+|les\s+)?(?:[\p{L}-]+\s+)?(part[- ]time|full[- ]time|temps partiel|temps plein|interns?|contractors?|managers?|executives?|apprentices?|stagiaires?|cadres?)\b/giu;
  for (const m of clause.matchAll(group)) add(m[1]);
  // A kind of contract or children limit a statement wherever it is written ("Full-time employees are
  // entitled to 25 days", "Children aged 6 to 15 pay EUR 1.20").
  for (const m of clause.matchAll(/(?<!\p{L})(part[- ]time|full[- ]time|temps partiel|temps plein|child|children|infants?|enfants?)(?!\p{L})/giu)) {
    // One scope for the singular and the plural, whose stems differ ("child", "children").
    add(/^(?:child|children|infants?)$/iu.test(m[1]) ? 'children' : /^enfants?$/iu.test(m[1]) ? 'enfants' : m[1]);
  }
  return [...scope].sort();
}

/**
 * Documents about another named thing than the question's: the question names something ("the Dublin
 * clinic") that none of the document's retrieved passages nor its name mention, while its name names
 * a sibling of it ("Cork Clinic - Site Guide"): a name written beside the asked one somewhere in the
 * passages ("Dublin and Cork", two rows of one table). Its figures are that sibling's. A brand and its
 * product ("Northwind jackets", "Summit jacket") are no siblings: the product sheet still answers.
 */
function documentsAboutOtherNames(question: string, passages: readonly Passage[]): Set<string> {
  const out = new Set<string>();
  const asked = askedNames(question);
  if (asked.size === 0) return out;
  const siblings = siblingNames(passages);
  const byDocument = new Map<string, Passage[]>();
  for (const p of passages) byDocument.set(p.documentId, [...(byDocument.get(p.documentId) ?? []), p]);
  for (const [documentId, own] of byDocument) {
    const title = own[0].documentName ?? '';
    const words = new Set(foldedWords([title, ...own.map((p) => p.text)].join(' ')));
    if ([...asked].some((w) => words.has(w))) continue;
    const named = properNames(own.map((p) => p.text));
    if (foldedWords(title).some((w) => named.has(w) && [...asked].some((a) => siblings.has(`${a}|${w}`)))) out.add(documentId);
  }
  return out;
}

/** The names a question writes (capitalised words after its first, folded: "the Dublin clinic" → dublin). */
function askedNames(question: string): Set<string> {
  return new Set(
    question
      .split(/\s+/u)
      .slice(1)
      .map((w) => w.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/['’]s$/u, ''))
      .filter((w) => /^\p{Lu}\p{Ll}{2,}/u.test(w))
      .map((w) => foldText(w))
      .filter((w) => canBeName(w)),
  );
}

/** Pairs of names written as alternatives ("Dublin and Cork", "Paris, London", the first cells of two rows of one table), as `a|b` both ways. */
function siblingNames(passages: readonly Passage[]): Set<string> {
  const out = new Set<string>();
  const add = (a: string, b: string) => {
    if (a === b) return;
    out.add(`${a}|${b}`).add(`${b}|${a}`);
  };
  const name = String.raw`\p{Lu}\p{Ll}{2,}`;
  const pair = new RegExp(String.raw`(${name})(?:\s*\([^)]*\))?\s*(?:,|\band\b|\bet\b|\bor\b|\bou\b|&)\s*(?:the\s+)?(${name})`, 'gu');
  for (const p of passages) {
    for (const m of p.text.matchAll(pair)) add(foldText(m[1]), foldText(m[2]));
    // The first word of each row's first cell, within one table.
    let rows: string[] = [];
    for (const line of [...p.text.split('\n'), '']) {
      const first = /^\s*\|?\s*(\p{Lu}\p{Ll}{2,})[^|]*\|/u.exec(line);
      if (first) rows.push(foldText(first[1]));
      else {
        for (let i = 0; i < rows.length; i++) for (let j = i + 1; j < rows.length; j++) add(rows[i], rows[j]);
        rows = [];
      }
    }
  }
  return out;
}

/** Capitalised words found in most documents (the company's or the product line's name): never a scope. */
function namesSharedByMostDocuments(passages: readonly Passage[]): Set<string> {
  const byDocument = new Map<string, Set<string>>();
  for (const p of passages) {
    const set = byDocument.get(p.documentId) ?? new Set<string>();
    for (const m of p.text.matchAll(/\b\p{Lu}[\p{L}'’-]+/gu)) set.add(foldText(m[0]).replace(/['’]s$/u, ''));
    byDocument.set(p.documentId, set);
  }
  const counts = new Map<string, number>();
  for (const set of byDocument.values()) for (const w of set) counts.set(w, (counts.get(w) ?? 0) + 1);
  const n = byDocument.size;
  return new Set([...counts].filter(([, c]) => n >= 3 && c >= Math.ceil(n / 2)).map(([w]) => w));
}

interface Named {
  key: string;
  display: string;
  start: number;
  end: number;
}

const CAPITALISED_NAME = String.raw`\p{Lu}[\p{L}'’.&-]*(?:\s+(?:\p{Lu}[\p{L}'’.&-]*|de|van|von|der|da|di|du|la|le|of|the)(?=\s+\p{Lu}|[^\p{L}]|$))*`;

/**
 * A named answer in a sentence, written the way the relation is usually written: an agent after "by"
 * or before an active verb ("directed by J. Searle Dawley", "the band Anthrax"), an identity after a
 * copula ("is an American trombonist"), a place after "in" or "located in". Its key is the sorted stems
 * of its content words without nationality or career adjectives, so that "American trombonist" and
 * "trombonist" agree.
 */
function namedAnswer(text: string, profile: QuestionProfile, relation: string): Named | undefined {
  const questionStems = new Set(profile.terms.map((t) => t.stem));
  const candidates: { start: number; phrase: string }[] = [];
  const push = (m: RegExpMatchArray | null, group = 1) => {
    if (!m || m.index === undefined) return;
    const phrase = m[group].trim().replace(/[\s,;:.]+$/u, '');
    const start = m.index + m[0].indexOf(m[group]);
    if (phrase) candidates.push({ start, phrase });
  };
  if (relation === 'agent') {
    push(new RegExp(String.raw`\bby\s+(?:the\s+(?:band|group|artist|rapper|singer|director|author)\s+)?(${CAPITALISED_NAME})`, 'u').exec(text));
    push(new RegExp(String.raw`\b(?:band|group|rapper|singer|artist|director|author|par)\s+(${CAPITALISED_NAME})`, 'u').exec(text));
    push(new RegExp(String.raw`(${CAPITALISED_NAME})['’]s\s+(?:\w+\s+){0,2}(?:album|film|movie|book|novel|song|single|EP|record)\b`, 'u').exec(text));
  }
  if (relation === 'place') {
    push(new RegExp(String.raw`\b(?:located|based|situated|lies|headquartered|found|built)\s+(?:in|at|on|near)\s+(${CAPITALISED_NAME}(?:,\s*${CAPITALISED_NAME})*)`, 'u').exec(text));
    push(new RegExp(String.raw`\b(?:in|at|à|en)\s+(${CAPITALISED_NAME}(?:,\s*${CAPITALISED_NAME})*)`, 'u').exec(text));
  }
  if (relation === 'responsible') {
    // Who approves, signs or must be told: a role or a person after "by", "of", "to" ("the approval of the Finance
    // Director", "signed by your line manager", "par le directeur financier"), or one that acts ("the Head of
    // Procurement signs ..."). Roles are often written in lower case ("your line manager").
    const role = String.raw`(?:${CAPITALISED_NAME}|(?:[\p{Ll}-]+\s+){0,2}(?:manager|director|head|officer|supervisor|lead|leader|team|committee|board|department|desk|controller|administrator|owner|coordinator|partner|president|chief|representative|responsable|directeur|directrice|direction|service|equipe|équipe|comité|chef|gestionnaire)(?:\s+of\s+${CAPITALISED_NAME})?)`;
    push(new RegExp(String.raw`\b(?:by|of|from|to|par|du|de\s+la|de\s+l['’]|au|à\s+la|auprès\s+du|auprès\s+de\s+la)\s+(?:the\s+|your\s+|their\s+|a\s+|an\s+|votre\s+|le\s+|la\s+|l['’])?(${role})`, 'u').exec(text));
    push(new RegExp(String.raw`\b(?:the|your|le|la|votre)\s+(${role})\s+(?:must|shall|will|should|may|approves|signs|decides|authori[sz]es|is\s+responsible|doit|valide|signe|approuve|décide)\b`, 'u').exec(text));
  }
  const copula = /\b(?:is|was|are|were|est|était|fut)\s+(?:a|an|the|one of the|un|une|le|la)\s+([^,.;:()"]+?)(?=\s+(?:who|which|that|known|from|born|based|best|and\s+(?:a|an|the)|with|whose|in\s+\p{Lu}|qui|né|née)\b|[,.;:()"]|$)/u;
  if (relation === 'identity' || relation === 'other' || candidates.length === 0) push(copula.exec(text));
  if (candidates.length === 0 && relation !== 'identity') {
    for (const m of text.matchAll(new RegExp(CAPITALISED_NAME, 'gu'))) {
      if (m.index === 0) continue;
      const stems = stemsOf(m[0], profile.language);
      if (stems.length > 0 && stems.every((s) => !questionStems.has(s))) {
        candidates.push({ start: m.index ?? 0, phrase: m[0] });
        break;
      }
    }
  }
  for (const c of candidates) {
    // A name or a short description; a run of capitalised menu words is page furniture, not an answer.
    if (c.phrase.split(/\s+/u).length > 6) continue;
    const words = foldedWords(c.phrase).filter((w) => !DEMONYMS.has(w));
    const stems = [...new Set(stemsOf(words.join(' '), profile.language).filter((s) => !questionStems.has(s)))].sort();
    if (stems.length === 0 || stems.length > 8) continue;
    return { key: stems.join(' '), display: c.phrase, start: c.start, end: c.start + c.phrase.length };
  }
  return undefined;
}
