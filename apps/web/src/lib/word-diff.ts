import { diffWordsWithSpace } from 'diff';

export type DiffPart = { kind: 'same' | 'removed' | 'added'; text: string };

/** The words `proposed` removes from and adds to `original`, in reading order (jsdiff's word diff). */
export function wordDiff(original: string, proposed: string): DiffPart[] {
  return diffWordsWithSpace(original, proposed).map((change) => ({ kind: change.added ? 'added' : change.removed ? 'removed' : 'same', text: change.value }));
}
