import { foldText } from '../fold';
import { detectLanguage, Language } from '../language';
import { contentStems } from '../stem';
import { ANNUAL_DATE, extractValues, TypedValue } from '../values';
import { firstCell, segments } from '../answers/segments';
import type { Passage } from '../answers/question-analysis.types';
import { namesOf } from '../names';
import { DAY_WORD } from '../days';
import { MODAL_WORDS, Modality, readModality } from './modality';
import { english } from '../answers/english-model';

/**
 * Full-audit claims (ANALYSIS.md §4): a statement of one passage that carries a checkable value, or a
 * modality ("must", "may not", "is optional"), with the words that say what it is about. Plain JSON.
 */
export interface Claim {
  passageId: string;
  documentId: string;
  /** The sentence or table row, as written, and its offsets in the passage. */
  text: string;
  start: number;
  end: number;
  /**
   * Content stems of the sentence and of the passage's headings (and, for a table row, of the value's
   * column header), values and modal words left out: what the value is about.
   */
  subject: string[];
  /**
   * What kind of value: the value kind, with the unit or currency ("quantity:Kilogram", "amount:EUR"),
   * `count:<noun stem>` for a number of things ("14 characters"; counts of two nouns both claims name are
   * judged together), `recurrence` ("every three years"), `weekdays` ("Monday to Friday"), `date`,
   * `annual-date` (a day of a month without a year: "by 31 March"), or `modality` for a modality claim.
   */
  attribute: string;
  /** The value; for a modality claim, `modality:<modality>` and the modal words as written. */
  value: Pick<TypedValue, 'key' | 'text'>;
  /**
   * Proper names the claim is limited to: those of its clause (with several values, those written
   * between the previous value and this one, else the previous value's; a name after "all" or "every"
   * does not limit), and those of its document's name (a product, a site). Claims whose scopes differ never contradict.
   */
  scope: string[];
  /** Those of `scope` that come from the document's name (what the whole document is about), when there are any. */
  entity?: string[];
  /** For a modality claim: what the statement says must, may, need not or must not happen. */
  modality?: Modality;
  /**
   * Qualified words of the sentence, `head stem<modifier word` ("premium customers" → `custom<premium`;
   * French "clients professionnels" → `client<professionnels`): two claims that qualify one word
   * differently ("premium" and "standard" customers) are about different scopes.
   */
  qualifiers?: string[];
  /**
   * The 128-bit SimHash of the claim's node vector (`vectorSignature`), when the scan reads the
   * repository's vectors: what vector-neighbour blocking compares.
   */
  signature?: string;
}

/**
 * The version of what `extractClaims` reads. Bump it whenever a change makes it read a document
 * differently: claims stored under another version are read again at the next full scan, so a
 * repository is judged with the current reading (the full audit stores it with each document's claims).
 */
export const CLAIMS_VERSION = 9;

/** Words that bound or repeat a figure ("at least", "every") or join its terms ("without"), rather than say what it is about. */
const BOUND_WORDS = 'least less fewer every each exceed exceeding exceeds without moins plus chaque sans'.split(' ');

/** Kinds whose values two documents can disagree on; bare numbers without a counted noun are left out, year-less days of a month are compared among themselves. */
const CHECKABLE: ReadonlySet<string> = new Set(['amount', 'percentage', 'duration', 'quantity', 'time-range', 'time', 'recurrence', 'date', 'date-range', 'number']);
/** Reading values is slow (Microsoft's recognizers, ~15 ms a sentence): only sentences with a figure or a number word are read. */
const MAY_HOLD_VALUE = /\d|\b(?:once|twice|thrice|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|a (?:day|week|month|year)|un|une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|douze|quinze|vingt|trente|quarante|cinquante|soixante|cent|monday|tuesday|wednesday|thursday|friday|saturday|sunday|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|(?:every|each|chaque)\s+(?:other\s+)?(?:day|week|month|quarter|year|semester|jour|semaine|mois|trimestre|année|an)s?|annual|annually|yearly|monthly|weekly|daily|quarterly|annuel|annuelle|annuellement|mensuel|mensuelle|hebdomadaire|quotidien|quotidienne)\b/iu;
/** A name after these words is every one of its kind ("all Northwind products"): it does not limit the claim. */
const UNIVERSAL = /\b(?:all|every|each|any|tous\s+les|toutes\s+les|chaque|tout)\s+(?:of\s+)?(?:the\s+|our\s+|nos\s+|les\s+)?(?=\p{Lu})/giu;

/**
 * The claims of one passage, read in `language` (default: the passage's own). `names`: the
 * repository's proper names (`properNames`), which limit a claim's scope; `entity`: the proper names of
 * the passage's document name (what the document is about: a product, a site), added to every claim's scope.
 */
export function extractClaims(
  passage: Passage,
  options: { language?: Language; names?: ReadonlySet<string>; entity?: readonly string[]; organisation?: ReadonlySet<string> } = {},
): Claim[] {
  const { language = detectLanguage(passage.text), names: all = new Set<string>(), entity = [], organisation = new Set<string>() } = options;
  // The words of the organisation's legal name past its first (`organisationNames`) limit nothing and are what nothing is about.
  const names = organisation.size > 0 ? new Set([...all].filter((n) => !organisation.has(n))) : all;
  const namedIn = (text: string) => [...namesOf(text, names), ...namesOf(text, organisation)];
  // Modal words and the words that bound a figure ("at least", "every", "au moins") say nothing of what it is about.
  const modal = new Set([...MODAL_WORDS, ...BOUND_WORDS].flatMap((w) => contentStems(w, language)));
  const out: Claim[] = [];
  let heading: string[] = [];
  // The qualified words of the current heading and of those above it ("IT service desk" > "Opening hours"): they scope its sentences too.
  let headingQualifiers: string[] = [];
  const headingPath: { level: number; qualifiers: string[] }[] = [];
  // The header row of the current table: its cells' stems, by column.
  let header: string[][] | undefined;
  let inTable = false;
  for (const seg of segments(passage.text)) {
    if (seg.heading) {
      // What a heading says its sentences are about, as a sentence's words are read: without its figures (a section's number,
      // "7. Payment") and its proper names (the organisation's, a site's: they limit a statement, they are not its subject).
      const title = seg.text.replace(/^#+\s*/u, '');
      const titleNames = new Set(contentStems(namedIn(title).join(' '), language));
      heading = contentStems(title, language).filter((s) => !/^\d/u.test(s) && !titleNames.has(s));
      // A heading line without '#' (a short line above a paragraph) sits below every marked heading.
      const level = /^#*/u.exec(seg.text)![0].length || 7;
      while (headingPath.length > 0 && headingPath[headingPath.length - 1].level >= level) headingPath.pop();
      headingPath.push({ level, qualifiers: qualifiersOf(seg.text.replace(/^#+\s*/u, ''), language, modal) });
      headingQualifiers = [...new Set(headingPath.flatMap((h) => h.qualifiers))];
      inTable = false;
      continue;
    }
    if (seg.row && !inTable) {
      inTable = true;
      header = seg.text.replace(/^\||\|$/gu, '').split('|').map((cell) => contentStems(cell, language));
      if (!/\d/u.test(seg.text)) continue;
      header = undefined;
    } else if (!seg.row) {
      inTable = false;
      header = undefined;
    }
    if (/\?["'”»)\]]*$/u.test(seg.text)) continue;
    const values = MAY_HOLD_VALUE.test(seg.text) ? checkableValues(seg.text, language) : [];
    // A sentence may state a rule as well as a figure ("vaccination is voluntary and offered free of charge").
    const reading = !seg.row ? readModality(seg.text, language) : undefined;
    if (values.length === 0 && !reading) continue;
    // The words that say what the values are about: the sentence's, minus the values themselves.
    const spans = [...(reading && !values.some((v) => v.start < reading.end && reading.start < v.end) ? [{ start: reading.start, end: reading.end }] : []), ...values];
    let bare = seg.text;
    for (const v of [...spans].sort((a, b) => b.start - a.start)) bare = `${bare.slice(0, v.start)} ${bare.slice(v.end)}`;
    // Proper names are the claim's scope, not what it is about ("Paris and London up to 180 EUR" is about hotel costs).
    const named = new Set(contentStems(namedIn(bare).join(' '), language));
    const keep = (t: string) => contentStems(t, language).filter((s) => !/^\d/u.test(s) && !modal.has(s) && !named.has(s));
    // A table row's value is about the row's first cell and its column, not the other cells (a reference code, another figure).
    const rowKey = seg.row ? firstCell(seg.text) : '';
    const own = keep(seg.row ? rowKey : bare);
    const qualifiers = [...new Set([...qualifiersOf(bare, language, modal, !seg.row), ...headingQualifiers])];
    const base = { passageId: passage.id, documentId: passage.documentId, text: seg.text, start: seg.start, end: seg.end, ...(entity.length > 0 ? { entity: [...entity].sort() } : {}) };
    // The rule the sentence states, after its figures.
    const rule: Claim | undefined = reading && {
      ...base,
      subject: [...new Set([...own, ...heading])],
      attribute: 'modality',
      value: { key: `modality:${reading.modality}`, text: reading.text },
      scope: [...new Set([...namesOf(limiting(bare), names), ...yearLabels(bare), ...entity])].sort(),
      modality: reading.modality,
      qualifiers,
    };
    let inherited: string[] = [];
    values.forEach((v, i) => {
      // A table row's value is also about its column's header ("Price").
      const column = seg.row ? (header?.[seg.text.slice(0, v.start).replace(/^\|/u, '').split('|').length - 1] ?? []) : [];
      // A value of one clause of a sentence parted by semicolons is about that clause ("weekday on-call is paid 95 euros a night; weekend rates are ...").
      const ownClause = seg.row || !seg.text.includes(';') ? own : keep(clauseWithout(seg.text, v, values));
      // Days named next to another value are that value's ("08:00 to 18:00 on weekdays and on Saturdays from 10:00 to 14:00").
      const othersDays = seg.row ? new Set<string>() : daysOfOtherValues(seg.text, v, values, language);
      const mine = othersDays.size > 0 ? ownClause.filter((x) => !othersDays.has(x)) : ownClause;
      // A cell written as a sentence ("Customer orders received by 16:00 leave the hub the same day") says what its value is about too.
      const prose = seg.row ? proseOfCell(seg.text, v, values, keep) : [];
      const subject = [...new Set([...mine, ...prose, ...column, ...heading, ...(v.unitStem ? [v.unitStem] : [])])];
      // With several values, each is limited by the names written between the previous value and itself ("120 EUR; Paris and London up to 180 EUR").
      // A table row's values are limited by the row's first cell too ("Trailhead 2 | … | 2.4 kg").
      // A value whose own stretch names nothing shares the names of the value before it ("the Lyon warehouse is open Monday to Friday, 8:00 to 17:00").
      const clause = values.length > 1 ? `${rowKey} ${seg.text.slice(i === 0 ? 0 : values[i - 1].end, v.end)}` : bare;
      const written = [...namesOf(limiting(clause), names), ...yearLabels(clause)];
      if (written.length > 0 || i === 0) inherited = written;
      const scope = [...new Set([...inherited, ...entity])].sort();
      // The words a clause of a sentence parted by semicolons qualifies are its own ("Part-time staff receive EUR 90; full-time staff ...").
      // So are those of the clause that holds the value, in any sentence: "We hope you stay a long time, but ... must give one
      // month's notice" is not about a long time.
      const clauseQualifiers = seg.row ? qualifiers : [...new Set([...qualifiersOf(qualifyingClause(seg.text, v, values, language), language, modal, true), ...headingQualifiers])];
      out.push({ ...base, subject, attribute: v.attribute, value: { key: v.key, text: v.text }, scope, qualifiers: clauseQualifiers });
    });
    if (rule) out.push(rule);
  }
  return out;
}

/** The stems of the day words of `text` nearer another value than `value`: with several values, each day goes with its nearest. */
function daysOfOtherValues(text: string, value: { start: number; end: number }, values: readonly { start: number; end: number }[], language: Language): Set<string> {
  const out = new Set<string>();
  if (values.length < 2) return out;
  const distance = (w: { start: number; end: number }, x: { start: number; end: number }) => Math.max(0, x.start - w.end, w.start - x.end);
  for (const m of text.matchAll(DAY_WORD)) {
    const word = { start: m.index, end: m.index + m[0].length };
    const nearest = values.reduce((best, x) => (distance(word, x) < distance(word, best) ? x : best));
    if (nearest !== value) for (const s of contentStems(m[0], language)) out.add(s);
  }
  return out;
}

/** Fewer content words than this in a table cell beside its value make a label or a note ("£140 per night"), not a sentence. */
const PROSE_CELL_WORDS = 3;

/** The subject words of the table cell holding `value`, other values left out, when the cell is written as a sentence. */
function proseOfCell(row: string, value: { start: number; end: number }, values: readonly { start: number; end: number }[], keep: (text: string) => string[]): string[] {
  const start = row.lastIndexOf('|', value.start - 1) + 1;
  const next = row.indexOf('|', value.end);
  const end = next < 0 ? row.length : next;
  // The first cell is the row's label, already its subject.
  if (row.slice(0, start).replace(/^\s*\|/u, '').trim() === '') return [];
  let cell = row.slice(start, end);
  for (const v of values) if (v.start >= start && v.end <= end) cell = cell.slice(0, v.start - start) + ' '.repeat(v.end - v.start) + cell.slice(v.end - start);
  const words = keep(cell);
  return words.length >= PROSE_CELL_WORDS ? words : [];
}

/** Semicolons part a sentence into clauses (what a value's subject words are read from). */
const SEMICOLON = /;/gu;
/** A comma before a conjunction or a subordinator: where an English sentence may part into clauses. */
const CLAUSE_BREAK = /;|,\s+(?=(?:but|so|unless|although|though|whereas|while|because|which|if|when)\b)/giu;

/** The clause of `text` (between semicolons) that holds `value`, without the values written in it. */
function clauseWithout(text: string, value: { start: number; end: number }, values: readonly { start: number; end: number }[]): string {
  const at = [...text.matchAll(SEMICOLON)].map((m) => m.index ?? 0);
  return withoutValues(text, Math.max(0, ...at.filter((b) => b < value.start).map((b) => b + 1)), Math.min(text.length, ...at.filter((b) => b >= value.end)), values);
}

/**
 * The clause of an English sentence whose qualifiers limit a value: parted at semicolons and at a comma before a
 * conjunction or subordinator ("We hope you stay a long time, but if you decide to resign, ..."), where the part
 * before holds a verb; a part without one is the clause's subject and stays ("Full-time staff, but not contractors,
 * get 25 days"). Other languages: between semicolons.
 */
function qualifyingClause(text: string, value: { start: number; end: number }, values: readonly { start: number; end: number }[], language: Language): string {
  if (language !== 'en') return clauseWithout(text, value, values);
  const at = [0, ...[...text.matchAll(CLAUSE_BREAK)].map((m) => (m.index ?? 0) + 1)];
  const end = Math.min(text.length, ...at.filter((b) => b > value.end).map((b) => b - 1));
  let i = at.filter((b) => b <= value.start).length - 1;
  const hasVerb = (from: number, to: number) => {
    const part = text.slice(from, to);
    return verbalWords(part, part.split(/[^\p{L}\p{N}'’-]+/u).filter(Boolean)).some((v) => v !== undefined);
  };
  while (i > 0 && !hasVerb(at[i - 1], at[i])) i--;
  return withoutValues(text, at[i], end, values);
}

function withoutValues(text: string, start: number, end: number, values: readonly { start: number; end: number }[]): string {
  let clause = text.slice(start, end);
  for (const v of [...values].filter((x) => x.start >= start && x.end <= end).sort((a, b) => b.start - a.start)) clause = `${clause.slice(0, v.start - start)} ${clause.slice(v.end - start)}`;
  return clause;
}

interface CheckableValue extends TypedValue {
  attribute: string;
  /** For a count, the stem of the counted noun. */
  unitStem?: string;
}

/** The values of a sentence that two documents can disagree on, each with its attribute. */
function checkableValues(text: string, language: Language): CheckableValue[] {
  const out: CheckableValue[] = [];
  for (const v of extractValues(text, language)) {
    if (!CHECKABLE.has(v.kind) || !v.comparable) continue;
    if (v.kind === 'number') {
      // A number of things ("14 characters", "10 failed attempts"), not a model number ("Trailhead 2"), a version or a year.
      const before = text.slice(0, v.start);
      // "une analyse", "a day": an article, not a count.
      if (/^\p{L}/u.test(v.text) && Number(v.key.slice('number:'.length)) === 1) continue;
      if (/\p{Lu}\p{L}*\s*$/u.test(before) || /(?:n°|#|no\.?)\s*$/iu.test(before) || /^(?:1[89]|20)\d\d$/u.test(v.text.trim())) continue;
      // A clause's number at the head of its sentence or row ("7.1 Questions go to the troncmaster", "| 2. | Payment |") numbers the text, it counts nothing.
      if (/^[\s|*>-]*$/u.test(before) && (/^\d+(?:\.\d+)+\.?$/u.test(v.text.trim()) || /^\d+[.)]/u.test(text.slice(v.start)))) continue;
      const next = /^\s+([\p{L}][\p{L}-]*)/u.exec(text.slice(v.end));
      const noun = next ? contentStems(next[1], language)[0] : undefined;
      if (!noun) continue;
      out.push({ ...v, attribute: `count:${noun}`, unitStem: noun });
      continue;
    }
    if (v.kind === 'recurrence') {
      if (/^recurrence:P\d/u.test(v.key)) out.push({ ...v, attribute: 'recurrence' });
      continue;
    }
    if (v.kind === 'date-range' && /^date-range:\(XXXX-WXX/u.test(v.key)) {
      out.push({ ...v, attribute: 'weekdays' });
      continue;
    }
    if (v.kind === 'date' || v.kind === 'date-range') {
      // Dates to the day or the month; a bare year ("the 2025 collection") names an edition more often than it states a date.
      // A document's own history ("Version 2.1, approved in January 2025", "last updated on ...") differs between
      // its versions by nature: it is not a statement two documents can contradict.
      if (DOCUMENT_HISTORY.test(text)) continue;
      if (/\d{4}-\d\d/u.test(v.key)) out.push({ ...v, attribute: 'date' });
      // A day of a month without a year is a date of every year ("by 31 March"): compared with those alone.
      else if (ANNUAL_DATE.test(v.key)) out.push({ ...v, attribute: 'annual-date' });
      continue;
    }
    // "A day ticket", "une semaine type": a unit with an article before a noun names a kind of thing, not a length of time.
    if (v.kind === 'duration' && /^(?:a|an|un|une)\s+\p{L}+$/iu.test(v.text.trim()) && /^\s+\p{L}/u.test(text.slice(v.end)) && !/^\s+(?:of|per|before|after|in|to|and|or|from|ago|later|earlier|at|on|for|de|d['’]|avant|après|à|au|et|ou|par|pour)(?!\p{L})/iu.test(text.slice(v.end))) continue;
    // The period a rate is counted over ("10 days of sick pay in any rolling 12-month period", "par période de 12 mois") frames
    // the figure; two statements of one rate over one period agree on it and may still disagree on the rate.
    if (v.kind === 'duration' && RATE_PERIOD.test(text.slice(0, v.start))) continue;
    // A figure glued to a capital letter is a grade or a size ("30D" nylon, "4K", "5G"), not a duration.
    if (v.kind === 'duration' && /^\d+(?:[.,]\d+)?\p{Lu}$/u.test(v.text)) continue;
    out.push({ ...v, attribute: attributeOf(v) });
  }
  return out;
}

/** Words that introduce the period a rate is counted over, just before its duration. */
const RATE_PERIOD = /(?:\b(?:in|over|during|within)\s+(?:any|a|an|each|every|one|the\s+same)\s+(?:rolling\s+|calendar\s+|consecutive\s+)?|\bper\s+|(?<!\p{L})(?:par|sur\s+(?:toute|une|chaque)|au\s+cours\s+d['’](?:une|un))\s+(?:période\s+(?:glissante\s+)?(?:de\s+|d['’]))?)$/iu;

/** A sentence about a document's own version, revision, edition or approval ("Policy HR-04, version 6, approved 1 January 2025"), in English or French. */
const DOCUMENT_HISTORY =
  /(?:^|[·|])\s*(?:effective(?:\s+(?:date|from))?|date\s+d['’]entrée\s+en\s+vigueur|entrée\s+en\s+vigueur|en\s+vigueur\s+le)\s*[:|]?\s*(?:le\s+)?\d|(?:^|[·|])\s*issue\s+\d+\s*(?:[·|]|$)|(?<!\p{L})(?:version|rev(?:ision)?\.?|révision|edition|édition)\s*\d+(?:\.\d+)*(?!\p{L})|\bv\s*\d+(?:\.\d+)+|\blast\s+(?:updated|reviewed|revised)\b|\b(?:approved|adopted)\s+(?:by\s+[^.;]{1,80}?\s+)?(?:on\s+|in\s+)?\d{1,2}\s+\p{L}+\s+\d{4}\b|\b(?:mis|mise)\s+à\s+jour(?!\p{L})|\bdernière\s+(?:mise\s+à\s+jour|révision)(?!\p{L})|(?<!\p{L})approuvée?s?\s+(?:par\s+[^.;]{1,80}?\s+)?(?:le|en)\s+(?:\d|janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre)|(?<!\p{L})édition\s+(?:de\s+|d['’])?\p{L}+\s+\d{4}\b/iu;

/** A word after a year that makes the year a date's, not an edition's: "in 2025 the", "31 March 2026". */
const DATE_BEFORE_YEAR = /(?:\b(?:in|since|until|till|from|by|before|after|during|of|to|en|depuis|jusqu'en|jusqu’en|avant|après|de|dès|au|du|le|la|janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)|\d)\s*$/iu;

/**
 * Years that name an edition ("the 2025 price list", "la grille 2026 des tarifs"): written before a
 * word, not after a preposition, a month or a day. Like a proper name they limit the claim: the 2025
 * price list and the 2026 one may well differ, and two statements on the 2025 one are about the same list.
 */
function yearLabels(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(?:19|20)\d{2}\b(?=\s+\p{Ll})/gu)) if (!DATE_BEFORE_YEAR.test(text.slice(0, m.index))) out.push(m[0]);
  return out;
}

/** The text without the names that do not limit it ("all Northwind products": every product). */
function limiting(text: string): string {
  return text.replace(new RegExp(`${UNIVERSAL.source}\\p{L}+`, 'giu'), ' ');
}

/** Two to five capitals: an acronym (IT, HR, EU), not a word written in capitals for emphasis. */
const ACRONYM = /^\p{Lu}{2,5}$/u;
/** Participles used only as prepositions: "including jackets" names jackets, it does not qualify them. */
const PREPOSITIONAL = new Set(['including', 'excluding', 'regarding', 'according', 'notwithstanding', 'concernant', 'durant']);

/**
 * The qualified words of a text: a content word directly qualified by another (in English the word
 * before: "premium customers"; in French the word after: "clients professionnels"), as `head<modifier`
 * (the head's stem, the modifier's folded word), within a phrase: punctuation parts them ("Summit shell
 * jacket: product sheet" qualifies no "product" by "jacket"). Hyphenated modifiers stay whole ("full-time").
 */
function qualifiersOf(text: string, language: Language, modal: ReadonlySet<string>, sentence = false): string[] {
  const out = new Set<string>();
  for (const phrase of text.split(/[,:;.!?()|/]+/u)) {
    // A phrase in capitals throughout ("ALL STORES") is shouted, not made of acronyms.
    const shouted = !/\p{Ll}/u.test(phrase);
    const words = phrase.split(/[^\p{L}\p{N}'’-]+/u).filter(Boolean);
    // Verbs are read in sentences only: a heading or a table cell is a noun phrase ("Express refunds", "IT service desk").
    const verbal = language === 'en' && sentence ? verbalWords(phrase, words) : [];
    // Each word: its stem (a head) and its folded form (a modifier), or nothing for function words and figures.
    const tokens = words.map((w, i) => {
      if (PREPOSITIONAL.has(foldText(w))) return undefined;
      // An acronym in capitals qualifies even when it spells a function word ("IT service desk", "US office").
      const stems = !shouted && ACRONYM.test(w) ? [foldText(w)] : contentStems(w, language).filter((s) => !/^\d/u.test(s) && !modal.has(s));
      return stems.length > 0 && /^\p{L}/u.test(w) ? { stem: stems.join('-'), word: foldText(w).replace(/^\p{L}['’]/u, ''), verbal: verbal[i], written: w } : undefined;
    });
    for (let i = 0; i + 1 < tokens.length; i++) {
      const [a, b] = [tokens[i], tokens[i + 1]];
      if (!a || !b || a.stem === b.stem) continue;
      if (language === 'fr') {
        if (!a.stem.includes('-')) out.add(`${a.stem}<${b.word}`);
        continue;
      }
      // A verb and its object ("carry interest", "give notice", "before leaving Quillmoor") is no qualified word; a
      // participle before a common noun qualifies it ("failed attempts", "existing customers"). A verb stays
      // qualified by the noun before it, who does it ("members receive" and "employees receive" are two rules).
      if (b.stem.includes('-') || a.verbal === 'verb') continue;
      if (a.verbal === 'participle' && /^\p{Lu}/u.test(b.written)) continue;
      out.add(`${b.stem}<${a.word}`);
    }
  }
  return [...out].sort();
}

/**
 * For each word of an English phrase, whether wink-nlp reads it as a verb: `participle` for an -ed, -en or -ing
 * form that can stand before a noun ("failed", "written", "existing") unless an auxiliary or a pronoun comes just
 * before it ("have completed", "who completed"), `verb` for any other verb or auxiliary, undefined otherwise
 * (and for the words wink splits differently: "sign-in").
 */
function verbalWords(phrase: string, words: readonly string[]): ('verb' | 'participle' | undefined)[] {
  const doc = english().readDoc(phrase);
  const values = doc.tokens().out(english().its.value) as string[];
  const tags = doc.tokens().out(english().its.pos) as string[];
  let cursor = 0;
  return words.map((w) => {
    const at = values.indexOf(w, cursor);
    if (at < 0) return undefined;
    cursor = at + 1;
    if (tags[at] !== 'VERB' && tags[at] !== 'AUX') return undefined;
    if (tags[at] === 'VERB' && /(?:ed|en|ing)$/iu.test(w) && !['AUX', 'PRON'].includes(tags[at - 1] ?? '')) return 'participle';
    return 'verb';
  });
}

function attributeOf(v: TypedValue): string {
  const [kind, unit] = v.key.split(':');
  if (v.kind === 'quantity' || v.kind === 'amount') return `${kind}:${unit ?? ''}`;
  if (v.kind === 'time') return 'time-range';
  return v.kind;
}
