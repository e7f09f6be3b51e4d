/** Letters that Unicode decomposition leaves whole but readers treat as plain letters. */
const LIGATURES: Record<string, string> = { œ: 'oe', æ: 'ae', ß: 'ss', ø: 'o', ł: 'l', đ: 'd', ı: 'i', ŀ: 'l' };

/**
 * Lower-cased, accent-folded text: compatibility forms decomposed (NFKD) and combining marks removed,
 * so "Élève" and "eleve" are one word, so are "ﬁn" and "fin"; ligatures spelled out. Lengths may change.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[œæßøłđıŀ]/g, (c) => LIGATURES[c] ?? c);
}

/**
 * The folded words of a text: runs of letters and digits. Punctuation, apostrophes ("l'offre" gives
 * "l", "offre") and symbols are separators.
 */
export function foldedWords(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A word as written and folded; one written word may fold into several ("œuvre²" → "oeuvre2"). */
export interface Word {
  written: string;
  folded: string;
}

/** The words of a text with their written form, for messages that quote them back. */
export function writtenWords(text: string): Word[] {
  return (text.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).flatMap((written) => foldedWords(written).map((folded) => ({ written, folded })));
}
