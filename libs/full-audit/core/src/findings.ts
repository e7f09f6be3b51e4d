import { Claim, ClaimDisagreement, describeContradiction, describeStatements, DescribedStatement, detectLanguage, extractClaims, Modality, namesOf, organisationNames, properNames, readDocumentControl, supersededDocuments, supersededOf, vectorSignature } from '@svc/text';
import type { FindingPair, FullAuditExcerpt, FullAuditFinding } from './full-audit-conflict';
import type { DocumentClaims, ScannedDocument } from './full-audit.ports';
import { contentOfVersion } from './scan-settings';

/**
 * The claims of one document (ANALYSIS.md §4 step 1): each passage read with its heading path, in the
 * document's language; proper names are those its body writes as names (a product, a site), and those
 * of its title among them scope every claim. Pure.
 */
export function claimsOfDocument(document: ScannedDocument): Claim[] {
  const texts = document.passages.map((p) => p.text);
  // Names are read from the body: title-case headings and the document's title name no one ("Expense Reimbursement Rules").
  const names = properNames(texts.map((t) => t.split('\n').filter((line) => !/^\s*#/u.test(line)).join('\n')));
  // The legal name a document is written under, in its name or its head (its organisation's), is one name (its first word):
  // its other words are no scope and no subject. The judge reads a name on most documents as no scope at all.
  const organisation = organisationNames([document.name, ...document.passages.slice(0, 1).flatMap((p) => [...p.headingPath, p.text.slice(0, 400)])]);
  const entity = namesOf(document.name, names).filter((n) => !organisation.has(n));
  const language = detectLanguage(texts.join('\n').slice(0, 4000));
  return document.passages.flatMap((p) => {
    // Headings say what a passage is about; the passage's own text keeps its offsets after them.
    const headings = p.headingPath.filter((h) => !p.text.includes(h)).map((h, i) => `${'#'.repeat(Math.min(i + 1, 6))} ${h}\n`).join('');
    const shift = headings.length;
    // The node's vector, reduced to its signature, blocks the claim with those of nodes near it (ANALYSIS.md §4.2).
    const signature = p.vector ? vectorSignature(p.vector) : null;
    return extractClaims({ id: p.id, documentId: document.id, text: `${headings}${p.text}`, documentName: document.name }, { language, names, entity, organisation }).map((c) => ({ ...c, start: c.start - shift, end: c.end - shift, ...(signature ? { signature } : {}) }));
  });
}

/**
 * Which of these documents are superseded versions, and by which (`supersededDocuments`), from the head of each:
 * its headings and first passages, where document control writes reference, version, date and "Supersedes".
 */
export function supersededAmong(documents: readonly Pick<ScannedDocument, 'id' | 'name' | 'passages'>[]): Map<string, string | null> {
  return supersededDocuments(
    documents.map((d) => {
      const head = d.passages
        .slice(0, 4)
        .map((p, i) => `${(i === 0 ? p.headingPath : p.headingPath.slice(-1)).filter((h) => !p.text.includes(h)).map((h) => `# ${h}\n`).join('')}${p.text}`)
        .join('\n');
      return { id: d.id, control: readDocumentControl(d.name, head) };
    }),
  );
}

/** Name and link of each document, as the scan read them. */
export type DocumentNames = Map<string, { name: string; url: string | null }>;

function excerptOf(claim: Claim, names: DocumentNames): FullAuditExcerpt {
  const at = claim.text.indexOf(claim.value.text);
  const document = names.get(claim.documentId);
  return {
    semanticNodeId: claim.passageId,
    documentId: claim.documentId,
    documentName: document?.name ?? claim.documentId,
    documentUrl: document?.url ?? null,
    text: claim.text,
    start: at >= 0 ? at : 0,
    end: at >= 0 ? at + claim.value.text.length : claim.text.length,
    value: claim.value.text,
    valueKey: claim.value.key,
    scope: claim.scope,
  };
}

/**
 * A disagreement written for people (ANALYSIS.md §4 step 4): what it is about (from its closest pair), what each
 * document says, grouped by value, and what to decide; its statements as excerpts, its pairs as its identity.
 */
export function findingOf(disagreement: ClaimDisagreement, names: DocumentNames): FullAuditFinding {
  const closest = disagreement.pairs[0];
  const outdated = supersededOf(disagreement.attribute);
  const subject = outdated ? `older version still in the repository: ${names.get(outdated.older)?.name ?? outdated.older}` : describeContradiction(closest, names).subject;
  const excerpts = disagreement.claims.map((c) => excerptOf(c, names));
  return {
    fingerprint: disagreement.fingerprint,
    pairs: disagreement.pairs.map((p) => ({ fingerprint: p.fingerprint, documentIds: [p.claims[0].documentId, p.claims[1].documentId] })),
    attribute: disagreement.attribute,
    subject,
    ...describedExcerpts(disagreement.attribute, subject, excerpts),
    excerpts,
    documentIds: [...new Set(excerpts.map((e) => e.documentId))].sort(),
  };
}

/** The explanation and companion questions of a finding's excerpts (also of one whose excerpts a scan merged). */
export function describedExcerpts(attribute: string, subject: string, excerpts: readonly FullAuditExcerpt[]): { explanation: string; compagnonQuestions: string[] } {
  const names: DocumentNames = new Map(excerpts.map((e) => [e.documentId, { name: e.documentName, url: e.documentUrl }]));
  const statements: DescribedStatement[] = excerpts.map((e) => ({
    documentId: e.documentId,
    text: e.text,
    value: { key: e.valueKey, text: e.value },
    scope: e.scope,
    ...(e.valueKey.startsWith('modality:') ? { modality: e.valueKey.slice('modality:'.length) as Modality } : {}),
  }));
  const { explanation, companionQuestions } = describeStatements({ attribute, subject, statements }, names);
  return { explanation, compagnonQuestions: companionQuestions };
}

/** A finding's pairs; a conflict stored before findings had pairs is its one pair. */
export function pairsOf(finding: Pick<FullAuditFinding, 'fingerprint' | 'pairs' | 'documentIds'>): FindingPair[] {
  return finding.pairs?.length ? finding.pairs : [{ fingerprint: finding.fingerprint, documentIds: [finding.documentIds[0], finding.documentIds[1] ?? finding.documentIds[0]] }];
}

/** The latest content change of each document (to tell a MANAGED conflict whose documents changed since). */
export function changedAtOf(all: DocumentClaims[]): Map<string, Date> {
  return new Map(all.map((d) => [d.documentId, d.changedAt]));
}

/** The content versions of a finding's documents, from a version lookup (document id → its claims' content version). */
export function versionsOf(finding: Pick<FullAuditFinding, 'documentIds'>, versions: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries(finding.documentIds.map((id) => [id, versions.get(id) ?? '']));
}

/**
 * Whether each of a finding's documents still has the content recorded then (a verdict on it still holds).
 * Only the content counts, not the claim reader's version or blocking's embedding model (`claimsVersionOf`):
 * a new reader or a setting does not make the model judge again a pair it judged on the same text.
 */
export function atVersions(finding: Pick<FullAuditFinding, 'documentIds'>, then: Readonly<Record<string, string>>, now: ReadonlyMap<string, string>): boolean {
  return finding.documentIds.every((id) => sameContent(now.get(id), then[id]));
}

/** Whether two stored claim versions (`claims-v<n>[+<model>]:<content hash>`) were read from the same content. */
export function sameContent(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined ? contentOfVersion(a) === contentOfVersion(b) : a === b;
}
