import { Logger } from '@nestjs/common';
import { callOrFallBack, LanguageModel, noteModelFallback } from '@svc/kernel';
import { checkRewrite, DraftRecommendation, draftRecommendations, estimateEditSeconds } from '@svc/text';
import { RecommendationRequest, RecommendationWriter } from '../conflicts.ports';
import { RuleBasedRecommendationWriter } from './rule-based.recommendation-writer';
import { RECOMMENDATION_OUTPUT, RECOMMENDATION_SYSTEM_PROMPT, RecommendationToolInput, renderRecommendationPrompt } from './recommendation-prompt';

const MAX_RECOMMENDATION_TOKENS = 2_048;

/**
 * The RecommendationWriter on the configured language model: this context's prompt and schema sent
 * through the generic structured call. Only excerpts it was given count (others are dropped); an
 * UPDATE without proposed text is dropped; `estimated_seconds` comes from the stated time model of
 * the text library, not from the model. A rewrite is kept only when `checkRewrite` of the text library
 * accepts it, as the rule-based writer's are (ANALYSIS.md §3): the excerpt states one of the conflict's
 * answers, the rewrite changes what its answering span says and keeps the rest verbatim; otherwise the
 * rule-based draft for that document stands in, its reason saying why the model's was set aside (logged and
 * counted as an `unusable-output` fallback). A call the model declines or answers unusably
 * (`LLM.INVALID_RESPONSE`) is answered by the rule-based writer (`callOrFallBack`); an outage passes through
 * to the caller (set-answer then returns an empty list, and may be called again).
 */
export class ModelRecommendationWriter extends RecommendationWriter {
  readonly name: string;
  private readonly logger = new Logger(ModelRecommendationWriter.name);

  constructor(
    private readonly model: LanguageModel,
    private readonly fallback: RecommendationWriter = new RuleBasedRecommendationWriter(),
  ) {
    super();
    this.name = model.name;
  }

  async write(request: RecommendationRequest): Promise<DraftRecommendation[]> {
    if (request.answers.length === 0) return [];
    const call = {
      system: RECOMMENDATION_SYSTEM_PROMPT,
      messages: [{ role: 'user' as const, content: renderRecommendationPrompt(request.question, request.expertAnswer, request.answers, request.passages) }],
      output: RECOMMENDATION_OUTPUT,
      maxTokens: MAX_RECOMMENDATION_TOKENS,
    };
    return callOrFallBack<RecommendationToolInput, DraftRecommendation[]>('recommendation-writer', this.model, this.logger, call, (output) => this.checked(request, output), () => this.fallback.write(request));
  }

  /** The model's drafts, each checked; a rewrite set aside gives way to the rule-based draft of its document. */
  private checked(request: RecommendationRequest, output: RecommendationToolInput): DraftRecommendation[] {
    let ruleBased: DraftRecommendation[] | undefined;
    const setAside: string[] = [];
    const out: DraftRecommendation[] = [];
    for (const item of output.recommendations) {
      const answers = request.answers.filter((a) => a.passageId === item.excerpt_id.trim());
      if (answers.length === 0) continue;
      const proposed = item.action === 'UPDATE' ? item.proposed_text.trim() : '';
      if (item.action === 'UPDATE' && proposed === '') continue;
      // One passage may hold several answers (one per scope): the rewrite is checked against each.
      const passage = request.passages.find((p) => p.id === answers[0].passageId);
      const checks = item.action === 'UPDATE' ? answers.map((a) => ({ a, check: checkRewrite(a, proposed, request.expertAnswer, passage) })) : [];
      const accepted = item.action === 'UPDATE' ? checks.find((c) => c.check.ok)?.a : answers[0];
      if (!accepted) {
        ruleBased ??= draftRecommendations(request.expertAnswer, request.answers, request.passages);
        const fallback = ruleBased.find((d) => d.documentId === answers[0].documentId);
        const refused = checks[0].check;
        if (!refused.ok) setAside.push(refused.reason);
        if (fallback && !refused.ok) out.push({ ...fallback, reason: `${fallback.reason} The model's rewrite was set aside: ${refused.reason}.` });
        continue;
      }
      const proposedText = item.action === 'UPDATE' ? proposed : null;
      out.push({ documentId: accepted.documentId, passageId: accepted.passageId, action: item.action, excerpt: accepted.text, proposedText, reason: item.reason.trim() || 'Proposed by the language model.', estimatedSeconds: estimateEditSeconds(item.action, accepted.text, proposedText) });
    }
    if (setAside.length > 0) noteModelFallback('recommendation-writer', this.model, this.logger, 'unusable-output', { problem: `${setAside.length} rewrite(s) set aside: ${setAside.join('; ')}`, documents: setAside.length });
    return out;
  }
}
