import { LanguageModel } from '@svc/kernel';
import { DraftRecommendation, estimateEditSeconds } from '@svc/text';
import { RecommendationRequest, RecommendationWriter } from '../conflicts.ports';
import { RECOMMENDATION_OUTPUT, RECOMMENDATION_SYSTEM_PROMPT, RecommendationToolInput, renderRecommendationPrompt } from './recommendation-prompt';

const MAX_RECOMMENDATION_TOKENS = 2_048;

/**
 * The RecommendationWriter on the configured language model: this context's prompt and schema sent
 * through the generic structured call. Only excerpts it was given count (others are dropped); an
 * UPDATE without proposed text is dropped; `estimated_seconds` comes from the stated time model of
 * the text library, not from the model. A declined call drafts nothing (set-answer then returns an
 * empty list, and may be called again); transport errors pass through to the caller, which does the same.
 */
export class ModelRecommendationWriter extends RecommendationWriter {
  readonly name: string;

  constructor(private readonly model: LanguageModel) {
    super();
    this.name = model.name;
  }

  async write(request: RecommendationRequest): Promise<DraftRecommendation[]> {
    if (request.answers.length === 0) return [];
    const result = await this.model.complete<RecommendationToolInput>({
      system: RECOMMENDATION_SYSTEM_PROMPT,
      messages: [{ role: 'user', content: renderRecommendationPrompt(request.question, request.expertAnswer, request.answers, request.passages) }],
      output: RECOMMENDATION_OUTPUT,
      maxTokens: MAX_RECOMMENDATION_TOKENS,
    });
    if (result.kind === 'declined') return [];
    const out: DraftRecommendation[] = [];
    for (const item of result.output.recommendations) {
      const answer = request.answers.find((a) => a.passageId === item.excerpt_id.trim());
      if (!answer) continue;
      const proposed = item.action === 'UPDATE' ? item.proposed_text.trim() : '';
      if (item.action === 'UPDATE' && proposed === '') continue;
      const proposedText = item.action === 'UPDATE' ? proposed : null;
      out.push({ documentId: answer.documentId, passageId: answer.passageId, action: item.action, excerpt: answer.text, proposedText, reason: item.reason.trim() || 'Proposed by the language model.', estimatedSeconds: estimateEditSeconds(item.action, answer.text, proposedText) });
    }
    return out;
  }
}
