import { Logger } from '@nestjs/common';
import { LanguageModel, loggableError } from '@svc/kernel';
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
}

/** The offline default: the rule-based judge's candidates are the findings. */
export class RuleBasedClaimJudge extends ClaimJudge {
  readonly name = 'rule-based';

  async confirm(candidates: FullAuditFinding[]): Promise<Set<string>> {
    return new Set(candidates.map((c) => c.fingerprint));
  }
}

/** Candidates per model call: one prompt holds this many pairs of statements. */
export const CLAIM_JUDGE_BATCH = 20;

/**
 * The ClaimJudge on the configured language model: candidates in batches, each pair of statements
 * with its documents and scopes; the model answers per pair. A pair the model rejects is not raised;
 * a pair it leaves out, a declined call or a transport failure keeps the rule-based verdict (the
 * fallback), so an outage never hides a contradiction.
 */
export class ModelClaimJudge extends ClaimJudge {
  readonly name: string;
  private readonly logger = new Logger(ModelClaimJudge.name);

  constructor(private readonly model: LanguageModel) {
    super();
    this.name = model.name;
  }

  async confirm(candidates: FullAuditFinding[]): Promise<Set<string>> {
    const kept = new Set(candidates.map((c) => c.fingerprint));
    for (let i = 0; i < candidates.length; i += CLAIM_JUDGE_BATCH) {
      const batch = candidates.slice(i, i + CLAIM_JUDGE_BATCH);
      try {
        const result = await this.model.complete<ClaimJudgeToolInput>({ system: CLAIM_JUDGE_SYSTEM_PROMPT, messages: [{ role: 'user', content: renderClaimJudgePrompt(batch) }], output: CLAIM_JUDGE_OUTPUT, maxTokens: 2_048 });
        if (result.kind === 'declined') continue;
        for (const verdict of result.output.verdicts) {
          const index = Number(verdict.pair_id.replace(/^p/u, ''));
          const candidate = Number.isInteger(index) ? batch[index] : undefined;
          if (candidate && verdict.contradiction === false) kept.delete(candidate.fingerprint);
        }
      } catch (error) {
        this.logger.warn({ judge: this.name, candidates: batch.length, error: loggableError(error) }, 'the model could not judge these candidates; the rule-based verdict stands');
      }
    }
    return kept;
  }
}
