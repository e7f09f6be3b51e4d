import { Clock, DomainError, LanguageModel, LanguageModelUsage, StructuredCall, UnitOfWork } from '@svc/kernel';
import type { ScannedDocument } from '../full-audit.ports';
import { CachedStatement, DiscoveryVerdict, DiscoveryVerdicts, ScanModelLedger, ScanModelUsage, StatementCache, StatementCacheKey, statementCacheKey } from './discovery.ports';
import { ModelDiscoveryJudge } from './discovery-judge';
import { DiscoverySettings, MODEL_DISCOVERY_CONCURRENCY, ModelDiscovery } from './model-discovery';
import { ModelStatementExtractor } from './statement-extractor';

class MemoryCache extends StatementCache {
  readonly rows = new Map<string, CachedStatement[]>();
  async get(instanceId: string, keys: StatementCacheKey[]) {
    return new Map(keys.filter((k) => this.rows.has(`${instanceId}|${statementCacheKey(k)}`)).map((k) => [statementCacheKey(k), this.rows.get(`${instanceId}|${statementCacheKey(k)}`)!]));
  }
  async put(instanceId: string, entries: (StatementCacheKey & { statements: CachedStatement[] })[]) {
    for (const e of entries) this.rows.set(`${instanceId}|${statementCacheKey(e)}`, e.statements);
  }
  async keepOnly() {
    return 0;
  }
}

class MemoryVerdicts extends DiscoveryVerdicts {
  readonly rows = new Map<string, { verdict: DiscoveryVerdict; contentHashes: Record<string, string> }>();
  async of(_instanceId: string, fingerprints: string[]) {
    return new Map(fingerprints.filter((f) => this.rows.has(f)).map((f) => [f, this.rows.get(f)!]));
  }
  async record(_instanceId: string, verdicts: { fingerprint: string; verdict: DiscoveryVerdict; contentHashes: Record<string, string> }[]) {
    for (const v of verdicts) this.rows.set(v.fingerprint, v);
  }
  async forgetStale() {
    return 0;
  }
}

class MemoryLedger extends ScanModelLedger {
  readonly scans = new Map<string, ScanModelUsage>();
  private of(id: string) {
    if (!this.scans.has(id)) this.scans.set(id, { calls: 0, inputTokens: 0, outputTokens: 0, stopped: null });
    return this.scans.get(id)!;
  }
  async reserve(id: string, budget: number) {
    const u = this.of(id);
    if (u.stopped || (budget > 0 && u.calls >= budget)) {
      u.stopped ??= 'budget';
      return false;
    }
    u.calls++;
    return true;
  }
  async spent(id: string, usage: LanguageModelUsage) {
    this.of(id).inputTokens += usage.inputTokens;
    this.of(id).outputTokens += usage.outputTokens;
  }
  async stop(id: string, reason: 'budget' | 'outage') {
    this.of(id).stopped ??= reason;
  }
  async usage(id: string) {
    return this.of(id);
  }
  async stoppedByOutage() {
    return [];
  }
  async reserveDay(instanceId: string, day: string, budget: number) {
    const u = this.of(`day:${instanceId}:${day}`);
    if (u.calls >= budget) return false;
    u.calls++;
    return true;
  }
  async spentDay(instanceId: string, day: string, usage: LanguageModelUsage) {
    await this.spent(`day:${instanceId}:${day}`, usage);
  }
}

/**
 * A scripted model: it states the figure of every sentence "<Subject> is <n> days." (and one quote that is not in
 * its passage), and judges every pair a contradiction unless one side is in a draft. `failing` makes it fail.
 */
function scriptedModel() {
  const calls: StructuredCall[] = [];
  const model = {
    name: 'scripted:model',
    configured: true,
    batches: null,
    failing: false,
    /** Documents whose statements the model answers with malformed output (after the transport's repeat). */
    malformed: new Set<string>(),
    calls,
    inFlight: 0,
    mostInFlight: 0,
    async complete(call: StructuredCall) {
      calls.push(call);
      model.inFlight++;
      model.mostInFlight = Math.max(model.mostInFlight, model.inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      model.inFlight--;
      if (model.failing) throw new Error('overloaded');
      if ([...model.malformed].some((name) => call.messages[0].content.includes(`document="${name}"`))) throw DomainError.unavailable('LLM.INVALID_RESPONSE', 'not JSON');
      const prompt = call.messages[0].content;
      const usage = { inputTokens: 100, outputTokens: 10 };
      if (call.output.name === 'submit_statements') {
        const statements = [...prompt.matchAll(/<passage id="([^"]+)"[^>]*>\n([\s\S]*?)\n<\/passage>/gu)].flatMap(([, id, text]) =>
          [...text.matchAll(/([A-Z][a-z ]+?) (?:is|are) (\d+) days\./gu)].flatMap((m) => [
            { passage_id: id, subject: m[1], attribute: 'duration', value: m[2], unit: 'days', scope: null, condition: null, modality: 'is', effective_date: null, span: m[0] },
            { passage_id: id, subject: m[1], attribute: 'duration', value: '99', unit: 'days', scope: null, condition: null, modality: 'is', effective_date: null, span: `${m[1]} is 99 days.` },
          ]),
        );
        return { kind: 'output', output: { statements }, usage, model: 'm' };
      }
      const verdicts = [...prompt.matchAll(/<pair id="([^"]+)">([\s\S]*?)<\/pair>/gu)].map(([, id, body]) => ({
        pair_id: id,
        contradiction: !/draft/iu.test(body),
        title: 'Return window',
        explanation: 'Both give the return window for all customers, and it cannot be two lengths.',
        question: 'Which return window applies?',
      }));
      return { kind: 'output', output: { verdicts }, usage, model: 'm' };
    },
  };
  return model;
}

const document = (id: string, name: string, ...texts: string[]): ScannedDocument => ({ id, name, url: null, contentHash: `h-${id}`, passages: texts.map((text, i) => ({ id: `${id}#${i}`, text, headingPath: [] })) });

function setup(budget = 0) {
  const model = scriptedModel();
  const cache = new MemoryCache();
  const verdicts = new MemoryVerdicts();
  const ledger = new MemoryLedger();
  let now = new Date('2026-11-28T07:00:00Z');
  const clock = { now: () => now } as Clock;
  const nextDay = () => (now = new Date(now.getTime() + 86_400_000));
  const uow = { run: <T>(work: () => Promise<T>) => work() } as UnitOfWork;
  const lm = model as unknown as LanguageModel;
  const discovery = new ModelDiscovery(new DiscoverySettings(new ModelStatementExtractor(lm), new ModelDiscoveryJudge(lm), budget), cache, verdicts, ledger, clock, uow);
  const names = async (ids: string[]) => new Map(ids.map((id) => [id, { name: `${id}.md`, url: null }]));
  /** Reads the documents, then judges what they state, as a scan does. */
  const scan = async (scanId: string, documents: ScannedDocument[]) => {
    const readings = await discovery.read('ki_1', scanId, documents);
    const stored = documents.map((d) => ({ documentId: d.id, contentHash: d.contentHash, statements: readings.get(d.id)!.statements }));
    return { readings, ...(await discovery.findings('ki_1', scanId, stored, null, names)) };
  };
  return { model, ledger, scan, discovery, nextDay };
}

const returns = document('kd_a', 'Returns', 'Our return window is 30 days. Shipping is free.');
const faq = document('kd_b', 'FAQ', 'Questions.', 'The return window is 60 days.');
const draft = document('kd_c', 'Draft', 'Draft. The return window is 45 days.');

describe('ModelDiscovery', () => {
  it('raises a contradiction the model extracts and confirms, titled, explained with both documents and their words, with its question; an ungrounded quote is dropped', async () => {
    const { scan } = setup();
    const { findings, readings } = await scan('fas_1', [returns, faq, draft]);
    // The quote "... is 99 days." is in no passage: no statement of 99 days anywhere.
    expect([...readings.values()].flatMap((r) => r.statements.map((s) => s.value)).sort()).toEqual(['30', '45', '60']);
    expect([...readings.values()].every((r) => r.complete)).toBe(true);
    // The draft is rejected by the model: one finding, between the two others.
    expect(findings).toHaveLength(1);
    const [finding] = findings;
    expect(finding.subject).toBe('Return window');
    expect(finding.documentIds).toEqual(['kd_a', 'kd_b']);
    expect(finding.explanation).toContain('"kd_a.md" says 30 days: "Our return window is 30 days."');
    expect(finding.explanation).toContain('"kd_b.md" says 60 days: "The return window is 60 days."');
    expect(finding.explanation).toContain('cannot be two lengths');
    expect(finding.compagnonQuestions[0]).toBe('Which return window applies?');
    expect(finding.excerpts.map((e) => [e.semanticNodeId, e.value])).toEqual(expect.arrayContaining([['kd_a#0', '30 days'], ['kd_b#1', '60 days']]));
  });

  it('a rescan of unchanged documents calls the model for nothing: statements come from the cache, verdicts are remembered', async () => {
    const { scan, model } = setup();
    const first = await scan('fas_1', [returns, faq, draft]);
    const calls = model.calls.length;
    expect(calls).toBeGreaterThan(0);
    const again = await scan('fas_2', [returns, faq, draft]);
    expect(model.calls.length).toBe(calls);
    expect(again.findings).toEqual(first.findings);
  });

  it('a budget stops the scan cleanly (pairs left unjudged, the scan marked stopped by it); the next scan resumes where it stopped', async () => {
    const { scan, model, ledger } = setup(1);
    // One call: the passages are read in it; none of the three pairs is judged.
    const first = await scan('fas_1', [returns, faq, draft]);
    expect(model.calls.length).toBe(1);
    expect(first.findings).toEqual([]);
    expect(first.pending).toBe(3);
    expect((await ledger.usage('fas_1')).stopped).toBe('budget');
    // The next scan reads nothing twice: one judge call for the pairs left.
    const second = await scan('fas_2', [returns, faq, draft]);
    expect(model.calls.map((c) => c.output.name)).toEqual(['submit_statements', 'submit_verdicts']);
    expect(second.findings.map((f) => f.subject)).toEqual(['Return window']);
    expect(await ledger.usage('fas_2')).toEqual({ calls: 1, inputTokens: 100, outputTokens: 10, stopped: null });
  });

  it('an outage stops the model work of the scan without failing it; the next scan reads what was left', async () => {
    const { scan, model, ledger } = setup();
    model.failing = true;
    const first = await scan('fas_1', [returns, faq]);
    expect(first.findings).toEqual([]);
    expect([...first.readings.values()].map((r) => r.complete)).toEqual([false, false]);
    expect((await ledger.usage('fas_1')).stopped).toBe('outage');
    model.failing = false;
    expect((await scan('fas_2', [returns, faq])).findings).toHaveLength(1);
  });

  it('a reply that stays malformed leaves its passages to the next scan and the other calls go on; the scan is not marked stopped', async () => {
    const { scan, model, ledger, discovery } = setup();
    // One passage a call, so each document is its own call.
    const documents = [returns, faq].map((d) => ({ ...d, passages: d.passages.map((p) => ({ ...p, text: p.text + ' '.repeat(8_000) })) }));
    model.malformed.add('Returns');
    const first = await scan('fas_1', documents);
    expect(Object.fromEntries([...first.readings].map(([id, r]) => [id, r.complete]))).toEqual({ kd_a: false, kd_b: true });
    expect((await ledger.usage('fas_1')).stopped).toBeNull();
    model.malformed.clear();
    const readings = await discovery.read('ki_1', 'fas_2', documents);
    expect(readings.get('kd_a')!.complete).toBe(true);
  });

  it('calls run a few at a time, and the budget holds under concurrency', async () => {
    const { scan, model, ledger } = setup(5);
    // Twelve documents of one long passage each: twelve extraction calls wanted.
    const many = Array.from({ length: 12 }, (_, i) => document(`kd_${i}`, `Doc ${i}`, `The return window is ${i + 1} days.${' '.repeat(8_000)}`));
    await scan('fas_1', many);
    expect(model.calls).toHaveLength(5);
    expect(model.mostInFlight).toBe(MODEL_DISCOVERY_CONCURRENCY);
    expect(await ledger.usage('fas_1')).toMatchObject({ calls: 5, stopped: 'budget' });
  });

  it('outside scans (a changed document rescanned alone), the same budget bounds the calls of each instance per day', async () => {
    const { model, ledger, discovery, nextDay } = setup(1);
    const long = (d: ScannedDocument) => ({ ...d, passages: d.passages.map((p) => ({ ...p, text: p.text + ' '.repeat(8_000) })) });
    const faqOne = document('kd_b', 'FAQ', 'The return window is 60 days.');
    expect(Object.fromEntries([...(await discovery.read('ki_1', null, [long(returns)]))].map(([id, r]) => [id, r.complete]))).toEqual({ kd_a: true });
    // The day's one call is spent: the next changed document is left to the next full scan.
    expect((await discovery.read('ki_1', null, [long(faqOne)])).get('kd_b')!.complete).toBe(false);
    expect(model.calls).toHaveLength(1);
    expect(await ledger.usage('day:ki_1:2026-11-28')).toMatchObject({ calls: 1, inputTokens: 100, outputTokens: 10 });
    nextDay();
    expect((await discovery.read('ki_1', null, [long(faqOne)])).get('kd_b')!.complete).toBe(true);
    expect(model.calls).toHaveLength(2);
  });

  it('offline: nothing runs', async () => {
    const offline = ModelDiscovery.offline();
    expect(offline.enabled).toBe(false);
    expect(offline.version).toBeNull();
    expect(await offline.read('ki_1', 'fas_1', [returns])).toEqual(new Map());
  });
});
