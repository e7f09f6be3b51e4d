import { draftRecommendations, DraftRecommendation } from '@svc/text';
import { RecommendationRequest, RecommendationWriter } from '../conflicts.ports';

/** The offline default: `draftRecommendations` of the shared text library (value substituted in the span, the rest verbatim). */
export class RuleBasedRecommendationWriter extends RecommendationWriter {
  readonly name = 'rule-based';

  async write(request: RecommendationRequest): Promise<DraftRecommendation[]> {
    return draftRecommendations(request.expertAnswer, request.answers, request.passages);
  }
}
