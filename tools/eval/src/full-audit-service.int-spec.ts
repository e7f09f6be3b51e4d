import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PERSISTENCE, repositoryContext } from '@svc/composition';
import { loadConfig, PlatformCoreModule } from '@svc/config';
import { DatabaseModule } from '@svc/database';
import { claimsOfDocument, supersededAmong } from '@svc/full-audit-core';
import { CreateRepositoryInstance, IndexDocument, IngestDocument, ReadDocumentPassages } from '@svc/repository-core';
import { Claim, ClaimContradiction, ClaimDisagreement, findContradictions, groupContradictions, PairVerdict, pairVerdict, supersededOf } from '@svc/text';
import { createTestDatabase, TestDatabase } from '@svc/test-kit';
import { CorpusDocument, HELD_OUT, loadCorpus, ROOT } from './demo-corpus';
import { loadDemoQuestions } from './question-sets';

@Module({})
class EvalRootModule {}

/**
 * The full audit as the service runs it (ANALYSIS.md §8): the documents ingested and indexed by the
 * repository (its parser, its chunking into semantic nodes), read back through ReadDocumentPassages,
 * claims per document with the document's own names (claimsOfDocument, what the scan jobs run), then
 * the judge over all claims. full-audit-eval.spec.ts measures the same judge on whole sections; this one
 * says what the chunking and per-document names change. Figures in tools/eval/README.md.
 */
describe('full-audit evaluation through the repository (rule-based judge, PostgreSQL)', () => {
  let db: TestDatabase;
  let app: INestApplicationContext;

  async function scan(corpus: CorpusDocument[], name: string): Promise<{ claims: Claim[]; findings: ClaimContradiction[]; superseded: Map<string, string | null> }> {
    const { instanceId } = await app.get(CreateRepositoryInstance).execute({ organizationId: 'org_eval', name });
    const attempt = { attempt: 1, maxAttempts: 1, progress: async () => undefined };
    const external = new Map<string, string>();
    for (const doc of corpus) {
      const ingested = await app.get(IngestDocument).execute(instanceId, { externalId: doc.externalId, name: doc.name, url: null, owner: null, mediaType: doc.mediaType, content: Buffer.from(doc.content, 'utf8') });
      expect(await app.get(IndexDocument).execute({ instanceId, documentId: ingested.id, contentHash: ingested.content_hash }, attempt)).toBe('indexed');
      external.set(ingested.id, doc.externalId);
    }
    const read = app.get(ReadDocumentPassages);
    const documents = await read.read(instanceId, await read.liveIds(instanceId));
    expect(documents).toHaveLength(corpus.length);
    // Judged with the repository's document ids, as the service judges them; then named by external id, as the answer keys do.
    const named = (c: Claim): Claim => ({ ...c, documentId: external.get(c.documentId)! });
    const claims = documents.flatMap((d) => claimsOfDocument(d));
    const findings = findContradictions(claims).map((f) => ({ ...f, claims: f.claims.map(named) as [Claim, Claim] }));
    // The superseded versions among the documents of the findings, as the judge reads them.
    const involved = new Set(findings.flatMap((f) => f.claims.map((c) => c.documentId)));
    const superseded = supersededAmong(documents.filter((d) => involved.has(external.get(d.id)!)));
    const externalOf = (id: string | null) => (id === null ? null : external.get(id)!);
    return { claims: claims.map(named), findings, superseded: new Map([...superseded].map(([older, replacement]) => [externalOf(older)!, externalOf(replacement)])) };
  }

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    const config = loadConfig({ ...db.env, LOG_LEVEL: 'silent', DEMO_DATA: 'false' });
    const module: DynamicModule = { module: EvalRootModule, imports: [PlatformCoreModule.forRoot(config), DatabaseModule.forRoot(PERSISTENCE), ...repositoryContext(config, { withControllers: false, runWorkers: false })] };
    app = await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
  }, 120000);
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('demo corpus: the planted contradictions the scan finds through semantic nodes', async () => {
    const { claims, findings: pairs, superseded } = await scan(loadCorpus(), 'demo');
    const findings = groupContradictions(pairs, superseded);
    const planted = loadDemoQuestions().filter((q) => q.planted && q.sides);
    const found = planted.filter((q) =>
      findings.some((f) => {
        const sidesOf = new Set(f.claims.map((c) => q.sides!.findIndex((side) => side.includes(c.documentId))).filter((i) => i >= 0));
        return sidesOf.size >= 2;
      }),
    );
    console.log(`demo through the repository: claims ${claims.length}; findings ${findings.length} (from ${pairs.length} pairs); planted found ${found.length}/${planted.length} (${found.map((q) => q.planted).join(', ')})`);
    expect(found.length).toBeGreaterThanOrEqual(10);
  }, 180000);

  /** A corpus with an answer key (contradictions and scoped non-conflicts, each side a document and a phrase of it). */
  async function scanKeyed(folder: string): Promise<{ findings: number; found: string[]; missed: string[]; raised: string[]; repeated: number; total: number }> {
    const directory = join(ROOT, 'tools', 'eval', folder);
    const key = JSON.parse(readFileSync(join(directory, 'answer-key.json'), 'utf8')) as { contradictions: { id: string; sides: [string, string][] }[]; nonConflicts: { id: string; sides: [string, string][] }[]; copies?: { original: string; copy: string }[] };
    const { claims, findings: pairs, superseded } = await scan(loadCorpus(directory), folder);
    // A diagnostic switched on by its variable, for the read corpora only: a held-out one's details are never printed.
    const debug = (variable: string) => Boolean(process.env[variable]) && !HELD_OUT.includes(folder);
    // One finding per disagreement, as the service raises them (ADR 0046), a superseded version's once.
    const findings = groupContradictions(pairs, superseded);
    // A key's phrase may be a table row written with its pipes, which the repository's passages keep only between cells.
    const flat = (text: string) => text.replace(/^\s*\|\s*|\s*\|\s*$/gu, '').replace(/\s+/gu, ' ');
    const on = (c: Claim, [doc, phrase]: [string, string]) => c.documentId === doc && (flat(c.text).includes(flat(phrase)) || flat(phrase).includes(flat(c.text)));
    const holds = (d: ClaimDisagreement, sides: [string, string][]) => d.claims.some((x) => on(x, sides[0]) && d.claims.some((y) => on(y, sides[1]) && y.value.key !== x.value.key));
    const together = (d: ClaimDisagreement, sides: [string, string][]) => d.claims.some((x) => on(x, sides[0])) && d.claims.some((y) => on(y, sides[1]));
    const found = key.contradictions.filter((e) => findings.some((f) => holds(f, e.sides))).map((e) => e.id);
    // A superseded version's finding says the version is out of date, not that its values contradict the current ones.
    const outdated = findings.filter((f) => supersededOf(f.attribute));
    const raised = key.nonConflicts.filter((e) => findings.some((f) => !supersededOf(f.attribute) && together(f, e.sides))).map((e) => e.id);
    const missed = key.contradictions.map((e) => e.id).filter((id) => !found.includes(id));
    // Where each missed contradiction was lost (counts only, so a held-out corpus can be diagnosed unread): no claim read
    // on one of its sentences, claims of other attributes, the same value read on both, or claims that could disagree
    // but were never paired (the judge's blocking or its subject and scope tests).
    // Past those, the judge's test that stopped the pair of its sentences that went furthest (pairVerdict), or 'pairs'
    // when it paired them and a closer pair of the same documents took their sentences.
    const stages: PairVerdict[] = ['other-attribute', 'same-value', 'other-scope', 'few-shared-words', 'subjects-apart', 'sentence-agrees', 'pairs'];
    const lostAt: Record<string, number> = {};
    for (const e of key.contradictions.filter((x) => missed.includes(x.id))) {
      const [left, right] = e.sides.map((side) => claims.filter((c) => on(c, side)));
      const furthest = left.length === 0 || right.length === 0 ? 'no-claim' : left.flatMap((x) => right.map((y) => pairVerdict(x, y, claims))).sort((x, y) => stages.indexOf(y) - stages.indexOf(x))[0];
      const at = furthest === 'pairs' ? 'lost-to-a-closer-pair' : furthest;
      if (debug('SCOPE_DEBUG') && at === 'other-scope') console.log(`SCOPE ${e.id}\n` + left.flatMap((x) => right.filter((y) => pairVerdict(x, y, claims) === 'other-scope').map((y) => `  ${x.attribute} ${JSON.stringify(x.scope)} ${JSON.stringify(x.qualifiers ?? [])} «${x.text.slice(0, 120)}»\n  ${y.attribute} ${JSON.stringify(y.scope)} ${JSON.stringify(y.qualifiers ?? [])} «${y.text.slice(0, 120)}»`)).slice(0, 2).join('\n'));
      lostAt[at] = (lostAt[at] ?? 0) + 1;
      if (debug('MISSED_DEBUG')) console.log(`MISSED ${e.id} at ${at}\n` + [left, right].map((side, i) => `  side ${i}: ${side.length === 0 ? `no claim on «${e.sides[i][1]}»; its document's: ${claims.filter((c) => c.documentId === e.sides[i][0]).map((c) => `«${c.text.slice(0, 60)}»`).join(' ')}` : side.map((c) => `${c.attribute}=${c.value.key} ${JSON.stringify(c.subject)} ${JSON.stringify(c.scope)} «${c.text.slice(0, 90)}»`).join('\n          ')}`).join('\n'));
    }
    // A finding repeated per copy: the same documents (a copy read as its original) and the same values as another finding.
    const original = new Map((key.copies ?? []).map((c) => [c.copy, c.original]));
    const sides = findings.map((f) => [...new Set(f.claims.map((c) => `${original.get(c.documentId) ?? c.documentId}=${c.value.key}`))].sort().join('|'));
    const repeated = sides.length - new Set(sides).size;
    // A held-out corpus shows only its figures: its findings would tell whoever reads the log what it contains.
    console.log(`${folder} through the repository: findings ${findings.length} (from ${pairs.length} pairs); planted found ${found.length}/${key.contradictions.length}; superseded versions ${outdated.length}; missed ${missed.join(', ') || 'none'}; non-conflicts raised ${raised.join(', ') || 'none'}; repeated per copy ${repeated}; missed ones lost at ${JSON.stringify(lostAt)}` +
      (HELD_OUT.includes(folder) ? '' : '\n' + findings.map((f) => `${supersededOf(f.attribute) ? 'SUPERSEDED ' : ''}[${f.pairs[0].shared.join(' ')}] ${f.groups.map((g) => `${g.claims[0].modality ?? g.claims[0].value.text}: ${g.claims.map((c) => `${c.documentId} «${c.text.slice(0, 70)}»`).join(', ')}`).join(' <> ')}`).join('\n')));
    if (debug('SUBJECT_DEBUG')) console.log(findings.map((f) => `SUBJECT ${folder}: «${f.pairs[0].subject}» from «${f.pairs[0].claims[0].text.slice(0, 110)}»`).join('\n'));
    if (debug('EVIDENCE_DEBUG')) {
      for (const f of findings) {
        const planted = key.contradictions.filter((e) => holds(f, e.sides)).map((e) => e.id).join(',') || '-';
        const p = f.pairs[0];
        const own = (c: Claim) => p.shared.filter((w) => c.text.toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '').includes(w)).length;
        console.log(`EVIDENCE ${folder} ${planted} shared=${p.shared.length} sim=${p.similarity.toFixed(2)} own=${own(p.claims[0])}/${own(p.claims[1])} attr=${p.attribute} [${p.shared.join(' ')}]`);
      }
    }
    if (debug('FINDING_DEBUG')) {
      for (const f of findings) for (const p of f.pairs) console.log(`PAIR [${p.shared.join(' ')}] sim ${p.similarity.toFixed(2)}\n` + p.claims.map((c) => `  ${c.documentId} ${c.attribute}=${c.value.key} subject ${JSON.stringify(c.subject)} scope ${JSON.stringify(c.scope)} entity ${JSON.stringify(c.entity ?? [])} «${c.text.slice(0, 100)}»`).join('\n'));
    }
    return { findings: findings.length, found, missed, raised, repeated, total: key.contradictions.length };
  }

  it('second corpus: its planted contradictions, and none of its scoped non-conflicts', async () => {
    const { found, raised } = await scanKeyed('full-audit-corpus');
    expect(raised).toEqual([]);
    expect(found.length).toBeGreaterThanOrEqual(7);
  }, 180000);

  it('third corpus (written blind; 0/10 at its first measurement, then the general causes fixed): its planted contradictions, and none of its scoped non-conflicts', async () => {
    const { found, raised } = await scanKeyed('third-corpus');
    expect(raised).toEqual([]);
    expect(found.length).toBeGreaterThanOrEqual(6);
  }, 180000);

  it('fourth corpus (written blind; 6/10 and 16 findings at its first measurement, then the general causes fixed)', async () => {
    const { found, raised } = await scanKeyed('fourth-corpus');
    expect(found.length).toBeGreaterThanOrEqual(7);
    // V7, a bus schedule's row against the tram manual: only the documents' titles tell the vehicles apart.
    expect(raised.length).toBeLessThanOrEqual(1);
  }, 180000);

  it('fifth corpus (written blind, held out: never read for fixes): at least its first measurement, 3/10, and no non-conflict raised', async () => {
    const { found, raised } = await scanKeyed('fifth-corpus');
    expect(found.length).toBeGreaterThanOrEqual(3);
    expect(raised).toEqual([]);
  }, 180000);

  it('sixth corpus (written blind with near and exact copies, held out: never read for fixes): no more findings, raised non-conflicts or copies than its first measurement', async () => {
    const { raised, findings, repeated } = await scanKeyed('sixth-corpus');
    // First measurement (at 6e8cd6d): 0/10 planted, 23 findings, 1 non-conflict raised, 1 finding repeated per copy. No more noise than that.
    expect(findings).toBeLessThanOrEqual(23);
    expect(raised.length).toBeLessThanOrEqual(1);
    expect(repeated).toBeLessThanOrEqual(1);
  }, 180000);

  it('eighth corpus (written blind with a superseded version, exact, near and format copies, HTML; held out: never read for fixes)', async () => {
    const { findings, raised, repeated } = await scanKeyed('eighth-corpus');
    // First measurement (at its arrival, with superseded versions read): 0/10 planted, 5 findings (1 of them its superseded
    // version), no non-conflict raised, nothing repeated per copy. No more noise than that.
    expect(findings).toBeLessThanOrEqual(5);
    expect(raised).toEqual([]);
    expect(repeated).toBe(0);
  }, 180000);

  it('ninth corpus (written blind, a hotel group, with a superseded version, exact, near and format copies; read for fixes)', async () => {
    const { findings, raised, repeated } = await scanKeyed('ninth-corpus');
    // First measurement (at its arrival): 0/10 planted, 17 findings, none of its non-conflicts raised, nothing repeated per
    // copy. No more noise than that.
    expect(findings).toBeLessThanOrEqual(17);
    expect(raised).toEqual([]);
    expect(repeated).toBe(0);
  }, 180000);

  it('seventh corpus (written blind with a superseded version, near and exact copies; 1/10 and 11 findings at its first measurement, then the general causes fixed)', async () => {
    const { found, raised, repeated } = await scanKeyed('seventh-corpus');
    expect(found.length).toBeGreaterThanOrEqual(5);
    expect(raised).toEqual([]);
    expect(repeated).toBe(0);
  }, 180000);
});
