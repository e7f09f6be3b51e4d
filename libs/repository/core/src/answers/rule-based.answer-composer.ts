import { AnswerComposer, AnswerExcerpt, AnswerRequest, GroundedAnswer, noAnswer, requestedLanguage, validateAnswerRequest } from './answer-composer';
import { AnswerType, AnswerValue, AnswerValueKind, answerValues, findNamedValue, isNegative, isOfKind, questionIntent, yesNoEvidence } from './answer-types';
import type { Language as TextLanguage } from '@svc/text';
import { contentStems, foldText, guessLanguage, isWeakStem, Sentence, splitSentences, stem, STOPWORDS, WEAK_TERM_WEIGHT, writtenWords } from './text-analysis';

export const LOCAL_EXTRACTIVE_MODEL_NAME = 'local-extractive-v1';

/** Below this share of the question's (weighted) terms, a sentence does not answer it. */
export const MIN_COVERAGE = 0.4;
/** Below this, a sentence lacks the value a duration/number/amount/date/time question asks for. */
export const MIN_EVIDENCE = 0.5;
/** Sentences quoted at most (the best one, a continuation, a contradicting one). */
const MAX_QUOTED = 3;

/**
 * Coefficients of the confidence: sigmoid(B0 + B_COVERAGE·coverage + B_EVIDENCE·evidence +
 * B_RETRIEVAL·relevance + agreement + missing term). Hand-set, not fitted: a sentence holding every
 * term of the question and the value asked for, from the best-ranked excerpt, gets about 0.9; one
 * holding 40% of the terms about 0.2; a contradiction costs about 0.35 at the top of the scale.
 */
const B0 = -6;
const B_COVERAGE = 6;
const B_EVIDENCE = 1.5;
const B_RETRIEVAL = 0.8;
const B_CORROBORATED = 0.5;
const B_CONTRADICTED = -2;
const B_MISSING_TERM = -1;
/** The evidence term for questions that ask for no particular form of answer ("what is", "how do I"). */
const OPEN_EVIDENCE = 0.6;
const MAX_CONFIDENCE = 0.95;
const MIN_ANSWER_CONFIDENCE = 0.02;

/** Credit of a question term found in the sentence, as a prefix, in the section heading, in the document name. */
const IN_SENTENCE = 1;
const AS_PREFIX = 0.8;
const IN_HEADING = 0.6;
/** A heading that is a question (FAQ) announces what the next sentences answer. */
const IN_QUESTION_HEADING = 0.8;
/** The sentence before, for a sentence that opens with a pronoun ("It is processed within 30 days."). */
const IN_ANTECEDENT = 0.8;
/** Ranking bonus for holding the question's framing words ("take", "deadline"), which coverage ignores. */
const WEAK_TERMS_BONUS = 0.1;
const IN_DOCUMENT_NAME = 0.4;
const PREFIX_LENGTH = 5;

const TYPED: ReadonlySet<AnswerType> = new Set(['duration', 'quantity', 'amount', 'percentage', 'date', 'time']);
const KINDS_FOR: Partial<Record<AnswerType, AnswerValueKind[]>> = {
  duration: ['duration'],
  quantity: ['number', 'quantity', 'duration', 'amount', 'percentage'],
  amount: ['amount'],
  percentage: ['percentage'],
  date: ['date'],
  time: ['time'],
};
/** Openings that lean on the sentence before ("They are processed...") or qualify it ("However, ..."). */
const LEANS_BACK = /^(?:they|these|this|those|it|its|such|ils|elles|ce|cet|cette|ces|cela|celui|celle)(?![\p{L}])/iu;
const CONTINUES = /^(?:however|but|except|unless|also|otherwise|in that case|toutefois|cependant|sauf|mais|sinon|en revanche|dans ce cas|this|these|it|they|ce|cette|cela|ils|elles)(?![\p{L}])/iu;

interface QuestionTerm {
  stem: string;
  /** The word as the question wrote it, for the reason. */
  surface: string;
  weight: number;
}

interface Candidate {
  excerpt: AnswerExcerpt;
  /** Position of the excerpt once sorted (score, then id): ties between sentences go to the better excerpt. */
  rank: number;
  sentences: Sentence[];
  index: number;
  sentence: Sentence;
  stems: Set<string>;
  /** Credit of each question term, in question order. */
  credits: number[];
  coverage: number;
  evidence: number;
  /** Read (by weighValues) only for questions that ask for a value, and only in the sentences that can matter. */
  values: AnswerValue[];
  /** The score with full evidence: what a sentence can score at best before its values are read. */
  bound: number;
  /** The language the excerpt is written in, which its values are read in. */
  language: Language;
  named?: string;
  negative: boolean;
  relevance: number;
  score: number;
}

type Language = TextLanguage;

/**
 * The default AnswerComposer: deterministic extractive answering, no network, no model weights. It
 * quotes the sentences of the excerpts that answer the question, verbatim, and never writes a word of
 * its own into the answer.
 *
 * How: the question gives its content terms (lower-cased, accent-folded, English/French function words
 * out, light suffix stripping: "refunds" and "refunded" are one term) and the type of answer it asks
 * for ("how long" → a duration, "how much ... cost" → an amount, "when" → a date, "is/can/does" →
 * yes/no, "who/which" → a named value). Every sentence of every excerpt gets a coverage: the share
 * of the question's subject terms it holds, with part credit for terms in the sentence it refers
 * back to ("It is..."), its section heading (more for a FAQ question) or its document's name;
 * question-framing words like "take" or "deadline" only break ties. Then an evidence: whether it
 * states the kind of value asked for (values read by @svc/text's extractValues, in the excerpt's
 * language); and its excerpt's relevance (retrieval score relative to the best excerpt of the
 * request, since scores from different retrievers have different scales). The
 * best sentence above the floors is quoted, with its neighbour when that one continues it, and with
 * the best sentence of another excerpt that states a different value (a contradiction is shown, not
 * hidden). Confidence is a logistic combination of coverage, evidence, relevance, agreement between
 * excerpts (same value: up; different values: down) and whether some question term appears in no
 * excerpt at all.
 *
 * Limits, honestly: it matches words, not meanings (no synonyms: "reimbursed" does not match
 * "refund"); it cannot combine facts from several sentences into a new statement, compute, or answer
 * "why" questions beyond quoting; its yes/no handling quotes the rule without saying "yes" or "no";
 * answer-type cues and stemming are English and French only; the confidence coefficients are set by
 * hand, not fitted on labelled data. The reason is written in English or French only.
 */
export class RuleBasedAnswerComposer extends AnswerComposer {
  readonly name = LOCAL_EXTRACTIVE_MODEL_NAME;

  async compose(request: AnswerRequest): Promise<GroundedAnswer> {
    return answerExtractively(request);
  }
}

/** The algorithm behind RuleBasedAnswerComposer, synchronous (see the class comment). */
export function answerExtractively(request: AnswerRequest): GroundedAnswer {
  validateAnswerRequest(request);
  const language: Language = requestedLanguage(request.language) ?? guessLanguage(request.question);
  const say = PHRASES[language];
  if (request.excerpts.length === 0) return noAnswer(say.noExcerpts);

  const intent = questionIntent(request.question);
  // One stemmer for the question and the excerpts (their stems must meet): the question's language.
  const textLanguage = guessLanguage(request.question);
  const terms = questionTerms(request.question, intent.framing, textLanguage);
  if (terms.length === 0) return noAnswer(say.noTerms);

  const excerpts = [...request.excerpts].sort((a, b) => finite(b.score) - finite(a.score) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const bestScore = excerpts.reduce((m, e) => Math.max(m, finite(e.score)), 0);
  const candidates = excerpts.flatMap((excerpt, rank) => {
    const relevance = bestScore > 0 ? Math.min(1, Math.max(0, finite(excerpt.score)) / bestScore) : 1;
    return candidatesOf(excerpt, rank, relevance, terms, intent.type, request.question, textLanguage);
  });
  const typed = TYPED.has(intent.type);
  const passes = (c: Candidate) => c.coverage >= MIN_COVERAGE && (!typed || c.evidence >= MIN_EVIDENCE);
  if (typed) weighValues(candidates, intent.type, passes);
  candidates.sort((a, b) => b.score - a.score || a.rank - b.rank || a.index - b.index);

  const best = candidates.find(passes);
  const missing = missingTerms(terms, excerpts, textLanguage);
  if (!best) return noAnswer(nearMiss(say, candidates[0], terms, intent.type, missing));

  const peers = candidates.filter(
    (c) => c.excerpt.id !== best.excerpt.id && passes(c) && c.coverage >= 0.75 * best.coverage && c.score >= 0.5 * best.score,
  );
  const verdicts = peers.map((peer) => ({ peer, verdict: compare(best, peer, intent.type) }));
  const contradiction = verdicts.find((v) => v.verdict === 'contradicts')?.peer;
  const corroborations = verdicts.filter((v) => v.verdict === 'corroborates').map((v) => v.peer);

  const quoted = withNeighbour(best, terms, intent.type, textLanguage);
  if (contradiction && quoted.length < MAX_QUOTED) quoted.push(contradiction);
  const cited = unique([...quoted.map((c) => c.excerpt.id), ...corroborations.map((c) => c.excerpt.id)]).slice(0, MAX_QUOTED + 2);

  const evidence = typed || intent.type === 'yesno' || intent.type === 'named' ? best.evidence : OPEN_EVIDENCE;
  const z =
    B0 +
    B_COVERAGE * best.coverage +
    B_EVIDENCE * evidence +
    B_RETRIEVAL * best.relevance +
    (contradiction ? B_CONTRADICTED : corroborations.length > 0 ? B_CORROBORATED : 0) +
    (missing.length > 0 ? B_MISSING_TERM : 0);
  const confidence = round3(Math.min(MAX_CONFIDENCE, Math.max(MIN_ANSWER_CONFIDENCE, 1 / (1 + Math.exp(-z)))));

  return {
    answer: quoted.map((c) => c.sentence.text).join(' '),
    reason: foundReason(say, best, contradiction, corroborations, terms, intent.type, missing),
    confidence,
    citedExcerptIds: cited,
  };
}

function finite(n: number): number {
  return Number.isFinite(n) ? n : 0;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/** The question's content terms, one per stem, in order; framing words ("how long") left out. */
function questionTerms(question: string, framing: ReadonlySet<number>, language: Language): QuestionTerm[] {
  const terms: QuestionTerm[] = [];
  writtenWords(question).forEach(({ written, folded }, i) => {
    if (framing.has(i) || STOPWORDS.has(folded) || (folded.length < 2 && !/\d/.test(folded))) return;
    const s = stem(folded, language);
    if (terms.some((t) => t.stem === s)) return;
    terms.push({ stem: s, surface: written.toLowerCase(), weight: isWeakStem(s, language) ? WEAK_TERM_WEIGHT : 1 });
  });
  return terms;
}

function hasPrefixMatch(term: string, stems: Iterable<string>): boolean {
  if (term.length < PREFIX_LENGTH) return false;
  const prefix = term.slice(0, PREFIX_LENGTH);
  for (const s of stems) if (s.length >= PREFIX_LENGTH && s.startsWith(prefix)) return true;
  return false;
}

interface Heading {
  stems: Set<string>;
  question: boolean;
}

function credit(term: string, own: Set<string>, antecedent: Set<string>, heading: Heading, documentName: Set<string>): number {
  if (own.has(term)) return IN_SENTENCE;
  if (hasPrefixMatch(term, own)) return AS_PREFIX;
  if (antecedent.has(term) || hasPrefixMatch(term, antecedent)) return IN_ANTECEDENT;
  if (heading.stems.has(term) || hasPrefixMatch(term, heading.stems)) return heading.question ? IN_QUESTION_HEADING : IN_HEADING;
  if (documentName.has(term) || hasPrefixMatch(term, documentName)) return IN_DOCUMENT_NAME;
  return 0;
}

function candidatesOf(
  excerpt: AnswerExcerpt,
  rank: number,
  relevance: number,
  terms: QuestionTerm[],
  type: AnswerType,
  question: string,
  language: Language,
): Candidate[] {
  const sentences = splitSentences(excerpt.text);
  const typed = TYPED.has(type);
  const excerptLanguage = typed ? guessLanguage(excerpt.text) : language;
  const documentName = new Set(contentStems(excerpt.documentName, language));
  let heading: Heading = { stems: new Set(), question: false };
  let previous: { stems: Set<string>; block: number } | undefined;
  const out: Candidate[] = [];
  sentences.forEach((sentence, index) => {
    const stems = new Set(contentStems(sentence.text, language));
    if (sentence.kind === 'question') {
      heading = { stems, question: true };
      previous = undefined;
      return;
    }
    const antecedent = previous && previous.block === sentence.block && LEANS_BACK.test(sentence.text) ? previous.stems : new Set<string>();
    const credits = terms.map((t) => credit(t.stem, stems, antecedent, heading, documentName));
    const { coverage, framing } = coverageOf(credits, terms);
    const named = type === 'named' ? findNamedValue(sentence.text, question) : undefined;
    // A value question's evidence is read later, from the sentence's values, where it can count (weighValues): 0 until then.
    const evidence = typed ? 0 : evidenceFor(type, [], sentence.text, named);
    const words = sentence.text.split(/\s+/).length;
    const shape = sentence.kind === 'heading' ? 0.6 : words < 3 ? 0.7 : words > 60 ? 0.85 : 1;
    const bound = coverage * (0.75 + 0.25 * relevance) * shape * (1 + WEAK_TERMS_BONUS * framing);
    const score = bound * scoreOfEvidence(type, evidence);
    out.push({
      excerpt,
      rank,
      sentences,
      index,
      sentence,
      stems,
      credits,
      coverage,
      evidence,
      values: [],
      bound,
      language: excerptLanguage,
      named,
      negative: isNegative(sentence.text),
      relevance,
      score,
    });
    if (sentence.kind === 'heading') heading = { stems, question: false };
    previous = sentence.kind === 'statement' ? { stems, block: sentence.block } : undefined;
  });
  return out;
}

/** How much the evidence weighs in a sentence's score: half the score for questions that ask for a value, a name or a yes/no. */
function scoreOfEvidence(type: AnswerType, evidence: number): number {
  return 0.5 + 0.5 * (TYPED.has(type) || type === 'yesno' || type === 'named' ? evidence : 1);
}

/**
 * Reads the values of the sentences of a value question (through @svc/text, a few milliseconds a sentence), and
 * from them their evidence and score, best bound first, until no sentence left can change the answer. A sentence
 * left unread scores below the bound it was skipped at, so the answer is the one reading every sentence would give:
 * - once a sentence passes the floors, the best one scores at least as much as it, and a sentence quoted beside
 *   it must score half the best one's score: a sentence whose bound is below half of it cannot be either;
 * - until then, a sentence below the coverage floor can only be the closest passage named by the refusal, so
 *   it is read only when its bound reaches the best score read so far.
 */
function weighValues(candidates: Candidate[], type: AnswerType, passes: (c: Candidate) => boolean): void {
  const byBound = [...candidates].sort((a, b) => b.bound - a.bound || a.rank - b.rank || a.index - b.index);
  let bestPassing: number | undefined;
  let top = 0;
  for (const c of byBound) {
    if (c.bound === 0) break;
    if (bestPassing !== undefined && c.bound < 0.5 * bestPassing) break;
    if (bestPassing === undefined && c.coverage < MIN_COVERAGE && c.bound < top) continue;
    c.values = answerValues(c.sentence.text, c.language);
    c.evidence = evidenceFor(type, c.values, c.sentence.text, c.named);
    c.score = c.bound * scoreOfEvidence(type, c.evidence);
    top = Math.max(top, c.score);
    if (passes(c)) bestPassing = Math.max(bestPassing ?? 0, c.score);
  }
}

/**
 * The weighted share of the question's subject terms that a sentence holds (credits: 1 in the
 * sentence, less in its context). Framing terms ("take", "deadline") do not count when the question
 * has subject terms, since an answer need not repeat them; their share is returned apart, for ranking.
 */
function coverageOf(credits: number[], terms: QuestionTerm[]): { coverage: number; framing: number } {
  let strong = 0;
  let strongTotal = 0;
  let weak = 0;
  let weakTotal = 0;
  credits.forEach((c, i) => {
    if (terms[i].weight === 1) {
      strong += c;
      strongTotal += 1;
    } else {
      weak += c * terms[i].weight;
      weakTotal += terms[i].weight;
    }
  });
  const framing = weakTotal > 0 ? weak / weakTotal : 0;
  return { coverage: strongTotal > 0 ? strong / strongTotal : framing, framing };
}

function evidenceFor(type: AnswerType, values: AnswerValue[], text: string, named: string | undefined): number {
  const has = (kind: AnswerValueKind) => values.some((v) => isOfKind(v, kind));
  switch (type) {
    case 'duration':
      return has('duration') ? 1 : has('number') ? 0.5 : has('date') ? 0.4 : 0;
    case 'quantity':
      return has('number') || has('quantity') || has('duration') || has('amount') || has('percentage') ? 1 : 0;
    case 'amount':
      return has('amount') ? 1 : has('number') ? 0.6 : 0;
    case 'percentage':
      return has('percentage') ? 1 : has('number') ? 0.5 : 0;
    case 'date':
      return has('date') ? 1 : has('time') ? 0.8 : has('duration') ? 0.6 : 0;
    case 'time':
      return has('time') ? 1 : has('date') ? 0.5 : 0;
    case 'yesno':
      return yesNoEvidence(text);
    case 'named':
      return named ? 1 : 0.5;
    case 'open':
      return 1;
  }
}

/** Non-weak question terms that no excerpt (text or document name) contains, even as a prefix. */
function missingTerms(terms: QuestionTerm[], excerpts: AnswerExcerpt[], language: Language): QuestionTerm[] {
  const all = new Set(excerpts.flatMap((e) => [...contentStems(e.text, language), ...contentStems(e.documentName, language)]));
  return terms.filter((t) => t.weight === 1 && !/^\d+$/.test(t.stem) && !all.has(t.stem) && !hasPrefixMatch(t.stem, all));
}

type Verdict = 'corroborates' | 'contradicts' | 'unrelated';

function keysOf(c: Candidate, type: AnswerType, comparableOnly: boolean): Set<string> {
  const kinds = KINDS_FOR[type] ?? [];
  return new Set(c.values.filter((v) => kinds.some((k) => isOfKind(v, k)) && (!comparableOnly || v.comparable)).map((v) => v.key));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let common = 0;
  for (const x of a) if (b.has(x)) common++;
  const union = a.size + b.size - common;
  return union === 0 ? 0 : common / union;
}

/** Does another excerpt's sentence say the same as the best one, something else, or a different thing? */
function compare(best: Candidate, peer: Candidate, type: AnswerType): Verdict {
  if (normalise(best.sentence.text) === normalise(peer.sentence.text)) return 'corroborates';
  if (TYPED.has(type)) {
    const a = keysOf(best, type, false);
    const b = keysOf(peer, type, false);
    if ([...a].some((k) => b.has(k))) return 'corroborates';
    const ca = keysOf(best, type, true);
    const cb = keysOf(peer, type, true);
    return ca.size > 0 && cb.size > 0 ? 'contradicts' : 'unrelated';
  }
  if (type === 'yesno') return best.negative === peer.negative ? 'corroborates' : 'contradicts';
  return jaccard(best.stems, peer.stems) >= 0.6 ? 'corroborates' : 'unrelated';
}

function normalise(text: string): string {
  return foldText(text).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * The best sentence with, at most, one neighbour of its block: the sentence before when the best one
 * leans on it ("They are processed within 30 days."), or the sentence after when it continues it
 * ("However, ...") or adds question terms or the value asked for that the best one lacks.
 */
function withNeighbour(best: Candidate, terms: QuestionTerm[], type: AnswerType, language: Language): Candidate[] {
  const neighbour = (offset: number): Candidate | undefined => {
    const sentence = best.sentences[best.index + offset];
    if (!sentence || sentence.kind !== 'statement' || sentence.block !== best.sentence.block) return undefined;
    const stems = new Set(contentStems(sentence.text, language));
    const values = TYPED.has(type) ? answerValues(sentence.text, best.language) : [];
    return {
      ...best,
      index: best.index + offset,
      sentence,
      stems,
      values,
      credits: terms.map((t) => (stems.has(t.stem) || hasPrefixMatch(t.stem, stems) ? 1 : 0)),
      evidence: evidenceFor(type, values, sentence.text, undefined),
      negative: isNegative(sentence.text),
    };
  };
  if (LEANS_BACK.test(best.sentence.text)) {
    const before = neighbour(-1);
    if (before) return [before, best];
  }
  const after = neighbour(1);
  if (after) {
    const addsTerms = terms.some((t, i) => t.weight === 1 && best.credits[i] < AS_PREFIX && after.credits[i] > 0);
    const addsValue = TYPED.has(type) && after.evidence > best.evidence;
    if (CONTINUES.test(after.sentence.text) || addsTerms || addsValue) return [best, after];
  }
  return [best];
}

/** Kinds of value worth naming in the reason, per question type, preferred first. */
const SHOWN_KINDS: Partial<Record<AnswerType, AnswerValueKind[]>> = {
  duration: ['duration', 'number', 'date'],
  quantity: ['number', 'quantity', 'duration', 'amount', 'percentage'],
  amount: ['amount', 'number'],
  percentage: ['percentage', 'number'],
  date: ['date', 'time', 'duration'],
  time: ['time', 'date'],
};

/** The value the reason names: the first one of the preferred kind, else of another kind that fits. */
function valueShown(c: Candidate, type: AnswerType): AnswerValue | undefined {
  const kinds = SHOWN_KINDS[type] ?? [];
  for (const kind of kinds) {
    const value = c.values.find((v) => isOfKind(v, kind));
    if (value) return { ...value, kind };
  }
  return undefined;
}

/** What the quoted sentence gives, for the reason: a value, a name, a rule, or nothing in particular. */
function givenBy(c: Candidate, type: AnswerType): Given {
  if (type === 'yesno') return { kind: 'rule' };
  if (type === 'named') return c.named ? { kind: 'named', text: c.named } : { kind: 'nothing' };
  const value = valueShown(c, type);
  return value ? { kind: value.kind, text: value.text } : { kind: 'nothing' };
}

type Given = { kind: AnswerValueKind | 'named'; text: string } | { kind: 'rule' | 'nothing' };

function matchedSurfaces(c: Candidate, terms: QuestionTerm[]): string[] {
  const strong = terms.filter((t, i) => c.credits[i] > 0 && t.weight === 1).map((t) => t.surface);
  return strong.length > 0 ? strong.slice(0, 4) : terms.filter((_, i) => c.credits[i] > 0).map((t) => t.surface).slice(0, 4);
}

function foundReason(
  say: Phrases,
  best: Candidate,
  contradiction: Candidate | undefined,
  corroborations: Candidate[],
  terms: QuestionTerm[],
  type: AnswerType,
  missing: QuestionTerm[],
): string {
  if (contradiction) {
    const a = valueShown(best, type)?.text;
    const b = valueShown(contradiction, type)?.text;
    return a && b
      ? say.disagreeOnValue(best.excerpt.documentName, a, contradiction.excerpt.documentName, b)
      : say.disagree(best.excerpt.documentName, contradiction.excerpt.documentName);
  }
  const parts = [say.quoted(best.excerpt.documentName, say.list(matchedSurfaces(best, terms)), say.gives(givenBy(best, type)))];
  const others = unique(corroborations.map((c) => c.excerpt.documentName).filter((n) => n !== best.excerpt.documentName)).slice(0, 2);
  if (others.length > 0) parts.push(say.same(say.list(others.map(say.quote)), others.length));
  if (missing.length > 0) parts.push(say.missing(say.list(missing.slice(0, 3).map((t) => say.quote(t.surface)))));
  return parts.join(' ');
}

function nearMiss(say: Phrases, closest: Candidate | undefined, terms: QuestionTerm[], type: AnswerType, missing: QuestionTerm[]): string {
  const key = terms.filter((t) => t.weight === 1);
  const counted = key.length > 0 ? key : terms;
  if (!closest || closest.coverage === 0) return say.noneMentions(say.list(counted.slice(0, 4).map((t) => say.quote(t.surface))));
  const matched = counted.filter((t) => closest.credits[terms.indexOf(t)] > 0);
  const lacksValue = TYPED.has(type) && closest.evidence < MIN_EVIDENCE ? say.lacks(type) : '';
  const closestPassage = say.closest(closest.excerpt.documentName, matched.length, counted.length, say.list(matched.slice(0, 4).map((t) => t.surface)), lacksValue);
  return missing.length > 0 ? `${closestPassage} ${say.noneMentions(say.list(missing.slice(0, 3).map((t) => say.quote(t.surface))))}` : closestPassage;
}

interface Phrases {
  noExcerpts: string;
  noTerms: string;
  quote(text: string): string;
  list(items: string[]): string;
  gives(given: Given): string;
  quoted(document: string, terms: string, gives: string): string;
  same(documents: string, count: number): string;
  missing(terms: string): string;
  disagreeOnValue(a: string, valueA: string, b: string, valueB: string): string;
  disagree(a: string, b: string): string;
  noneMentions(terms: string): string;
  closest(document: string, matched: number, total: number, terms: string, lacks: string): string;
  lacks(type: AnswerType): string;
}

const joinList = (and: string) => (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;

const PHRASES: Record<Language, Phrases> = {
  en: {
    noExcerpts: 'No excerpts were given, so there is nothing to answer from.',
    noTerms: 'The question has no words to look for in the excerpts.',
    quote: (text) => `"${text}"`,
    list: joinList('and'),
    gives: (given) => {
      switch (given.kind) {
        case 'duration':
          return `gives a duration (${given.text})`;
        case 'number':
          return `gives a number (${given.text})`;
        case 'quantity':
          return `gives a quantity (${given.text})`;
        case 'amount':
          return `gives an amount (${given.text})`;
        case 'percentage':
          return `gives a percentage (${given.text})`;
        case 'date':
          return `gives a date (${given.text})`;
        case 'time':
          return `gives a time (${given.text})`;
        case 'named':
          return `names ${given.text}`;
        case 'rule':
          return 'states the rule asked about';
        case 'nothing':
          return '';
      }
    },
    quoted: (document, terms, gives) =>
      `Quoted from "${document}", which ${terms ? `mentions ${terms}` : 'matches the question'}${gives ? ` and ${gives}` : ''}.`,
    same: (documents, count) => `${documents} ${count > 1 ? 'say' : 'says'} the same.`,
    missing: (terms) => `No excerpt mentions ${terms}, so the answer may not fit the question exactly.`,
    disagreeOnValue: (a, va, b, vb) => `The excerpts disagree: "${a}" gives ${va} and "${b}" gives ${vb}; both are quoted.`,
    disagree: (a, b) => `The excerpts disagree: "${a}" and "${b}" answer differently; both are quoted.`,
    noneMentions: (terms) => `None of the excerpts mentions ${terms}.`,
    closest: (document, matched, total, terms, lacks) =>
      `No excerpt answers the question: the closest passage, in "${document}", mentions ${matched} of its ${total} key terms${terms ? ` (${terms})` : ''}${lacks}.`,
    lacks: (type) => {
      const noun = { duration: 'duration', quantity: 'number', amount: 'amount', percentage: 'percentage', date: 'date', time: 'time' } as Record<string, string>;
      return noun[type] ? ` but gives no ${noun[type]}` : '';
    },
  },
  fr: {
    noExcerpts: "Aucun extrait n'a été fourni : il n'y a rien sur quoi répondre.",
    noTerms: 'La question ne contient aucun mot à chercher dans les extraits.',
    quote: (text) => `« ${text} »`,
    list: joinList('et'),
    gives: (given) => {
      switch (given.kind) {
        case 'duration':
          return `donne une durée (${given.text})`;
        case 'number':
          return `donne un nombre (${given.text})`;
        case 'quantity':
          return `donne une quantité (${given.text})`;
        case 'amount':
          return `donne un montant (${given.text})`;
        case 'percentage':
          return `donne un pourcentage (${given.text})`;
        case 'date':
          return `donne une date (${given.text})`;
        case 'time':
          return `donne une heure (${given.text})`;
        case 'named':
          return `nomme ${given.text}`;
        case 'rule':
          return 'énonce la règle demandée';
        case 'nothing':
          return '';
      }
    },
    quoted: (document, terms, gives) =>
      `Cité de « ${document} », qui ${terms ? `mentionne ${terms}` : 'correspond à la question'}${gives ? ` et ${gives}` : ''}.`,
    same: (documents, count) => `${documents} ${count > 1 ? 'disent' : 'dit'} la même chose.`,
    missing: (terms) => `Aucun extrait ne mentionne ${terms} : la réponse peut ne pas correspondre exactement à la question.`,
    disagreeOnValue: (a, va, b, vb) => `Les extraits se contredisent : « ${a} » donne ${va} et « ${b} » donne ${vb} ; les deux sont cités.`,
    disagree: (a, b) => `Les extraits se contredisent : « ${a} » et « ${b} » répondent différemment ; les deux sont cités.`,
    noneMentions: (terms) => `Aucun extrait ne mentionne ${terms}.`,
    closest: (document, matched, total, terms, lacks) =>
      `Aucun extrait ne répond à la question : le passage le plus proche, dans « ${document} », mentionne ${matched} de ses ${total} termes clés${terms ? ` (${terms})` : ''}${lacks}.`,
    lacks: (type) => {
      const noun = {
        duration: 'aucune durée',
        quantity: 'aucun nombre',
        amount: 'aucun montant',
        percentage: 'aucun pourcentage',
        date: 'aucune date',
        time: 'aucune heure',
      } as Record<string, string>;
      return noun[type] ? ` mais ne donne ${noun[type]}` : '';
    },
  },
};
