import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface DemoDocument {
  /** Path under the demo folder, e.g. `finance/refund-policy.md`. */
  externalId: string;
  /** The document's first-line `# ` title. */
  name: string;
  url: string;
  /** The department: the document's folder (`hr`, `finance`, `support`, ...). */
  owner: string;
  content: string;
}

/** The demo folder, from the repository root. */
const DEMO_FOLDER = join('libs', 'composition', 'demo');
const INTRANET = 'https://intranet.northwind.example';

/**
 * The demo repository ingested on the standalone service's first start: the intranet of Northwind
 * Outdoor, a fictional maker and retailer of outdoor gear, one Markdown file per document under
 * `libs/composition/demo/<department>/`. It holds real findings to make: contradictions,
 * near-duplicates, an exact duplicate and subjects referenced but documented nowhere, all listed in
 * `libs/composition/demo/ANSWER-KEY.md` (files at the folder's top level are not documents).
 *
 * The files are read at start-up. From the sources the folder is beside `src/`; from the build
 * (`dist/libs/composition/src`) it is found under the repository root, since the build does not copy
 * Markdown files. Where neither exists (an image holding only dist/), the demo repository is empty.
 */
export function loadDemoDocuments(directory: string | null = findDemoDirectory()): DemoDocument[] {
  if (directory === null) return [];
  const documents: DemoDocument[] = [];
  for (const department of readdirSync(directory, { withFileTypes: true })) {
    if (!department.isDirectory()) continue;
    for (const file of readdirSync(join(directory, department.name), { withFileTypes: true })) {
      if (!file.isFile() || !file.name.endsWith('.md')) continue;
      const content = readFileSync(join(directory, department.name, file.name), 'utf8');
      const slug = basename(file.name, '.md');
      documents.push({
        externalId: `${department.name}/${file.name}`,
        name: /^# (.+)$/m.exec(content.split('\n', 1)[0])?.[1].trim() ?? slug,
        url: `${INTRANET}/${department.name}/${slug}`,
        owner: department.name,
        content,
      });
    }
  }
  return documents.sort((a, b) => (a.externalId < b.externalId ? -1 : a.externalId > b.externalId ? 1 : 0));
}

/** The first existing demo folder: beside the sources, then under each enclosing folder with a package.json. */
export function findDemoDirectory(start: string = __dirname): string | null {
  const candidates = [join(start, '..', 'demo')];
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) candidates.push(join(dir, DEMO_FOLDER));
    if (dirname(dir) === dir) break;
  }
  return candidates.find(hasDocuments) ?? null;
}

function hasDocuments(directory: string): boolean {
  try {
    return readdirSync(directory, { withFileTypes: true }).some(
      (entry) => entry.isDirectory() && readdirSync(join(directory, entry.name)).some((name) => name.endsWith('.md')),
    );
  } catch {
    return false;
  }
}

/**
 * The mandatory questions asked on the demo repository at the first start (`questions.json` at the demo
 * folder's top level): some the documents answer differently, some consistently, one none answers.
 */
export function loadDemoMandatoryQuestions(directory: string | null = findDemoDirectory()): string[] {
  if (directory === null || !existsSync(join(directory, 'questions.json'))) return [];
  const parsed = JSON.parse(readFileSync(join(directory, 'questions.json'), 'utf8')) as { questions?: unknown };
  return Array.isArray(parsed.questions) ? parsed.questions.filter((q): q is string => typeof q === 'string' && q.trim() !== '') : [];
}

export const DEMO_DOCUMENTS: DemoDocument[] = loadDemoDocuments();
export const DEMO_MANDATORY_QUESTIONS: string[] = loadDemoMandatoryQuestions();
