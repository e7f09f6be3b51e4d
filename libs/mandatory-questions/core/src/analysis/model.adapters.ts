import { LanguageModel } from '@svc/kernel';
import { detectLanguage, ExtractedAnswer, extractValues, foldText, Passage } from '@svc/text';
import { AnswerExtractor, CompanionQuestionWriter } from '../mandatory-questions.ports';
import { COMPANION_OUTPUT, COMPANION_SYSTEM_PROMPT, EXTRACTION_OUTPUT, EXTRACTION_SYSTEM_PROMPT, ExtractionToolInput, renderCompanionPrompt, renderExtractionPrompt } from './analysis-prompts';

/**
 * AnswerExtractor on the configured language model. The model quotes spans; only spans found verbatim
 * in an excerpt it was given are kept (grounding), and each span's canonical key comes from the text
 * library's typed values when it states one, else from the folded value (a named answer). Grouping
 * and the decision stay the pure `decideQuestion`.
 */
export class ModelAnswerExtractor extends AnswerExtractor {
  readonly name: string;
  constructor(private readonly model: LanguageModel) {
    super();
    this.name = model.name;
  }

  async extract(question: string, passages: Passage[]): Promise<ExtractedAnswer[]> {
    if (passages.length === 0) return [];
    const result = await this.model.complete<ExtractionToolInput>({ system: EXTRACTION_SYSTEM_PROMPT, messages: [{ role: 'user', content: renderExtractionPrompt(question, passages) }], output: EXTRACTION_OUTPUT, maxTokens: 4_096 });
    if (result.kind === 'declined') return [];
    const out: ExtractedAnswer[] = [];
    for (const item of result.output.answers) {
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
}

/** CompanionQuestionWriter on the configured language model; at most five, never the question itself. */
export class ModelCompanionQuestionWriter extends CompanionQuestionWriter {
  readonly name: string;
  constructor(private readonly model: LanguageModel) {
    super();
    this.name = model.name;
  }

  async write(question: string, answers: ExtractedAnswer[]): Promise<string[]> {
    const result = await this.model.complete<{ questions: string[] }>({ system: COMPANION_SYSTEM_PROMPT, messages: [{ role: 'user', content: renderCompanionPrompt(question, answers) }], output: COMPANION_OUTPUT, maxTokens: 512 });
    if (result.kind === 'declined') return [];
    const seen = new Set([foldText(question)]);
    return result.output.questions.map((q) => q.trim()).filter((q) => q && !seen.has(foldText(q)) && seen.add(foldText(q))).slice(0, 5);
  }
}
