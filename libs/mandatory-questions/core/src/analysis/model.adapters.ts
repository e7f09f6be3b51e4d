import { Logger } from '@nestjs/common';
import { callOrFallBack, LanguageModel, StructuredCall } from '@svc/kernel';
import { detectLanguage, ExtractedAnswer, extractValues, foldText, Passage } from '@svc/text';
import { AnswerExtractor, CompanionQuestionWriter } from '../mandatory-questions.ports';
import { RuleBasedAnswerExtractor, RuleBasedCompanionQuestionWriter } from './rule-based.adapters';
import { COMPANION_OUTPUT, COMPANION_SYSTEM_PROMPT, EXTRACTION_OUTPUT, EXTRACTION_SYSTEM_PROMPT, ExtractionToolInput, renderCompanionPrompt, renderExtractionPrompt } from './analysis-prompts';

/**
 * AnswerExtractor on the configured language model. The model quotes spans; only spans found verbatim
 * in an excerpt it was given are kept (grounding), and each span's canonical key comes from the text
 * library's typed values when it states one, else from the folded value (a named answer). Grouping
 * and the decision stay the pure `decideQuestion`. A call the model declines or answers unusably is
 * answered by the rule-based extractor (`callOrFallBack`).
 */
export class ModelAnswerExtractor extends AnswerExtractor {
  readonly name: string;
  private readonly logger = new Logger(ModelAnswerExtractor.name);

  constructor(
    private readonly model: LanguageModel,
    private readonly fallback: AnswerExtractor = new RuleBasedAnswerExtractor(),
  ) {
    super();
    this.name = model.name;
  }

  async extract(question: string, passages: Passage[]): Promise<ExtractedAnswer[]> {
    if (passages.length === 0) return [];
    const call: StructuredCall = { system: EXTRACTION_SYSTEM_PROMPT, messages: [{ role: 'user', content: renderExtractionPrompt(question, passages) }], output: EXTRACTION_OUTPUT, maxTokens: 4_096 };
    return callOrFallBack<ExtractionToolInput, ExtractedAnswer[]>('answer-extractor', this.model, this.logger, call, (output) => groundedAnswers(output, passages), () => this.fallback.extract(question, passages));
  }
}

/** The model's answers whose quote is found verbatim in the excerpt it names, with their typed values. */
function groundedAnswers(output: ExtractionToolInput, passages: Passage[]): ExtractedAnswer[] {
  const out: ExtractedAnswer[] = [];
  for (const item of output.answers) {
    const passage = passages.find((p) => p.id === item.excerpt_id.trim());
    const quote = item.quote.trim();
    const start = passage && quote ? passage.text.indexOf(quote) : -1;
    if (!passage || start < 0) continue;
    const language = detectLanguage(passage.text);
    const typed = extractValues(quote, language).find((v) => v.comparable);
    out.push({
      passageId: passage.id,
      documentId: passage.documentId,
      start,
      end: start + quote.length,
      text: quote,
      kind: typed?.kind ?? 'named',
      key: typed?.key ?? `named:${foldText(item.value)}`,
      display: item.value.trim() || quote,
      scope: item.scope.map((s) => foldText(s)).filter(Boolean),
      confidence: Math.min(1, Math.max(0, item.confidence)),
    });
  }
  return out;
}

/** CompanionQuestionWriter on the configured language model; at most five, never the question itself. A call the model declines or answers unusably is answered by the rule-based writer. */
export class ModelCompanionQuestionWriter extends CompanionQuestionWriter {
  readonly name: string;
  private readonly logger = new Logger(ModelCompanionQuestionWriter.name);

  constructor(
    private readonly model: LanguageModel,
    private readonly fallback: CompanionQuestionWriter = new RuleBasedCompanionQuestionWriter(),
  ) {
    super();
    this.name = model.name;
  }

  async write(question: string, answers: ExtractedAnswer[]): Promise<string[]> {
    const call: StructuredCall = { system: COMPANION_SYSTEM_PROMPT, messages: [{ role: 'user', content: renderCompanionPrompt(question, answers) }], output: COMPANION_OUTPUT, maxTokens: 512 };
    const seen = new Set([foldText(question)]);
    return callOrFallBack<{ questions: string[] }, string[]>(
      'companion-question-writer',
      this.model,
      this.logger,
      call,
      (output) => output.questions.map((q) => q.trim()).filter((q) => q && !seen.has(foldText(q)) && seen.add(foldText(q))).slice(0, 5),
      () => this.fallback.write(question, answers),
    );
  }
}
