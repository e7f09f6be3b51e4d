import { foldText } from './fold';

/**
 * Words that negate what a sentence states, in English and French, matched on folded text: "not",
 * "never", "cannot", "n't", "ne ... pas", "n'est", "aucun", "interdit", "non-refundable". "Without" is
 * not one: "returns are accepted without a receipt" says yes to "can I return without a receipt?".
 */
const NEGATION =
  /(?<![\p{L}])(?:not|no|never|cannot|none|neither|nor|nobody|nothing|prohibited|forbidden|ne|pas|jamais|aucun|aucune|rien|interdit|interdite|interdits|interdites|non)(?![\p{L}])|n['’]t(?![\p{L}])|(?<![\p{L}])n['’](?=\p{L})/u;

/** True when a text holds a negation ("not", "never", "can't", "ne ... pas", "interdit"). */
export function hasNegation(text: string): boolean {
  return NEGATION.test(foldText(text));
}
