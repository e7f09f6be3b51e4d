import { LanguageModel } from '@svc/kernel';
import { checkRewrite, DraftRecommendation, draftRecommendations, estimateEditSeconds } from '@svc/text';
import { RecommendationRequest, RecommendationWriter } from '../conflicts.ports';
import { RECOMMENDATION_OUTPUT, RECOMMENDATION_SYSTEM_PROMPT, RecommendationToolInput, renderRecommendationPrompt } from './recommendation-prompt';

const MAX_RECOMMENDATION_TOKENS = 2_048;

/**
 * The RecommendationWriter on the configured language model: this context's prompt and schema sent
 * through the generic structured call. Only excerpts it was given count (others are dropped); an
 * UPDATE without proposed text is dropped; `estimated_seconds` comes from the stated time model of
 * the text library, not from the model. A rewrite is kept only when `checkRewrite` of the text library
 * accepts it, as the rule-based writer's are (ANALYSIS.md §3): the excerpt states one of the conflict's
 * answers, the rewrite changes what its answering span says and keeps the rest verbatim; otherwise the
 * rule-based draft for that document stands in, its reason saying why the model's was set aside. A
 * declined call drafts nothing (set-answer then returns an empty list, and may be called again);
 * transport errors pass through to the caller, which does the same.
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
    let ruleBased: DraftRecommendation[] | undefined;
    const out: DraftRecommendation[] = [];
    for (const item of result.output.recommendations) {
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
        if (fallback && !refused.ok) out.push({ ...fallback, reason: `${fallback.reason} The model's rewrite was set aside: ${refused.reason}.` });
        continue;
      }
      const proposedText = item.action === 'UPDATE' ? proposed : null;
      out.push({ documentId: accepted.documentId, passageId: accepted.passageId, action: item.action, excerpt: accepted.text, proposedText, reason: item.reason.trim() || 'Proposed by the language model.', estimatedSeconds: estimateEditSeconds(item.action, accepted.text, proposedText) });
    }
    return out;
  }
}
