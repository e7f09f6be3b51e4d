/** Letters that Unicode decomposition leaves whole but readers treat as two plain letters or one. */
const LIGATURES: Record<string, string> = { œ: 'oe', æ: 'ae', ß: 'ss', ø: 'o', ł: 'l', đ: 'd', ı: 'i', ŀ: 'l' };

/**
 * Lower-cases, folds accents and compatibility forms (NFKD, then combining marks removed: "Élève" and
 * "eleve" are one word, so are "ﬁn" and "fin"), and splits on everything that is not a letter or a
 * digit. Punctuation, apostrophes ("l'offre" gives "l", "offre") and symbols are separators.
 */
export function foldedWords(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[œæßøłđıŀ]/g, (c) => LIGATURES[c] ?? c);
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}
