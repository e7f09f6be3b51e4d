/** An `OPEN` conflict as the closing rule reads it. */
export interface OpenConflictFacts {
  fingerprint: string;
  documentIds: string[];
  createdAt: Date;
}

/**
 * Which `OPEN` conflicts a new analysis of their question may close as no longer found (ANALYSIS.md
 * §2.7). Not finding a contradiction again proves the documents were fixed only when the analysis read
 * them: a conflict citing a document this analysis did not read, and that has not changed since the
 * conflict was raised, stays open (retrieval may have ranked it out, among many documents); one whose
 * documents were all read, or changed, or deleted since, closes.
 *
 * `readDocumentIds`: documents whose passages the analysis read; `indexedAt`: when each live document
 * cited by the conflicts was last indexed (deleted documents are absent).
 */
export function conflictsToClose(open: readonly OpenConflictFacts[], foundFingerprints: ReadonlySet<string>, readDocumentIds: ReadonlySet<string>, indexedAt: ReadonlyMap<string, Date>): string[] {
  return open
    .filter((c) => !foundFingerprints.has(c.fingerprint))
    .filter((c) =>
      c.documentIds.every((id) => {
        if (readDocumentIds.has(id)) return true;
        const indexed = indexedAt.get(id);
        return indexed === undefined || indexed.getTime() > c.createdAt.getTime();
      }),
    )
    .map((c) => c.fingerprint);
}
