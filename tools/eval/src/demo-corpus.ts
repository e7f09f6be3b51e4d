import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The repository root: the nearest folder with a package.json (from the sources or from dist/). */
function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${start}`);
  }
}

export const ROOT = findRoot(__dirname);
export const DEMO_DIR = join(ROOT, 'libs', 'composition', 'demo');
export const QUERIES_FILE = join(ROOT, 'tools', 'eval', 'queries.json');
export const RESULTS_DIR = join(ROOT, 'tools', 'eval', 'results');
/** The corpora kept held out (ANALYSIS.md §8): measured, never read for fixes; their logs show figures only. */
export const HELD_OUT: readonly string[] = ['fifth-corpus', 'sixth-corpus', 'eighth-corpus'];

export interface CorpusDocument {
  externalId: string;
  name: string;
  url: string;
  owner: string;
  content: string;
  /** Markdown, or HTML for a `.html` file. */
  mediaType: 'text/markdown' | 'text/html';
}

/**
 * The demo corpus as the standalone service ingests it (libs/composition/src/demo-documents.ts, which
 * the composition library does not export): every `<department>/<name>.md` (or `.html`) under the demo folder,
 * external id = its path there, name = its first-line title, owner = its department.
 */
export function loadCorpus(directory = DEMO_DIR): CorpusDocument[] {
  const documents: CorpusDocument[] = [];
  for (const department of readdirSync(directory, { withFileTypes: true })) {
    if (!department.isDirectory()) continue;
    for (const file of readdirSync(join(directory, department.name))) {
      const html = file.endsWith('.html');
      if (!file.endsWith('.md') && !html) continue;
      const content = readFileSync(join(directory, department.name, file), 'utf8');
      const slug = basename(file, html ? '.html' : '.md');
      const title = html ? /<title>([^<]+)<\/title>/iu.exec(content)?.[1] ?? /<h1[^>]*>([^<]+)<\/h1>/iu.exec(content)?.[1] : /^# (.+)$/m.exec(content.split('\n', 1)[0])?.[1];
      documents.push({
        externalId: `${department.name}/${file}`,
        name: title?.trim() ?? slug,
        mediaType: html ? 'text/html' : 'text/markdown',
        url: `https://intranet.northwind.example/${department.name}/${slug}`,
        owner: department.name,
        content,
      });
    }
  }
  return documents.sort((a, b) => (a.externalId < b.externalId ? -1 : a.externalId > b.externalId ? 1 : 0));
}

export interface RelevanceLabel {
  /** External id of the answering document. */
  document: string;
  /** Verbatim text that the answering node contains. */
  phrase: string;
  /** 3 answers, 2 answers from a stale copy / duplicate or less directly, 1 related context. */
  grade: 1 | 2 | 3;
}

export interface LabelledQuery {
  id: string;
  query: string;
  relevant: RelevanceLabel[];
}

export interface QuerySet {
  description: string;
  queries: LabelledQuery[];
  unanswerable: { query: string; missing_subject: string }[];
}

export function loadQueries(file = QUERIES_FILE): QuerySet {
  return JSON.parse(readFileSync(file, 'utf8')) as QuerySet;
}

export interface AnswerKeySection {
  /** `Contradictions`, `Exact duplicate`, `Near-duplicates`, `Missing subjects`, `Consistent facts (not findings)`. */
  part: string;
  /** `C1 Refund deadline: ...`, or the part's name when the part has no sub-sections. */
  title: string;
  rows: { document: string; phrase: string }[];
}

/** The `| document | phrase |` tables of ANSWER-KEY.md, by `##` part and `###` section (`\|` unescaped). */
export function parseAnswerKey(markdown: string): AnswerKeySection[] {
  const sections: AnswerKeySection[] = [];
  let part = '';
  let current: AnswerKeySection | null = null;
  for (const line of markdown.split('\n')) {
    const heading = /^(#{2,3}) (.+)$/.exec(line);
    if (heading) {
      if (heading[1] === '##') part = heading[2].trim();
      current = { part, title: heading[2].trim(), rows: [] };
      sections.push(current);
      continue;
    }
    if (!current || !line.startsWith('| ') || line.startsWith('| Document |') || line.startsWith('| ---')) continue;
    const cells = line
      .slice(2, -2)
      .split(/(?<!\\) \| /)
      .map((cell) => cell.replace(/\\\|/g, '|').trim());
    if (cells.length === 2) current.rows.push({ document: cells[0], phrase: cells[1] });
  }
  return sections.filter((s) => s.rows.length > 0);
}
