import { Logger } from '@nestjs/common';
import { LanguageModel, LanguageModelUsage, noteModelFallback, StructuredCall } from '@svc/kernel';
import { detectLanguage, extractValues, foldText } from '@svc/text';
import {
  renderStatementExtractorPrompt,
  STATEMENT_EXTRACTOR_OUTPUT,
  STATEMENT_EXTRACTOR_SYSTEM_PROMPT,
  STATEMENT_PROMPT_VERSION,
  StatementExtractorToolInput,
  StatementModality,
} from './statement-extractor-prompt';

/**
 * A statement the model read in a passage (ANALYSIS.md §4 step 1, issue 24 item 3), normalised and grounded:
 * its `span` is words of the passage, at `start`-`end`. Plain JSON (cached, stored with the document's claims).
 */
export interface ModelStatement {
  passageId: string;
  /** A short canonical noun phrase, folded ("return window"). */
  subject: string;
  /** Which property of the subject, folded ("duration"). */
  attribute: string;
  /** As the model normalised it, and its unit (or null). */
  value: string;
  unit: string | null;
  /** The value's canonical key: the typed value's (`duration:P14D`) when @svc/text reads one, else its folded words. */
  valueKey: string;
  scope: string | null;
  condition: string | null;
  modality: StatementModality;
  effectiveDate: string | null;
  /** The passage's words that state it, as written, and their offsets in the passage (end exclusive). */
  span: string;
  start: number;
  end: number;
  /** The span with the words around it in its passage (what the judge reads). */
  context?: string;
  /** The SimHash of its passage's vector, when the scan reads vectors (vector-neighbour candidates); never cached. */
  signature?: string;
}

/** The words around a span in its passage (at most about 300 characters each side). */
export function contextOf(passage: string, s: Pick<ModelStatement, 'start' | 'end'>): string {
  const from = Math.max(0, s.start - 300);
  const to = Math.min(passage.length, s.end + 300);
  return `${from > 0 ? '…' : ''}${passage.slice(from, to)}${to < passage.length ? '…' : ''}`;
}

/** A passage to read: its id (a semantic node), its text and what the prompt tells about it. */
export interface ExtractionPassage {
  id: string;
  documentName: string;
  headingPath: string[];
  text: string;
}

/** What one call read: each passage's grounded statements, how many statements were dropped as ungrounded, the tokens. */
export interface ExtractionResult {
  statements: Map<string, ModelStatement[]>;
  dropped: number;
  usage: LanguageModelUsage;
}

/**
 * Capability port: the checkable statements of passages, written by the model (issue 24 item 3). Its
 * rule-based counterpart is `ClaimReader` (the offline reading, unchanged). `version` names the model and the
 * prompt: statements are cached under it, so a new model or prompt reads every passage again.
 *
 * `read` answers one call's passages. A passage the model wrote nothing for has no statement; a declined
 * call answers every passage with none. A reply that stays malformed (`LLM.INVALID_RESPONSE`) and an outage are
 * thrown: the caller leaves those passages unread, to be read by the next scan.
 */
export abstract class StatementExtractor {
  abstract readonly name: string;
  abstract readonly version: string;
  abstract read(passages: readonly ExtractionPassage[]): Promise<ExtractionResult>;
}

/** How many passages, and characters of them, one extraction call holds at most. */
export const STATEMENT_EXTRACTION = { passagesPerCall: 8, charactersPerCall: 8_000, maxTokens: 4_096 };

/** The passages in calls: in order, at most `passagesPerCall` and `charactersPerCall` a call (a longer passage alone). */
export function extractionGroups<P extends { text: string }>(passages: readonly P[]): P[][] {
  const groups: P[][] = [];
  let group: P[] = [];
  let size = 0;
  for (const p of passages) {
    if (group.length > 0 && (group.length >= STATEMENT_EXTRACTION.passagesPerCall || size + p.text.length > STATEMENT_EXTRACTION.charactersPerCall)) {
      groups.push(group);
      group = [];
      size = 0;
    }
    group.push(p);
    size += p.text.length;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', amp: '&' };

/**
 * Where a quoted span is in a passage: verbatim, or with its runs of white space written otherwise (a line break
 * for a space), and with the prompt's escapes undone. Null when the passage does not hold it: a statement the
 * model did not read there (an invented or reworded quote) is dropped.
 */
export function locateSpan(passage: string, span: string): { start: number; end: number } | null {
  const quoted = span.replace(/&(lt|gt|quot|amp);/gu, (_, e: string) => ENTITIES[e]).trim();
  if (quoted.length < 2) return null;
  const at = passage.indexOf(quoted);
  if (at >= 0) return { start: at, end: at + quoted.length };
  const pattern = quoted
    .split(/\s+/u)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'))
    .join('\\s+');
  const match = new RegExp(pattern, 'u').exec(passage);
  return match ? { start: match.index, end: match.index + match[0].length } : null;
}

/** A value's canonical key: the typed value @svc/text reads in it ("2 p.m." and "14:00" are one time), else its folded words. */
export function statementValueKey(value: string, unit: string | null, context: string): string {
  const written = `${value}${unit ? ` ${unit}` : ''}`.trim();
  const typed = extractValues(written, detectLanguage(context)).filter((v) => v.comparable);
  if (typed.length === 1) return typed[0].key;
  return foldText(written).replace(/[^\p{L}\p{N}:.]+/gu, ' ').trim();
}

/** The model's statements for these passages, grounded and normalised; how many were dropped (pure). */
export function groundedStatements(passages: readonly ExtractionPassage[], output: StatementExtractorToolInput): { statements: Map<string, ModelStatement[]>; dropped: number } {
  const byId = new Map(passages.map((p) => [p.id, p]));
  const statements = new Map<string, ModelStatement[]>(passages.map((p) => [p.id, []]));
  let dropped = 0;
  for (const s of output.statements) {
    const passage = byId.get(s.passage_id);
    const at = passage ? locateSpan(passage.text, s.span) : null;
    const subject = foldText(s.subject).replace(/\s+/gu, ' ').trim();
    const attribute = foldText(s.attribute).replace(/\s+/gu, ' ').trim();
    if (!passage || !at || !subject || !attribute || !s.value.trim()) {
      dropped++;
      continue;
    }
    statements.get(passage.id)!.push({
      passageId: passage.id,
      subject,
      attribute,
      value: s.value.trim(),
      unit: s.unit?.trim() || null,
      valueKey: statementValueKey(s.value, s.unit?.trim() || null, passage.text),
      scope: s.scope?.trim() ? foldText(s.scope).trim() : null,
      condition: s.condition?.trim() || null,
      modality: s.modality,
      effectiveDate: s.effective_date?.trim() || null,
      span: passage.text.slice(at.start, at.end),
      start: at.start,
      end: at.end,
      context: contextOf(passage.text, at),
    });
  }
  return { statements, dropped };
}

/** The capability's name in the fallback logs and counts. */
const STATEMENT_EXTRACTOR = 'statement-extractor';

/** The StatementExtractor on the configured language model. */
export class ModelStatementExtractor extends StatementExtractor {
  readonly name: string;
  readonly version: string;
  private readonly logger = new Logger(ModelStatementExtractor.name);

  constructor(private readonly model: LanguageModel) {
    super();
    this.name = model.name;
    this.version = `${model.name}|statements-v${STATEMENT_PROMPT_VERSION}`;
  }

  async read(passages: readonly ExtractionPassage[]): Promise<ExtractionResult> {
    const call: StructuredCall = {
      system: STATEMENT_EXTRACTOR_SYSTEM_PROMPT,
      messages: [{ role: 'user', content: renderStatementExtractorPrompt(passages) }],
      output: STATEMENT_EXTRACTOR_OUTPUT,
      maxTokens: STATEMENT_EXTRACTION.maxTokens,
    };
    const result = await this.model.complete<StatementExtractorToolInput>(call);
    if (result.kind === 'declined') {
      noteModelFallback(STATEMENT_EXTRACTOR, this.model, this.logger, 'declined', { passages: passages.length });
      return { statements: new Map(passages.map((p) => [p.id, []])), dropped: 0, usage: result.usage };
    }
    const grounded = groundedStatements(passages, result.output);
    if (grounded.dropped > 0) this.logger.log({ model: this.model.name, passages: passages.length, dropped: grounded.dropped }, 'statements whose quote is not in their passage were dropped');
    return { ...grounded, usage: result.usage };
  }
}
