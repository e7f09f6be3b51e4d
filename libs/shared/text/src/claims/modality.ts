import type { Language } from '../language';

/**
 * What a statement says must, may, need not or must not happen (ANALYSIS.md §4: "a polarity/modality
 * flip ('must' vs 'may not') is a contradiction"):
 * - `required`: "must", "is required", "is mandatory", "always", "doit", "obligatoire";
 * - `forbidden`: "must not", "may not", "is not allowed", "never", "ne doit pas", "interdit";
 * - `optional`: "is not required", "is optional", "need not", "n'est pas obligatoire", "facultatif";
 * - `permitted`: "may", "is allowed", "is permitted", "peut", "autorisé".
 */
export type Modality = 'required' | 'forbidden' | 'optional' | 'permitted';

/** Pairs of modalities that cannot both hold of one thing ("must" and "may" can; "must" and "need not" cannot). */
const CONFLICTS: ReadonlySet<string> = new Set(['required|forbidden', 'required|optional', 'forbidden|permitted', 'forbidden|optional']);

export function modalitiesConflict(a: Modality, b: Modality): boolean {
  return CONFLICTS.has(`${a}|${b}`) || CONFLICTS.has(`${b}|${a}`);
}

const BE_EN = String.raw`(?:is|are|be|was|were|remains?|stays?)`;
const BE_FR = String.raw`(?:est|sont|reste|restent|sera|seront|demeure)`;
const NOT_FR = String.raw`(?:ne|n')\s*(?:\S+\s+){0,2}?`;

/** Most specific first: a negated form is read before the word it negates. Global: every match is looked at (`matchAll` copies the pattern). */
const PATTERNS: Record<Language, [Modality, RegExp][]> = {
  en: [
    ['optional', new RegExp(String.raw`\b(?:${BE_EN}\s+not\s+(?:required|mandatory|compulsory|obligatory|necessary|needed)|${BE_EN}\s+(?:optional|voluntary)|(?:does|do|did)\s*(?:not|n't)\s+(?:need|have)\s+to|(?:need|needs)\s+not|(?:don't|doesn't)\s+(?:need|have)\s+to|optional)\b`, 'giu')],
    ['forbidden', new RegExp(String.raw`\b(?:must\s+(?:not|never)|mustn't|may\s+not|shall\s+not|cannot|can\s*not|can't|${BE_EN}\s+(?:not\s+(?:allowed|permitted|authori[sz]ed)|never\s+(?:allowed|permitted)|prohibited|forbidden|banned)|never|prohibited|forbidden)\b`, 'giu')],
    ['required', new RegExp(String.raw`\b(?:must|shall|(?:has|have)\s+to|${BE_EN}\s+(?:required|mandatory|compulsory|obligatory)|always|mandatory|compulsory)\b`, 'giu')],
    ['permitted', new RegExp(String.raw`\b(?:may|${BE_EN}\s+(?:allowed|permitted|authori[sz]ed|free)\s+to|${BE_EN}\s+(?:allowed|permitted|authori[sz]ed))\b`, 'giu')],
  ],
  fr: [
    ['optional', new RegExp(String.raw`(?:${NOT_FR}${BE_FR}?\s*pas\s+(?:obligatoires?|requise?s?|nécessaires?|exigée?s?)|facultati(?:f|ve)s?|optionnel(?:le)?s?|\bsur\s+la\s+base\s+du\s+volontariat\b|\b${BE_FR}\s+(?:entièrement\s+)?volontaires?\b|\bnon\s+obligatoires?\b|${NOT_FR}(?:est|sont)\s+pas\s+tenue?s?\s+de)`, 'giu')],
    ['forbidden', new RegExp(String.raw`(?:${NOT_FR}(?:doit|doivent|peut|peuvent|pourra|pourront)\s+(?:pas|jamais)|${NOT_FR}${BE_FR}\s+(?:pas|jamais)\s+(?:autorisée?s?|permise?s?)|interdite?s?|prohibée?s?|\bjamais\b)`, 'giu')],
    ['required', new RegExp(String.raw`(?:\b(?:doit|doivent|devra|devront)\b|obligatoires?|\b${BE_FR}\s+(?:requise?s?|exigée?s?|tenue?s?\s+de)|\btoujours\b|\bil\s+faut\b)`, 'giu')],
    ['permitted', new RegExp(String.raw`(?:autorisée?s?|\bpermise?s?\b|\b(?:peut|peuvent|pourra|pourront)\b)`, 'giu')],
  ],
};

export interface ModalityReading {
  modality: Modality;
  /** The words that say it, as written, and their offsets in the text. */
  text: string;
  start: number;
  end: number;
}

/** The modality a sentence states, the most specific reading first (see `Modality`), or undefined. */
export function readModality(text: string, language: Language): ModalityReading | undefined {
  for (const [modality, pattern] of PATTERNS[language]) {
    for (const m of text.matchAll(pattern)) {
      // "A clinician who cannot be vaccinated must wear a mask": the relative clause describes who, the rule is "must".
      if (RELATIVE_BEFORE[language].test(text.slice(0, m.index))) continue;
      // "on 1 May 2025", "May 2026": the month, not the verb.
      if (language === 'en' && m[0].startsWith('May') && (/\d\s*$/u.test(text.slice(0, m.index)) || /^\s*\d/u.test(text.slice(m.index + m[0].length)))) continue;
      return { modality, text: m[0].trim(), start: m.index, end: m.index + m[0].length };
    }
  }
  return undefined;
}

/** A relative pronoun just before a modal word (one word between at most): the modal is the clause's, not the sentence's rule. */
const RELATIVE_BEFORE: Record<Language, RegExp> = {
  // Not "that": also a conjunction ("note that visitors must sign in") and a demonstrative ("that door must stay closed").
  en: /\b(?:who|which|whom)\s+(?:\p{L}+\s+)?$/iu,
  fr: /(?<!\p{L})(?:qui|que|qu['’]|dont)(?:\s+\p{L}+)?\s*$/iu,
};

/** Words that carry a modality, left out of what a modality claim is about (so "mandatory" and "optional" do not count as its subject). */
export const MODAL_WORDS = new Set(
  'must shall may might never always required require requires mandatory compulsory obligatory optional voluntary volontaire volontaires volontariat necessary needed need needs allowed allow permitted permit authorised authorized prohibited forbidden banned free cannot doit doivent devra devront peut peuvent pourra pourront jamais toujours obligatoire obligatoires requis requise requises exige exigee facultatif facultative facultatifs optionnel optionnelle interdit interdite interdits interdites autorise autorisee autorises autorisees permis permise tenu tenue faut'.split(' '),
);
