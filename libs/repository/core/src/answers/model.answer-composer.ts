import { Logger } from '@nestjs/common';
import { LanguageModel, LanguageModelUsage, noteModelFallback, StructuredResult, unusableModelReply } from '@svc/kernel';
import { AnswerComposer, AnswerExcerpt, AnswerRequest, GroundedAnswer, noAnswer, requestedLanguage, validateAnswerRequest } from './answer-composer';
import { ANSWER_OUTPUT, ANSWER_SYSTEM_PROMPT, AnswerToolInput, orderedExcerpts, readAnswerToolInput, renderAnswerPrompt } from './answer-prompt';
import { RuleBasedAnswerComposer } from './rule-based.answer-composer';
import { guessLanguage } from './text-analysis';

/** Excerpts sent at most (the best ones), and characters of one excerpt: a bound on the cost of one call. */
export const MAX_PROMPT_EXCERPTS = 40;
export const MAX_EXCERPT_CHARS = 8_000;
/** Output budget: an answer of a few sentences with its reason. */
const MAX_ANSWER_TOKENS = 1_024;
/** Confidence kept when the model cited ids it was not given (they are dropped): a sign of a careless answer. */
const INVENTED_CITATION_FACTOR = 0.8;

/**
 * The AnswerComposer on the configured language model: this context's prompt and output schema
 * (`answer-prompt.ts`) sent through the generic structured call, and the model's output checked for
 * grounding. Cited ids must be among the excerpts (others are dropped, and the confidence lowered);
 * an answer that cites no given excerpt is discarded as ungrounded; confidence is clamped to 0..1;
 * an empty answer has confidence 0. No excerpts: no call.
 *
 * When the model gives nothing usable (ADR 0047): a declined request is "no answer", on purpose: the model's
 * refusal is its judgement of this question, and an extractive answer in its place would pass off what it
 * refused. A reply that stays malformed after the transport's one repeat (`LLM.INVALID_RESPONSE`: a small
 * self-hosted model answering in prose) says nothing about the question, so the rule-based composer answers
 * that call (grounded by construction), logged and counted like every capability's fallback (capability
 * `answer-composer`). Outages pass through (a 503 for the search caller, see `AnswerSearch`).
 */
export class ModelAnswerComposer extends AnswerComposer {
  readonly name: string;
  private readonly logger = new Logger(ModelAnswerComposer.name);

  constructor(
    private readonly model: LanguageModel,
    private readonly fallback: AnswerComposer = new RuleBasedAnswerComposer(),
  ) {
    super();
    this.name = model.name;
  }

  async compose(request: AnswerRequest): Promise<GroundedAnswer> {
    validateAnswerRequest(request);
    const language = requestedLanguage(request.language) ?? guessLanguage(request.question);
    if (request.excerpts.length === 0) {
      return noAnswer(language === 'fr' ? "Aucun extrait n'a été fourni : il n'y a rien sur quoi répondre." : 'No excerpts were given, so there is nothing to answer from.');
    }
    const excerpts = orderedExcerpts(request)
      .slice(0, MAX_PROMPT_EXCERPTS)
      .map((e) => (e.text.length > MAX_EXCERPT_CHARS ? { ...e, text: `${e.text.slice(0, MAX_EXCERPT_CHARS)}…` } : e));
    let result: StructuredResult<AnswerToolInput>;
    try {
      result = await this.model.complete<AnswerToolInput>({
        system: ANSWER_SYSTEM_PROMPT,
        messages: [{ role: 'user', content: renderAnswerPrompt(request.question, excerpts, request.language?.trim() || undefined) }],
        output: ANSWER_OUTPUT,
        maxTokens: MAX_ANSWER_TOKENS,
      });
    } catch (error) {
      const reason = unusableModelReply(error);
      if (!reason) throw error;
      noteModelFallback('answer-composer', this.model, this.logger, reason);
      return this.fallback.compose(request);
    }
    if (result.kind === 'declined') {
      this.logger.warn({ capability: 'answer-composer', model: this.model.name, reason: 'declined' }, 'the model declined to answer this search; no answer (not the rule-based one)');
      return noAnswer('The language model declined to answer this question.', result.usage);
    }
    return groundedAnswer(result.output, excerpts, result.usage);
  }
}

/** The model's structured answer, checked against the excerpts it was given. */
export function groundedAnswer(output: AnswerToolInput, excerpts: AnswerExcerpt[], usage: LanguageModelUsage): GroundedAnswer {
  const input = readAnswerToolInput(output);
  if (!input) return noAnswer('The language model answered in a shape this service does not read.', usage);
  const known = new Set(excerpts.map((e) => e.id));
  const cited = [...new Set(input.cited_excerpt_ids.map((id) => id.trim()))].filter((id) => known.has(id));
  const invented = input.cited_excerpt_ids.some((id) => !known.has(id.trim()));
  const answer = input.answer.trim();
  const reason = input.reason.trim();
  if (answer === '') return noAnswer(reason || 'The excerpts do not answer the question.', usage);
  if (cited.length === 0) {
    return noAnswer('The language model answered without citing any of the given excerpts, so its answer was discarded as ungrounded.', usage);
  }
  const confidence = Math.min(1, Math.max(0, input.confidence)) * (invented ? INVENTED_CITATION_FACTOR : 1);
  return { answer, reason: reason || 'Answered from the cited excerpts.', confidence: Math.round(confidence * 1000) / 1000, citedExcerptIds: cited, usage };
}
