import { Logger } from '@nestjs/common';
import { callOrFallBack, LanguageModel, ModelFallbackReason, noteModelFallback, StructuredCall } from '@svc/kernel';
import type { FullAuditFinding } from '../full-audit-conflict';
import { CLAIM_JUDGE_OUTPUT, CLAIM_JUDGE_SYSTEM_PROMPT, ClaimJudgeToolInput, renderClaimJudgePrompt } from './claim-judge-prompt';

/**
 * Capability port (ANALYSIS.md §4 step 3): which of the rule-based judge's new candidates are real
 * contradictions. It may only confirm or reject candidates, never add one.
 */
export abstract class ClaimJudge {
  abstract readonly name: string;
  /** The fingerprints of the candidates to raise. */
  abstract confirm(candidates: FullAuditFinding[]): Promise<Set<string>>;
  /** Whether candidates can also be judged in a batch answered later (`submit`, then `collect`), at a lower price. */
  abstract readonly batches: boolean;
  /** Submits the candidates as one batch; returns the batch id. */
  abstract submit(candidates: FullAuditFinding[]): Promise<string>;
  /**
   * Null while the batch runs; once it has ended, the fingerprints of the candidates to raise (the
   * candidates as submitted, in the same order). A candidate the model did not answer keeps the
   * rule-based verdict.
   */
  abstract collect(batchId: string, candidates: FullAuditFinding[]): Promise<Set<string> | null>;
}

/** The offline default: the rule-based judge's candidates are the findings. */
export class RuleBasedClaimJudge extends ClaimJudge {
  readonly name = 'rule-based';
  readonly batches = false;

  async confirm(candidates: FullAuditFinding[]): Promise<Set<string>> {
    return new Set(candidates.map((c) => c.fingerprint));
  }

  submit(): Promise<string> {
    return Promise.reject(new Error('The rule-based judge has no batches.'));
  }

  async collect(_batchId: string, candidates: FullAuditFinding[]): Promise<Set<string>> {
    return this.confirm(candidates);
  }
}

/** The capability's name in the fallback logs and counts. */
const CLAIM_JUDGE = 'claim-judge';

/** Candidates per model call: one prompt holds this many pairs of statements. */
export const CLAIM_JUDGE_BATCH = 20;

/**
 * The ClaimJudge on the configured language model: candidates in batches, each pair of statements
 * with its documents and scopes; the model answers per pair. A pair the model rejects is not raised;
 * a pair it leaves out, a declined call, a malformed reply or a transport failure keeps the rule-based
 * verdict (the fallback), so an outage never hides a contradiction; every call (or batch request) answered
 * so is logged with the reason and counted (`callOrFallBack`, `noteModelFallback`: capability `claim-judge`).
 */
export class ModelClaimJudge extends ClaimJudge {
  readonly name: string;
  private readonly logger = new Logger(ModelClaimJudge.name);

  constructor(private readonly model: LanguageModel) {
    super();
    this.name = model.name;
  }

  get batches(): boolean {
    return Boolean(this.model.batches);
  }

  async confirm(candidates: FullAuditFinding[]): Promise<Set<string>> {
    const kept = new Set(candidates.map((c) => c.fingerprint));
    for (const group of groupsOf(candidates)) {
      // The rule-based verdict (every candidate raised) is `kept` as it is: the fallback changes nothing.
      await callOrFallBack<ClaimJudgeToolInput, void>(CLAIM_JUDGE, this.model, this.logger, callOf(group), (output) => dropRejected(kept, group, output), async () => undefined, { onFailure: 'fall-back' });
    }
    return kept;
  }

  /** One batch of the same prompts as `confirm`'s calls, call `g<k>` for the k-th group of candidates. */
  submit(candidates: FullAuditFinding[]): Promise<string> {
    if (!this.model.batches) return Promise.reject(new Error(`${this.name} has no batches.`));
    return this.model.batches.submit(groupsOf(candidates).map((group, k) => ({ id: `g${k}`, call: callOf(group) })));
  }

  async collect(batchId: string, candidates: FullAuditFinding[]): Promise<Set<string> | null> {
    if (!this.model.batches) return this.confirm(candidates);
    const state = await this.model.batches.poll<ClaimJudgeToolInput>(batchId, CLAIM_JUDGE_OUTPUT);
    if (!state.ended) return null;
    const kept = new Set(candidates.map((c) => c.fingerprint));
    const unanswered = new Map<ModelFallbackReason, { calls: number; candidates: number; problems: Set<string> }>();
    groupsOf(candidates).forEach((group, k) => {
      const result = state.results.get(`g${k}`);
      if (result?.kind === 'output') return dropRejected(kept, group, result.output);
      // A call the batch errored, expired or answered unusably is `failed`: the batch tells no more.
      const reason: ModelFallbackReason = result?.kind === 'declined' ? 'declined' : 'failed';
      const sum = unanswered.get(reason) ?? { calls: 0, candidates: 0, problems: new Set<string>() };
      if (result?.kind !== 'declined') sum.problems.add(result?.problem ?? 'no result for this call');
      unanswered.set(reason, { ...sum, calls: sum.calls + 1, candidates: sum.candidates + group.length });
    });
    for (const [reason, sum] of unanswered) {
      const problem = sum.problems.size > 0 ? { problem: [...sum.problems].join('; ') } : {};
      noteModelFallback(CLAIM_JUDGE, this.model, this.logger, reason, { batch: batchId, calls: sum.calls, candidates: sum.candidates, ...problem }, sum.calls);
    }
    return kept;
  }
}

/** Candidates in groups of CLAIM_JUDGE_BATCH, one prompt each. */
function groupsOf(candidates: FullAuditFinding[]): FullAuditFinding[][] {
  const groups: FullAuditFinding[][] = [];
  for (let i = 0; i < candidates.length; i += CLAIM_JUDGE_BATCH) groups.push(candidates.slice(i, i + CLAIM_JUDGE_BATCH));
  return groups;
}

function callOf(group: FullAuditFinding[]): StructuredCall {
  return { system: CLAIM_JUDGE_SYSTEM_PROMPT, messages: [{ role: 'user', content: renderClaimJudgePrompt(group) }], output: CLAIM_JUDGE_OUTPUT, maxTokens: 2_048 };
}

/** Removes from `kept` the candidates of `group` the model says do not contradict (pairs it leaves out or invents change nothing). */
function dropRejected(kept: Set<string>, group: FullAuditFinding[], output: ClaimJudgeToolInput): void {
  for (const verdict of output.verdicts) {
    const index = Number(verdict.pair_id.replace(/^p/u, ''));
    const candidate = Number.isInteger(index) ? group[index] : undefined;
    if (candidate && verdict.contradiction === false) kept.delete(candidate.fingerprint);
  }
}
