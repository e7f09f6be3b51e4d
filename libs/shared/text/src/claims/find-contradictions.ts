import { fingerprint } from '../answers/decide-question';
import { foldedWords } from '../fold';
import type { Claim } from './claims';
import { daysOfStems } from '../days';
import { Modality, modalitiesConflict } from './modality';
import { signatureBands, signatureCosine } from './node-signature';
import { supersededOf } from './disagreements';

/** Tuning of the rule-based judge, set on the demo corpus (tools/eval), never on single findings. */
export const CLAIM_JUDGE = {
  /** Two claims are about the same thing when their subjects overlap this much (shared informative stems over the smaller subject). */
  minSubjectSimilarity: 0.5,
  /** And share at least this many informative stems, a proper name both are limited to counting for two (names are far more specific than words). */
  minSharedStems: 3,
  /** A stem in more than this share of the claims says nothing about what a claim is about. */
  maxStemShare: 0.15,
  /**
   * Two long sentences (several clauses: who, when, why) share many informative stems and still fall under
   * `minSubjectSimilarity`: with at least this many shared stems, `minSubjectSimilarityWhenMany` is enough.
   */
  manySharedStems: 5,
  minSubjectSimilarityWhenMany: 0.35,
  /**
   * Of the shared words, how many each sentence must write itself (not only its headings): two statements under one
   * heading ("Arrival and departure") state two different times more often than one time twice. A table row's words
   * are its label, its column and its headings: all count.
   */
  minSharedInSentence: 1,
  /** Stricter for dates: often a document's own metadata ("Version 2.1, approved in March 2022"), worded alike in every document. */
  minDateSimilarity: 0.6,
  /**
   * Blocks (claims of one attribute sharing one stem) larger than this are not compared pair by pair,
   * so a scan stays near-linear: two claims are still judged when another, rarer stem joins them.
   */
  maxBlockSize: 60,
};

/** Two claims of different documents that give different values (or conflicting modalities) for the same thing. */
export interface ClaimContradiction {
  /** Depends on the two claims only (`claimPairFingerprint`): stable when other documents arrive. */
  fingerprint: string;
  attribute: string;
  /** The informative stems both claims share: what they disagree about. */
  shared: string[];
  similarity: number;
  claims: [Claim, Claim];
  /** A short label of what they disagree about (the shared words, as the first claim writes them). */
  subject: string;
  /** Both documents, what each says, and why both cannot hold (documents by id; see `describeContradiction` for names). */
  explanation: string;
  /** What the expert must decide (1-2 questions). */
  companionQuestions: string[];
}

export interface FindContradictionsOptions {
  /**
   * Incremental rescans: judge only pairs with at least one claim of these document ids. Document
   * frequencies are still computed over all the claims, so the findings are those of a full scan that touch them.
   */
  touching?: ReadonlySet<string>;
  /**
   * The repository's statistics when `claims` is only part of it (an incremental rescan reads the
   * changed documents and those sharing a block with them): how many claims each subject stem appears
   * in, and how many claims there are. With them, the findings touching `touching` are those of the
   * whole repository. Default: computed over `claims`.
   */
  statistics?: { documentFrequency: ReadonlyMap<string, number>; claims: number; documents?: number };
  /**
   * Vector-neighbour blocking (ANALYSIS.md §4.2), for claims carrying their node's `signature`: two
   * claims of one attribute whose nodes' vectors are at a cosine in [min, max) are compared even when
   * the stems they share sit only in blocks too large to compare pair by pair (a large repository's
   * common subjects). They are judged like any pair. Nearer than `max` is near-identical text, left to
   * the duplicates (§6): compared only through their words. Default: off.
   */
  vectorBand?: { min: number; max: number };
  /**
   * With `claims` only part of the repository: how many claims each block (`attribute|stem`, `blockKeys`)
   * holds over the whole repository, so a block too large to compare there is skipped here too (the
   * loaded claims may hold only a few of its claims). Default: the blocks' sizes within `claims`.
   */
  blockSizes?: ReadonlyMap<string, number>;
}

/**
 * The contradictions among claims (ANALYSIS.md §4 steps 2-3), without comparing every pair: claims are
 * blocked by attribute and by the informative subject stems they share (an inverted index, blocks capped
 * at `CLAIM_JUDGE.maxBlockSize`), only pairs of different documents are judged, and a pair contradicts
 * when the subjects overlap enough, the scopes agree (no names on one side or a shared name, no word
 * qualified differently on the two sides), and the values differ (or the modalities conflict), unless
 * the two sentences also state a value in common (then they agree, and the other value is about
 * something else). One finding per pair of documents and attribute, the closest pair of claims.
 */
export function findContradictions(claims: readonly Claim[], options: FindContradictionsOptions = {}): ClaimContradiction[] {
  const { touching, statistics, vectorBand, blockSizes } = options;
  const tooLarge = (key: string, list: readonly number[]) => Math.max(list.length, blockSizes?.get(key) ?? 0) > CLAIM_JUDGE.maxBlockSize;
  const df = new Map<string, number>(statistics?.documentFrequency ?? claimStemFrequencies(claims));
  // A small repository has no stems common enough to ignore.
  const limit = informativeLimit(statistics?.claims ?? claims.length);
  const informative = claims.map((c) => new Set(c.subject.filter((s) => (df.get(s) ?? 0) <= limit)));
  // The claims as the pair test reads them: limited only by the names that tell a scope apart (the organisation's name, on
  // most of its documents, limits nothing).
  const nameLimit = informativeNameLimit(statistics?.documents ?? new Set(claims.map((c) => c.documentId)).size);
  const scoped = claims.map((c) => informativeNames(c, df, nameLimit));

  // Blocking: attribute + informative stem → claims; with vectors, attribute + signature band too.
  const index = new Map<string, number[]>();
  const bands = claims.map((c) => (vectorBand && c.signature ? signatureBands(c.signature) : []));
  claims.forEach((c, i) => {
    for (const s of [...informative[i], ...bands[i]]) {
      const key = `${blockAttribute(c.attribute)}|${s}`;
      const list = index.get(key);
      if (list) list.push(i);
      else index.set(key, [i]);
    }
  });
  // The value keys each sentence states per attribute: two sentences that share one agree.
  const stated = new Map<string, Set<string>>();
  const sentenceOf = (c: Claim) => `${c.passageId}|${c.start}|${c.attribute}`;
  for (const c of claims) {
    const set = stated.get(sentenceOf(c)) ?? new Set<string>();
    set.add(c.value.key);
    stated.set(sentenceOf(c), set);
  }

  const candidates: ClaimContradiction[] = [];
  const closeness: number[] = [];
  const agreeing = new Set<number>();
  const neighbours = new Set<number>();
  const byVector = new Set<number>();
  claims.forEach((ca, a) => {
    const aTouches = !touching || touching.has(ca.documentId);
    neighbours.clear();
    byVector.clear();
    for (const s of informative[a]) {
      const key = `${blockAttribute(ca.attribute)}|${s}`;
      const list = index.get(key)!;
      if (tooLarge(key, list)) continue;
      for (const b of list) if (b > a) neighbours.add(b);
    }
    for (const s of bands[a]) {
      const key = `${blockAttribute(ca.attribute)}|${s}`;
      const list = index.get(key)!;
      if (tooLarge(key, list)) continue;
      for (const b of list) if (b > a && !neighbours.has(b)) byVector.add(b);
    }
    for (const b of byVector) if (nearVectors(ca, claims[b], vectorBand!)) neighbours.add(b);
    for (const b of neighbours) {
      const cb = claims[b];
      if (ca.documentId === cb.documentId || (!aTouches && !touching!.has(cb.documentId))) continue;
      const test = pairTest(scoped[a], scoped[b], informative[a], informative[b], stated.get(sentenceOf(ca))!, stated.get(sentenceOf(cb))!);
      if (!test.pairs) continue;
      const { agree, similarity, words, named, common } = test;
      const pair: [Claim, Claim] = ca.documentId < cb.documentId ? [ca, cb] : [cb, ca];
      if (agree) agreeing.add(candidates.length);
      // Between candidates, the pair whose subjects also differ least comes first (Jaccard): a short subject inside a long one is not closer than a long match.
      // Words qualified alike on both sides ("a valid ticket") bring them closer still.
      const alike = (ca.qualifiers ?? []).filter((q) => (cb.qualifiers ?? []).includes(q)).length;
      closeness.push((similarity + (words.length + named) / Math.max(1, informative[a].size + informative[b].size - words.length + named)) / 2 + 0.02 * Math.min(alike, 5));
      candidates.push({ fingerprint: claimPairFingerprint(ca, cb), attribute: ca.attribute, shared: common.sort(), similarity, claims: pair, subject: '', explanation: '', companionQuestions: [] });
    }
  });
  // Per pair of documents and attribute, each sentence in one finding at most, the closest pairs first:
  // two sentences about the same thing give one finding, two different disagreements give two.
  // Ties are broken by what the sentences say, by document ids (random at ingestion) only as a last resort, through the
  // fingerprint, when the sentences are the same: the same documents give the same findings.
  const keys = candidates.map(contentKey);
  const order = candidates
    .map((_, i) => i)
    .sort((i, j) => closeness[j] - closeness[i] || Number(agreeing.has(j)) - Number(agreeing.has(i)) || compareText(keys[i], keys[j]) || compareText(candidates[i].fingerprint, candidates[j].fingerprint));
  const used = new Set<string>();
  const out: ClaimContradiction[] = [];
  for (const i of order) {
    const c = candidates[i];
    const [x, y] = c.claims;
    const pairKey = `${x.documentId}|${y.documentId}|${c.attribute}`;
    const [kx, ky] = [`${pairKey}|${x.passageId}|${x.start}|0`, `${pairKey}|${y.passageId}|${y.start}|1`];
    if (used.has(kx) || used.has(ky)) continue;
    used.add(kx);
    used.add(ky);
    if (!agreeing.has(i)) out.push({ ...c, ...describeContradiction(c) });
  }
  return out;
}

/** Why the judge does not pair two claims of two documents, the first test they fail (`'pairs'` when none). */
export type PairVerdict = 'pairs' | 'other-attribute' | 'same-value' | 'other-scope' | 'few-shared-words' | 'subjects-apart' | 'sentence-agrees';

type PairTest = { pairs: false; verdict: Exclude<PairVerdict, 'pairs'> } | { pairs: true; agree: boolean; similarity: number; words: string[]; named: number; common: string[] };

/**
 * The judge's test of one pair (ANALYSIS.md §4 step 3): same attribute; values that differ (or agree: agreeing pairs are
 * judged too, a sentence that agrees with one of the other document's sentences is not contradicted by a less similar
 * one); same scope; enough informative subject words in common, and close enough subjects; no value of one sentence
 * stated by the other.
 */
function pairTest(ca: Claim, cb: Claim, informativeA: ReadonlySet<string>, informativeB: ReadonlySet<string>, statedA: ReadonlySet<string>, statedB: ReadonlySet<string>): PairTest {
  if (!sameAttribute(ca, cb)) return { pairs: false, verdict: 'other-attribute' };
  const agree = ca.value.key === cb.value.key;
  if (!agree && !differ(ca, cb)) return { pairs: false, verdict: 'same-value' };
  if (!sameScope(ca, cb)) return { pairs: false, verdict: 'other-scope' };
  // A proper name both claims are limited to counts as a shared word (the Ember 1 stove's price).
  const names = ca.scope.filter((n) => cb.scope.includes(n));
  const words = [...informativeA].filter((s) => informativeB.has(s));
  // A name both are limited to weighs two words, however many words it is written with ("Central Ticket Office").
  const named = Math.min(names.length, 1);
  if (words.length + 2 * named < CLAIM_JUDGE.minSharedStems) return { pairs: false, verdict: 'few-shared-words' };
  const inSentence = (c: Claim) => isRow(c) || words.filter((w) => writes(c, w)).length + named >= CLAIM_JUDGE.minSharedInSentence;
  if (!inSentence(ca) || !inSentence(cb)) return { pairs: false, verdict: 'few-shared-words' };
  // Overlap coefficient: a long sentence and a short one about the same thing still match.
  const similarity = (words.length + named) / Math.max(1, Math.min(informativeA.size, informativeB.size) + named);
  const minSimilarity = ca.attribute === 'date' ? CLAIM_JUDGE.minDateSimilarity : words.length + named >= CLAIM_JUDGE.manySharedStems ? CLAIM_JUDGE.minSubjectSimilarityWhenMany : CLAIM_JUDGE.minSubjectSimilarity;
  if (similarity < minSimilarity) return { pairs: false, verdict: 'subjects-apart' };
  if (!agree && [...statedA].some((k) => statedB.has(k))) return { pairs: false, verdict: 'sentence-agrees' };
  return { pairs: true, agree, similarity, words, named, common: [...words, ...names] };
}

/**
 * Why the judge would not pair these two claims, read against the claims of the whole repository (their stems'
 * frequencies decide which words are informative): for measuring where missed contradictions are lost. Blocking
 * (an informative word in common) is implied by 'few-shared-words'. Pure.
 */
export function pairVerdict(a: Claim, b: Claim, all: readonly Claim[]): PairVerdict {
  const df = claimStemFrequencies(all);
  const limit = informativeLimit(all.length);
  const nameLimit = informativeNameLimit(new Set(all.map((c) => c.documentId)).size);
  const informative = (c: Claim) => new Set(c.subject.filter((s) => (df.get(s) ?? 0) <= limit));
  const stated = (c: Claim) => new Set(all.filter((x) => x.passageId === c.passageId && x.start === c.start && x.attribute === c.attribute).map((x) => x.value.key));
  const test = pairTest(informativeNames(a, df, nameLimit), informativeNames(b, df, nameLimit), informative(a), informative(b), stated(a), stated(b));
  return test.pairs ? 'pairs' : test.verdict;
}

/**
 * How many claims each subject stem appears in (the judge's document frequencies), and in how many documents each
 * name of their scopes limits a claim (under `nameStem`): a name in many documents is the organisation's, not a scope.
 */
export function claimStemFrequencies(claims: readonly Claim[]): Map<string, number> {
  const df = new Map<string, number>();
  const named = new Map<string, Set<string>>();
  for (const c of claims) {
    for (const s of new Set(c.subject)) df.set(s, (df.get(s) ?? 0) + 1);
    for (const n of c.scope) named.set(n, (named.get(n) ?? new Set()).add(c.documentId));
  }
  for (const [n, documents] of named) df.set(nameStem(n), documents.size);
  return df;
}

/**
 * A name that limits claims in more documents than this tells no scope apart: the organisation's ("Quillmoor Freight
 * Ltd", on most of its documents), a country every document names. A third of the documents, and never fewer than five:
 * a product three of its documents name is still its scope.
 */
export function informativeNameLimit(documentCount: number): number {
  return Math.max(5, documentCount / 3);
}

/** The key a scope name is counted under among the subject stems (a stem never starts with '@'). */
export function nameStem(name: string): string {
  return `@${name}`;
}

/** Whether a block's stem is a scope name's (`nameStem`): counted for the statistics, never a block the judge compares in. */
export const isNameStem = (stem: string): boolean => stem.startsWith('@');

/** The claim limited only by its informative names: those in at most `limit` claims. Unchanged when all are. */
function informativeNames(c: Claim, df: ReadonlyMap<string, number>, limit: number): Claim {
  const keep = (n: string) => (df.get(nameStem(n)) ?? 0) <= limit;
  if (c.scope.every(keep)) return c;
  const entity = c.entity?.filter(keep);
  return { ...c, scope: c.scope.filter(keep), ...(c.entity ? { entity } : {}) };
}

/** A stem in more claims than this says nothing about what a claim is about. */
export function informativeLimit(claimCount: number): number {
  return Math.max(10, CLAIM_JUDGE.maxStemShare * claimCount);
}

/**
 * The blocks a claim belongs to, as the judge indexes it: its attribute as blocked (`blockAttribute`) with
 * each of its subject stems and signature bands. Two claims are compared only when they share one; a store
 * of blocks (the full audit's incremental judgements) keeps these, so it finds what the judge compares.
 */
export function claimBlocks(claim: Pick<Claim, 'attribute' | 'subject' | 'signature' | 'scope'>): { attribute: string; stem: string }[] {
  const attribute = blockAttribute(claim.attribute);
  return claimBlockStems(claim).map((stem) => ({ attribute, stem }));
}

/** The keys (`attribute|stem`) of `claimBlocks`. */
export function blockKeys(claim: Pick<Claim, 'attribute' | 'subject' | 'signature' | 'scope'>): string[] {
  return claimBlocks(claim).map((b) => `${b.attribute}|${b.stem}`);
}

/** The attribute a claim is blocked under: counts of any noun block together ("four on-call nights" and "6 nights on call" count one thing in other words). */
function blockAttribute(attribute: string): string {
  return attribute.startsWith('count:') ? 'count' : attribute;
}

/**
 * One attribute: the same, or counts of nouns each side also names ("quatre nuits d'astreinte" and
 * "6 astreintes de nuit": nights and on-call duties, both written on both sides).
 */
function sameAttribute(a: Claim, b: Claim): boolean {
  if (a.attribute === b.attribute) return true;
  if (!a.attribute.startsWith('count:') || !b.attribute.startsWith('count:')) return false;
  const [na, nb] = [a.attribute.slice('count:'.length), b.attribute.slice('count:'.length)];
  return a.subject.includes(nb) && b.subject.includes(na);
}

/** What blocks a claim with others of its attribute: its subject stems, and its signature's bands when it has one. */
function claimBlockStems(claim: Pick<Claim, 'subject' | 'signature' | 'scope'>): string[] {
  return [...new Set(claim.subject), ...new Set((claim.scope ?? []).map(nameStem)), ...(claim.signature ? signatureBands(claim.signature) : [])];
}

/** Whether the two claims' nodes are vector neighbours: both signed, their cosine within the band. */
function nearVectors(a: Claim, b: Claim, band: { min: number; max: number }): boolean {
  if (!a.signature || !b.signature) return false;
  const cosine = signatureCosine(a.signature, b.signature);
  return cosine >= band.min && cosine < band.max;
}

/** The pair's two sentences and values, in text order: what a tie between two candidates is broken by. */
function contentKey(c: ClaimContradiction): string {
  return c.claims
    .map((x) => `${x.text}\u0000${x.value.key}\u0000${x.start}`)
    .sort(compareText)
    .join('\u0001');
}

function compareText(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Different values; for modality claims, modalities that cannot both hold ("must" and "need not"). */
function differ(a: Claim, b: Claim): boolean {
  if (a.value.key === b.value.key) return false;
  if (a.attribute === 'modality') return modalitiesConflict(a.value.key.slice('modality:'.length) as Modality, b.value.key.slice('modality:'.length) as Modality);
  return true;
}

/**
 * The same scope: no names on one side (a general statement) or a name in common, and no word that
 * the two sides qualify differently ("premium customers" and "standard customers"), unless the
 * other side uses the qualifier too.
 */
function sameScope(a: Claim, b: Claim): boolean {
  // Days on both sides that never meet ("on weekdays" and a Saturday column) are two schedules.
  const [da, db] = [daysOf(a), daysOf(b)];
  if (da.size > 0 && db.size > 0 && ![...da].some((d) => db.has(d))) return false;
  // Names on both sides: at least one in common ("Cork" and "Cork, Douglas"; a catalogue row naming the Ember 1 and its product sheet).
  if (a.scope.length > 0 && b.scope.length > 0 && !a.scope.some((x) => b.scope.includes(x))) return false;
  // Names both statements write (not their documents' names): one side's all on the other; "Clinical Governance
  // Committee" and "People & Culture Committee" share a word, not a scope.
  const [na, nb] = [statedNames(a), statedNames(b)];
  if (na.length > 0 && nb.length > 0 && !na.every((x) => nb.includes(x)) && !nb.every((x) => na.includes(x))) return false;
  const qa = a.qualifiers ?? [];
  const qb = b.qualifiers ?? [];
  if (qa.length === 0 || qb.length === 0) return true;
  // Compound modifiers of one family ("full-time" and "part-time", "short-term" and "long-term", "on-site" and
  // "off-site"), one on each side and not written on the other, name two categories whatever word they qualify.
  const compounds = (q: readonly string[]) => q.map((x) => x.split('<')[1]).filter((m) => /^\p{L}+-\p{L}+$/u.test(m));
  const [ca, cb] = [compounds(qa), compounds(qb)];
  for (const x of ca) {
    const [head, tail] = x.split('-');
    if (cb.includes(x)) continue;
    if (cb.some((y) => y.endsWith(`-${tail}`) && !y.startsWith(`${head}-`) && !ca.includes(y))) return false;
  }
  const modifiers = (q: readonly string[], head: string) => q.filter((x) => x.startsWith(`${head}<`)).map((x) => x.slice(head.length + 1));
  // Symmetric: a word both sides qualify, that one of them is about (a heading may qualify what its sentence does not name).
  const subjects = new Set([...a.subject, ...b.subject]);
  const heads = new Set(qa.map((x) => x.split('<')[0]));
  for (const head of heads) {
    if (!subjects.has(head)) continue;
    // A modifier the other side writes too, anywhere ("return items" and "return unused items"), or has too
    // (from its heading: "Standard refunds" above both), is no contrast.
    const [fa, fb] = [modifiers(qa, head).map(singular), modifiers(qb, head).map(singular)];
    const [ma, mb] = [fa.filter((m) => !written(b, m) && !fb.includes(m) && !specifies(m, fb)), fb.filter((m) => !written(a, m) && !fa.includes(m) && !specifies(m, fa))];
    if (ma.length > 0 && mb.length > 0) return false;
  }
  return true;
}

/** A compound modifier that ends in one of the other side's modifiers specifies it, it does not contrast with it ("deep-cleaning charge", "cleaning charge"). */
function specifies(modifier: string, other: readonly string[]): boolean {
  return modifier.includes('-') && other.includes(modifier.slice(modifier.lastIndexOf('-') + 1));
}

/** The names a claim's own statement is limited to (its scope less its document's names). */
function statedNames(c: Claim): string[] {
  return c.entity ? c.scope.filter((x) => !c.entity!.includes(x)) : c.scope;
}

function written(c: Claim, word: string): boolean {
  const words = wordsOf(c);
  return foldedWords(word).every((w) => words.has(singular(w)));
}

/** A table row's claim: its subject words are its label, its column and its headings. */
function isRow(c: Claim): boolean {
  // Passages keep a row's cells apart with pipes, with or without the outer ones.
  return c.text.includes('|');
}

/** Whether the claim's own sentence writes a word of this stem (a word it begins). */
function writes(c: Claim, stem: string): boolean {
  for (const w of wordsOf(c)) if (w.startsWith(stem)) return true;
  return false;
}

/** A claim's words, folded and singular, read once per claim (the judge asks for them pair after pair). */
const WORDS = new WeakMap<Claim, ReadonlySet<string>>();
function wordsOf(c: Claim): ReadonlySet<string> {
  let words = WORDS.get(c);
  if (!words) WORDS.set(c, (words = new Set(foldedWords(c.text).map(singular))));
  return words;
}

/** The days a claim's subject names, read once per claim. */
const DAYS = new WeakMap<Claim, ReadonlySet<number>>();
function daysOf(c: Claim): ReadonlySet<number> {
  let days = DAYS.get(c);
  if (!days) DAYS.set(c, (days = daysOfStems(c.subject)));
  return days;
}

/** A folded word without a plural's final s or x: "patients" and "patient" modify alike. */
function singular(word: string): string {
  return word.length > 3 ? word.replace(/[sx]$/u, '') : word;
}

/**
 * The fingerprint of a finding from its two claims only (documents, attribute, values, full subjects),
 * never from corpus statistics: a finding keeps it when other documents arrive or leave.
 */
export function claimPairFingerprint(a: Claim, b: Claim): string {
  const side = (c: Claim) => `${c.documentId}|${c.attribute}=${c.value.key}|${[...new Set(c.subject)].sort().join(' ')}|${[...c.scope].sort().join(' ')}`;
  return fingerprint([side(a), side(b)].sort().join('||'));
}

const MODAL_TEXT: Record<Modality, string> = { required: 'it is required', forbidden: 'it is forbidden', optional: 'it is optional', permitted: 'it is allowed' };

/** A document as a finding names it: its name, and where it lives (path or URL) to tell apart two of one name. */
export interface DocumentLabel {
  name: string;
  url?: string | null;
}

/** What kind of value an attribute is, in words ("the length of time", "the amount"). */
function valueKind(attribute: string): string {
  const kind = attribute.split(':')[0];
  const words: Record<string, string> = {
    duration: 'length of time',
    amount: 'amount',
    percentage: 'percentage',
    count: 'number',
    date: 'date',
    'annual-date': 'date',
    'time-range': 'time',
    time: 'time',
    weekdays: 'days',
    recurrence: 'frequency',
    quantity: 'quantity',
  };
  return words[kind] ?? 'value';
}

/** A statement's sentence as quoted in an explanation: whole when short, else cut at a word near 160 characters. */
function quoted(text: string): string {
  const line = text.replace(/\s+/gu, ' ').replace(/^\|\s*|\s*\|$/gu, '').trim();
  if (line.length <= 160) return line;
  const cut = line.slice(0, 160);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 120))}…`;
}

/**
 * People-readable text of a finding (ANALYSIS.md §4 step 4): `subject` (what they disagree about: the shared
 * words as the first claim writes them), and `describeStatements`' explanation and companion questions.
 * `documents`: document id → its name, or its name and URL (default: the ids).
 */
export function describeContradiction(
  c: Pick<ClaimContradiction, 'shared' | 'claims' | 'attribute'>,
  documents: DocumentLabels = {},
): { subject: string; explanation: string; companionQuestions: string[] } {
  const [a, b] = c.claims;
  const subject = subjectLabel(a, c.shared) || subjectLabel(b, c.shared) || c.shared.join(' ');
  return { subject, ...describeStatements({ attribute: c.attribute ?? a.attribute, subject, statements: c.claims }, documents) };
}

/** Document id → its name, or its name and URL. */
export type DocumentLabels = ReadonlyMap<string, string | DocumentLabel> | Readonly<Record<string, string | DocumentLabel>>;

/** A statement as an explanation quotes it. */
export type DescribedStatement = Pick<Claim, 'documentId' | 'text' | 'value' | 'modality' | 'scope'>;

/**
 * The explanation and companion questions of a finding's statements (ANALYSIS.md §4 step 4), one subject,
 * two or more values. It names the documents (with their path or URL when two share a name), quotes what each
 * says and its value, and says why they cannot all hold: one value of one kind for the subject within the scope
 * they all name, or one rule that cannot be both required and optional. Statements are grouped by value; a
 * document whose sentence repeats another's word for word (a copy) is named with it, not quoted again.
 */
export function describeStatements(
  finding: { attribute: string; subject: string; statements: readonly DescribedStatement[] },
  documents: DocumentLabels = {},
): { explanation: string; companionQuestions: string[] } {
  const labelOf = (id: string): DocumentLabel => {
    const d = documents instanceof Map ? documents.get(id) : (documents as Record<string, string | DocumentLabel>)[id];
    return d === undefined ? { name: id } : typeof d === 'string' ? { name: d } : d;
  };
  const { subject, statements } = finding;
  const outdated = supersededOf(finding.attribute);
  if (outdated) return describeOutdated(outdated, statements, labelOf);
  const ids = [...new Set(statements.map((s) => s.documentId))];
  const names = new Map(ids.map((id) => [id, labelOf(id)]));
  // Two documents of one name are told apart by where they live.
  const shared = (l: DocumentLabel) => ids.filter((id) => names.get(id)!.name.trim().toLowerCase() === l.name.trim().toLowerCase()).length > 1;
  const nameOf = (id: string) => {
    const l = names.get(id)!;
    return shared(l) && l.url ? `"${l.name}" (${l.url})` : `"${l.name}"`;
  };
  const modal = (x: DescribedStatement) => (x.modality ? MODAL_TEXT[x.modality].replace(/^it is /u, '') : x.value.text);
  const said = (x: DescribedStatement) => (x.modality ? `${MODAL_TEXT[x.modality]} ("${x.value.text}")` : x.value.text);
  const groups = new Map<string, DescribedStatement[]>();
  for (const x of statements) groups.set(x.value.key, [...(groups.get(x.value.key) ?? []), x]);
  const values = [...groups.values()].map((g) => modal(g[0]));
  const common = statements.slice(1).reduce((scope, x) => scope.filter((n) => x.scope.includes(n)), [...statements[0].scope]);
  const within = common.length > 0 ? ` for ${common.join(', ')}` : '';
  const rule = statements[0].modality !== undefined;
  const either = values.length === 2 ? `${values[0]} and ${values[1]}` : `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}`;
  const or = values.length === 2 ? `${values[0]} or ${values[1]}` : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
  const documentsSaying = (g: DescribedStatement[]) => {
    // Statements written word for word alike are one statement and its copies.
    const byText = new Map<string, string[]>();
    for (const x of g) byText.set(x.text.replace(/\s+/gu, ' ').trim().toLowerCase(), [...(byText.get(x.text.replace(/\s+/gu, ' ').trim().toLowerCase()) ?? []), x.documentId]);
    return [...byText.entries()].map(([, docs]) => {
      const first = g.find((x) => x.documentId === docs[0])!;
      const copies = [...new Set(docs.slice(1))].filter((d) => d !== docs[0]);
      return `${nameOf(docs[0])}${copies.length ? ` (and ${copies.length === 1 ? 'its copy' : 'its copies'} ${copies.map(nameOf).join(', ')})` : ''} says ${said(first)}: "${quoted(first.text)}"${/[.!?…]$/u.test(quoted(first.text)) ? '' : '.'}`;
    });
  };
  const why = rule
    ? `${ids.length === 2 ? 'Both state' : `These ${ids.length} documents state`} the rule on ${subject}${within}, and one rule cannot be both ${either}.`
    : `${ids.length === 2 ? 'Both give' : `These ${ids.length} documents give`} the ${valueKind(finding.attribute)} for ${subject}${within}, and it cannot be both ${either}.`;
  const explanation = `${[...groups.values()].flatMap(documentsSaying).join(' ')} ${why}`;
  const first = rule ? `Regarding ${subject}: which applies, ${or}?` : `What is the right value for ${subject}: ${or}?`;
  const listed = ids.map(nameOf);
  const which =
    ids.length === 2
      ? `Is one of the two documents (${listed.join(', ')}) out of date or limited to another case, and which one applies?`
      : `Are some of these documents (${listed.join(', ')}) out of date or limited to another case, and which ones apply?`;
  return { explanation, companionQuestions: [first, which] };
}

/**
 * A superseded version still in the repository: one finding for all it says differently, since one decision (take it
 * out, or mark it) settles them all.
 */
function describeOutdated(
  { older, replacement }: { older: string; replacement: string | null },
  statements: readonly DescribedStatement[],
  labelOf: (id: string) => DocumentLabel,
): { explanation: string; companionQuestions: string[] } {
  const sameName = replacement !== null && labelOf(older).name.trim().toLowerCase() === labelOf(replacement).name.trim().toLowerCase();
  const nameOf = (id: string) => {
    const l = labelOf(id);
    const which = sameName && (id === older || id === replacement) && !l.url ? (id === older ? ' (the older version)' : ' (the current version)') : '';
    return l.url ? `"${l.name}" (${l.url})` : `"${l.name}"${which}`;
  };
  const valueOf = (x: DescribedStatement) => (x.modality ? MODAL_TEXT[x.modality].replace(/^it is /u, '') : x.value.text);
  const old = statements.filter((x) => x.documentId === older);
  const others = statements.filter((x) => x.documentId !== older);
  // Each old statement beside the current one it is closest to in words: what changed, point by point.
  const words = (x: DescribedStatement) => new Set(foldedWords(x.text));
  const closest = (x: DescribedStatement) => {
    const own = words(x);
    let best: DescribedStatement | undefined;
    let bestShared = 0;
    for (const y of others) {
      const shared = [...words(y)].filter((w) => own.has(w)).length;
      if (shared > bestShared) [best, bestShared] = [y, shared];
    }
    return best;
  };
  const seen = new Set<string>();
  const points = old.flatMap((x) => {
    const key = `${x.text}|${x.value.key}`;
    if (seen.has(key)) return [];
    seen.add(key);
    const now = closest(x);
    return [`"${quoted(x.text)}" (${valueOf(x)}${now && now.value.key !== x.value.key ? `; ${nameOf(now.documentId)} says ${valueOf(now)}` : ''})`];
  });
  const replaced = replacement ? `${nameOf(replacement)} replaces it` : 'it says it no longer applies';
  const explanation =
    `${nameOf(older)} is superseded: ${replaced}, but it is still in the repository, and it says ${points.length === 1 ? 'one thing' : `${points.length} things`} differently: ${points.join('; ')}. ` +
    `Whoever reads it, or an assistant answering from it, gets the old rules.`;
  const current = [...new Set(others.map((x) => x.documentId))];
  return {
    explanation,
    companionQuestions: [
      replacement ? `Should ${nameOf(older)} be taken out of the repository (or marked as superseded) now that ${nameOf(replacement)} replaces it?` : `Should ${nameOf(older)} be taken out of the repository?`,
      `Are the values of ${current.length ? current.map(nameOf).join(', ') : 'the current version'} the ones that apply now?`,
    ],
  };
}

/** The words of a claim's sentence whose stems are shared, in order, at most six. */
function subjectLabel(c: Claim, shared: readonly string[]): string {
  const want = new Set(shared);
  const words: string[] = [];
  const seen = new Set<string>();
  for (const w of c.text.split(/[^\p{L}\p{N}'’-]+/u)) {
    if (!w || words.length >= 6) continue;
    const stems = w.toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '');
    const hit = [...want].find((s) => stems.startsWith(s) && !seen.has(s));
    if (hit) {
      seen.add(hit);
      words.push(w.toLowerCase());
    }
  }
  return words.join(' ');
}
