import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './demo-corpus';

export type Outcome = 'CONFLICTS' | 'NO_CONFLICT' | 'REFUSED';

/** A mandatory question on the demo corpus with the decision an expert expects (tools/eval/questions.json). */
export interface DemoQuestion {
  id: string;
  question: string;
  expect: Outcome;
  /** The planted contradiction of ANSWER-KEY.md it asks about. */
  planted?: string;
  /** For CONFLICTS: documents (external ids) that must sit in different answer groups, one array per side. */
  sides?: string[][];
  /** For a paraphrase: the id of the question it rephrases. */
  paraphrase_of?: string;
}

export const QUESTIONS_FILE = join(ROOT, 'tools', 'eval', 'questions.json');
export const RAMDOCS_FILE = join(ROOT, '..', 'shared', 'eval', 'ramdocs', 'ramdocs-dev.jsonl');

/** `questions`, the set the analysis is tuned on, or `paraphrases`, held-out rephrasings of some of them. */
export function loadDemoQuestions(set: 'questions' | 'paraphrases' = 'questions', file = QUESTIONS_FILE): DemoQuestion[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as Record<typeof set, DemoQuestion[]>)[set];
}

export interface RamDocsDocument {
  text: string;
  type: 'correct' | 'misinfo' | 'noise';
  answer: string;
}

export interface RamDocsItem {
  question: string;
  documents: RamDocsDocument[];
  disambig_entity: string[];
  gold_answers: string[];
  wrong_answers: string[];
}

/** The RAMDocs development split (../shared/eval/ramdocs), one item per line. */
export function loadRamDocs(file = RAMDOCS_FILE): RamDocsItem[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RamDocsItem);
}

/**
 * RAMDocs' expectation, as its README maps it: a conflict when the item's documents that are not
 * noise give two or more different answers (misinformation or ambiguity), none otherwise.
 */
export function ramDocsExpectsConflict(item: RamDocsItem): boolean {
  return new Set(item.documents.filter((d) => d.type !== 'noise').map((d) => normaliseAnswer(d.answer))).size >= 2;
}

export function normaliseAnswer(answer: string): string {
  return answer.trim().toLowerCase().replace(/\s+/g, ' ');
}
