import { detectLanguage, languageOfTag } from './language';
import { foldedWords, foldText, writtenWords } from './fold';
import { splitSentences } from './sentences';
import { contentStems, stem } from './stem';
import { STOPWORDS } from './stopwords';
import { hasNegation } from './negation';

describe('folding and words', () => {
  it('lower-cases, drops accents, decomposes compatibility forms and spells ligatures out', () => {
    expect(foldText('Élève ﬁn Œuvre Straße')).toBe('eleve fin oeuvre strasse');
    expect(foldedWords("L'offre d'été: 30 € !")).toEqual(['l', 'offre', 'd', 'ete', '30']);
    expect(writtenWords('Délai œuvre')).toEqual([
      { written: 'Délai', folded: 'delai' },
      { written: 'œuvre', folded: 'oeuvre' },
    ]);
  });

  it('stop words are folded English and French function words, negations included', () => {
    for (const word of ['the', 'of', 'not', 'le', 'des', 'pas', 'etre', 'tres']) expect(STOPWORDS.has(word)).toBe(true);
    for (const word of ['refund', 'remboursement', 'delai']) expect(STOPWORDS.has(word)).toBe(false);
  });
});

describe('Snowball stemming', () => {
  it('gives related English forms one stem, and related French forms one stem', () => {
    expect(new Set(['refunds', 'refunded', 'refunding', 'refund'].map((w) => stem(w, 'en')))).toEqual(new Set(['refund']));
    expect(new Set(['remboursements', 'rembourse', 'rembourser', 'remboursement'].map((w) => stem(w, 'fr')))).toEqual(new Set(['rembours']));
    expect(stem('2026', 'en')).toBe('2026');
  });

  it('content stems leave function words out', () => {
    expect(contentStems('The refunds are processed within 30 days', 'en')).toEqual(['refund', 'process', '30', 'day']);
  });
});

describe('language detection', () => {
  it.each([
    ['Refunds are processed within thirty days of the request by the finance team.', 'en'],
    ['Les remboursements sont effectués sous trente jours après la demande du client.', 'fr'],
    ['How long does a refund take?', 'en'],
    ['Combien de temps prend un remboursement ?', 'fr'],
    ["Quel est le délai ?", 'fr'],
    // English full of words French shares: its function words decide, not its letter n-grams.
    ['# Price list 2025\n\nRouter prices for resellers.\n\n## Validity\n\nThe 2025 price list is valid until 31 March 2026. Prices exclude VAT.\n\n## Routers\n\nThe Falcon router costs 129 EUR.', 'en'],
    ['# Tarifs\n\nLes prix des routeurs pour les revendeurs sont valables pour la durée du contrat.', 'fr'],
  ] as const)('%s → %s', (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it('reads BCP 47 tags', () => {
    expect([languageOfTag('fr-CA'), languageOfTag('en-GB'), languageOfTag('de'), languageOfTag(' ')]).toEqual(['fr', 'en', 'en', undefined]);
  });
});

describe('sentences', () => {
  it('splits on sentence ends but not after abbreviations or initials, and tells headings and questions', () => {
    const sentences = splitSentences('# Refunds\n\nRefunds take 30 days. See Mr. Smith or J. Doe for exceptions. Are gift cards refundable? No.');
    expect(sentences.map((s) => [s.kind, s.text])).toEqual([
      ['heading', 'Refunds'],
      ['statement', 'Refunds take 30 days.'],
      ['statement', 'See Mr. Smith or J. Doe for exceptions.'],
      ['question', 'Are gift cards refundable?'],
      ['statement', 'No.'],
    ]);
  });
});

describe('hasNegation', () => {
  it.each([
    ['Gift cards are not refundable.', true],
    ["Gift cards can't be refunded.", true],
    ['Gift cards can’t be refunded.', true],
    ['Sale items are non-refundable.', true],
    ['Nobody may enter the warehouse.', true],
    ['Les cartes cadeaux ne sont pas remboursables.', true],
    ["Ce n'est pas possible.", true],
    ['Il est INTERDIT de fumer.', true],
    ['Les animaux sont interdits.', true],
    ['Aucun remboursement après 30 jours.', true],
    ['Refunds are processed within 30 days.', false],
    ['Returns are accepted without a receipt.', false],
    ['Know the notice period.', false],
    ['Le nombre de jours est fixé.', false],
  ])('%s → %s', (text, expected) => {
    expect(hasNegation(text)).toBe(expected);
  });
});
