import { english } from '../answers/english-model';
import { detectLanguage, Language } from '../language';
import { capitalise } from './labels';

/** One question of a subject and the answer an expert gave. */
export interface CompanionAnswer {
  question: string;
  answer: string;
}

export interface CompanionDocumentInput {
  /** The subject's label: the document's title. */
  subject: string;
  /** In the order the sections should follow. Every answer must be given. */
  qa: readonly CompanionAnswer[];
  /** By default, the language of the subject, questions and answers. */
  language?: Language;
  /** A review date the service knows (e.g. "2026-11-26"), printed as given; no line without it. */
  reviewed?: string;
}

const TEXT: Record<Language, { intro: (subject: string, n: number) => string; sources: string; reviewed: string; question: string }> = {
  en: {
    intro: (subject, n) => `This document covers ${subject}. It gathers the answers experts gave to ${n} question${n > 1 ? 's' : ''} the repository could not answer.`,
    sources: "Sources: the experts' answers to the questions above.",
    reviewed: 'Last reviewed',
    question: '?',
  },
  fr: {
    intro: (subject, n) => `Ce document traite du sujet « ${subject} ». Il rassemble les réponses des experts à ${n} question${n > 1 ? 's' : ''} auxquelles le référentiel ne répondait pas.`,
    sources: 'Sources : les réponses des experts aux questions ci-dessus.',
    reviewed: 'Dernière relecture',
    question: ' ?',
  },
};

/**
 * The companion document of a missing subject (ANALYSIS.md §5), rule-based Markdown made only of what the
 * experts wrote: a title from the subject, one sentence on what the document covers, then one section per
 * question — its heading the question, or a noun phrase when a safe pattern gives one ("What is the data
 * retention schedule?" → "Data retention schedule", "How do I report a concern?" → "How to report a
 * concern") — and the expert's answer as its body, tidied (capital first letter, final period, headings
 * inside it demoted). It adds no fact: the closing lines say where the content comes from and, only when
 * given, the review date. English or French.
 */
export function draftCompanionDocument(input: CompanionDocumentInput): string {
  const subject = input.subject.trim().replace(/\s+/gu, ' ');
  if (subject === '') throw new RangeError('a companion document needs a subject');
  if (input.qa.length === 0) throw new RangeError('a companion document needs at least one answered question');
  const blank = input.qa.find((qa) => qa.answer.trim() === '');
  if (blank) throw new RangeError(`the question "${blank.question}" has no answer`);
  const language = input.language ?? detectLanguage([subject, ...input.qa.flatMap((qa) => [qa.question, qa.answer])].join('\n'));
  const text = TEXT[language];

  const headings = input.qa.map((qa) => questionHeading(qa.question, language));
  const counts = new Map<string, number>();
  for (const h of headings) counts.set(h.toLowerCase(), (counts.get(h.toLowerCase()) ?? 0) + 1);
  const lines = [`# ${capitalise(subject)}`, '', text.intro(inSentence(subject), input.qa.length), ''];
  input.qa.forEach((qa, i) => {
    const heading = counts.get(headings[i].toLowerCase()) === 1 ? headings[i] : asQuestion(qa.question, language);
    lines.push(`## ${heading}`, '', cleanAnswer(qa.answer), '');
  });
  lines.push('---', '', text.sources);
  if (input.reviewed?.trim()) lines.push('', `${text.reviewed}${language === 'fr' ? ' :' : ':'} ${input.reviewed.trim()}`);
  return `${lines.join('\n')}\n`;
}

/** The subject inside a sentence: its capital dropped unless it starts an acronym or a name ("GDPR", "London"). */
function inSentence(subject: string): string {
  return /^\p{Lu}\p{Ll}/u.test(subject) && !/^\p{Lu}\p{Ll}+\s+\p{Lu}/u.test(subject) ? subject.charAt(0).toLowerCase() + subject.slice(1) : subject;
}

/** The question as written, one final question mark (French typography: a space before it). */
function asQuestion(question: string, language: Language): string {
  const body = question.trim().replace(/\s+/gu, ' ').replace(/[\s?？]+$/u, '');
  return `${capitalise(body)}${TEXT[language].question}`;
}

/** French articles of a noun phrase, and the "de" they become ("la durée du congé"). */
const FRENCH_OF: Record<string, string> = { le: 'du ', la: 'de la ', "l'": "de l'", 'l’': 'de l’', les: 'des ' };

/**
 * A section heading for a question: a noun phrase where a pattern gives one safely, else the question.
 * English "What is/are (the) X" keeps X only when X starts with a noun or an adjective (wink-nlp's tags):
 * "What is covered by the policy?" stays a question.
 */
export function questionHeading(question: string, language: Language): string {
  const body = question.trim().replace(/\s+/gu, ' ').replace(/[\s?？]+$/u, '');
  let m: RegExpExecArray | null;
  if (language === 'fr') {
    if ((m = /^quel(?:le)?s? (?:est|sont) (?:le |la |l['’]|les )(.+)$/iu.exec(body))) return capitalise(m[1]);
    if ((m = /^comment (?:puis-je|peut-on|dois-je|doit-on|faut-il|faire pour) (.+)$/iu.exec(body))) return `Comment ${m[1]}`;
    if ((m = /^combien de temps dure(?:nt)? (le |la |l['’]|les )(.+)$/iu.exec(body))) return `Durée ${FRENCH_OF[m[1].trim().toLowerCase()] ?? 'de '}${m[2]}`;
    return asQuestion(question, language);
  }
  if ((m = /^(?:what|which) (?:is|are) (?:the |our |your |a |an )?(.+)$/iu.exec(body)) && startsWithNoun(m[1])) return capitalise(m[1]);
  if ((m = /^how (?:do|can|should|must|may) (?:i|we|you|employees|staff|one|managers) (.+)$/iu.exec(body))) return `How to ${m[1]}`;
  if ((m = /^how long (?:is|are) (?:the |a |an )?(.+)$/iu.exec(body)) && startsWithNoun(m[1])) return `Duration of ${m[1]}`;
  return asQuestion(question, language);
}

const NOUN_PHRASE_START = new Set(['NOUN', 'PROPN', 'ADJ', 'NUM']);

/** True when the phrase's first word is tagged a noun, a name, an adjective or a number, and no verb follows it directly. */
function startsWithNoun(phrase: string): boolean {
  const tags = english().readDoc(phrase).tokens().out(english().its.pos) as string[];
  return tags.length > 0 && NOUN_PHRASE_START.has(tags[0]) && !(tags.length > 1 && (tags[1] === 'VERB' || tags[1] === 'AUX') && tags[0] !== 'ADJ');
}

/**
 * The expert's answer, tidied and nothing more: spaces collapsed, blank lines at most one, the first
 * letter capitalised, a period added after a final sentence that has no end mark (not after a list, a
 * table or a link, which it would change), Markdown headings demoted below the section's.
 */
export function cleanAnswer(answer: string): string {
  const lines = answer
    .replace(/\r\n?/gu, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t]+/gu, ' ').trimEnd())
    .map((l) => l.replace(/^(#{1,2})(?=\s)/u, '###'));
  const text = lines.join('\n').replace(/\n{3,}/gu, '\n\n').trim();
  const first = /^[\p{Ll}]/u.test(text) && !/^\S*(?::\/\/|@|\.\w)/u.test(text) ? capitalise(text) : text;
  const last = first.split('\n').at(-1) ?? '';
  const plainSentence = !/^\s*(?:[-*+|>#]|\d+[.)]\s|```)/u.test(last) && !/\S*:\/\/\S*$/u.test(last);
  return plainSentence && /[\p{L}\p{N})"'”»]$/u.test(first) ? `${first}.` : first;
}
