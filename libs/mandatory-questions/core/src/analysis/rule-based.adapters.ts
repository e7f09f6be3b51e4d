import { companionQuestions, extractAnswers, ExtractedAnswer, Passage } from '@svc/text';
import { AnswerExtractor, CompanionQuestionWriter } from '../mandatory-questions.ports';

/** The offline default: `extractAnswers` of the shared text library (spans with typed values and scopes). */
export class RuleBasedAnswerExtractor extends AnswerExtractor {
  readonly name = 'rule-based';
  async extract(question: string, passages: Passage[]): Promise<ExtractedAnswer[]> {
    return extractAnswers(question, passages);
  }
}

/** The offline default: `companionQuestions` of the shared text library (one per scope the answers name). */
export class RuleBasedCompanionQuestionWriter extends CompanionQuestionWriter {
  readonly name = 'rule-based';
  async write(question: string, answers: ExtractedAnswer[]): Promise<string[]> {
    return companionQuestions(question, answers);
  }
}
