/**
 * Characters a name or a search query may not hold (ADR 0044): the C0 and C1 control characters and
 * DEL (ESC opens ANSI terminal sequences, CR/LF forge log lines), and the bidirectional embeddings,
 * overrides and isolates U+202A-U+202E and U+2066-U+2069 (they reorder what a reader sees: a name
 * can display as another one, "Trojan Source"). The bidi marks LRM, RLM and ALM stay allowed: they
 * only mark a direction and right-to-left names need them. Names are one line, so the line and
 * paragraph separators U+2028 and U+2029 are refused in them too; a query may hold tabs and line
 * breaks (a question pasted from a document).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_IN_QUERIES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export interface PlainTextOptions {
  /** Tabs and line breaks (\t, \n, \r) allowed: search queries and other multi-line text. */
  lineBreaks?: boolean;
}

/**
 * The first character of `text` a name (or, with `lineBreaks`, a query) may not hold, described for
 * an error message ("U+001B, a control character"); `undefined` when the text is plain. One regular
 * expression test over a character class: linear in the length of the text.
 */
export function plainTextProblem(text: string, options: PlainTextOptions = {}): string | undefined {
  const match = (options.lineBreaks ? FORBIDDEN_IN_QUERIES : FORBIDDEN_IN_NAMES).exec(text);
  if (!match) return undefined;
  const code = match[0].charCodeAt(0);
  const shown = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code >= 0x202a) return `${shown}, a bidirectional override`;
  if (code === 0x2028 || code === 0x2029) return `${shown}, a line separator`;
  return `${shown}, a control character`;
}
