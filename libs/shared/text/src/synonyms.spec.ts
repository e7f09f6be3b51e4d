import { stem } from './stem';
import { hasSynonym, synonymStems } from './synonyms';

const en = (w: string) => stem(w, 'en');

describe('synonymStems', () => {
  it('relates words a policy uses for one another, in English and French', () => {
    expect(synonymStems(en('late'))).toContain(en('overdue'));
    expect(hasSynonym(new Set([en('overdue'), en('invoice')]), en('late'))).toBe(true);
    expect(hasSynonym(new Set([stem('preavis', 'fr')]), en('notice'))).toBe(true);
  });

  it('relates a general word to each specific one, not the specific ones to each other', () => {
    expect(hasSynonym(new Set([en('alcohol')]), en('wine'))).toBe(true);
    expect(hasSynonym(new Set([en('wine')]), en('alcohol'))).toBe(true);
    expect(hasSynonym(new Set([en('beer')]), en('wine'))).toBe(false);
    expect(hasSynonym(new Set([en('dinner')]), en('lunch'))).toBe(false);
  });

  it('has nothing for a word outside the lexicon, and never the word itself', () => {
    expect(synonymStems(en('spaniel')).size).toBe(0);
    expect(synonymStems(en('late'))).not.toContain(en('late'));
  });
});
