import { contentStems, foldedWords, guessLanguage, splitSentences, stem, writtenWords } from './text-analysis';

describe('text analysis', () => {
  it('folds case, accents and ligatures, and splits on everything but letters and digits', () => {
    expect(foldedWords("L'Élève ŒUVRE, « délai » de 30 jours — ﬁn !")).toEqual(['l', 'eleve', 'oeuvre', 'delai', 'de', '30', 'jours', 'fin']);
  });

  it('keeps each word as written next to its folded form', () => {
    expect(writtenWords('Où va l’Œuvre ?')).toEqual([
      { written: 'Où', folded: 'ou' },
      { written: 'va', folded: 'va' },
      { written: 'l', folded: 'l' },
      { written: 'Œuvre', folded: 'oeuvre' },
    ]);
  });

  it('gives related English forms one stem, and related French forms one stem (Snowball, in the text\'s language)', () => {
    const english = [
      ['refund', 'refunds', 'refunded', 'refunding'],
      ['process', 'processed', 'processing', 'processes'],
      ['policy', 'policies'],
      ['employee', 'employees'],
      ['approve', 'approved', 'approval'],
      ['travel', 'travelling', 'travels'],
      ['order', 'orders'],
    ];
    const french = [
      ['remboursement', 'remboursements', 'rembourse', 'rembourser', 'rembourses'],
      ['semaine', 'semaines'],
      ['jour', 'jours'],
    ];
    for (const group of english) expect(new Set(group.map((w) => stem(w, 'en'))).size).toBe(1);
    for (const group of french) expect(new Set(group.map((w) => stem(w, 'fr'))).size).toBe(1);
    expect(['days', 'status', '2024', 'bus'].map((w) => stem(w, 'en'))).toEqual(['day', 'status', '2024', 'bus']);
  });

  it('keeps content words only: function and question words out', () => {
    expect(contentStems('How long does a refund take for the orders?', 'en')).toEqual(['long', 'refund', 'take', 'order']);
    expect(contentStems('Combien de temps faut-il pour être remboursé ?', 'fr')).toEqual(['temp', 'faut', 'rembours']);
  });

  it('splits sentences at their ends, not at abbreviations, initials, decimals or lower-case continuations', () => {
    const sentences = splitSentences(
      '# Refunds\n\nRefunds take 30 days, e.g. for cards. Mr. Smith approves them! See No. 5 below. The rate is 3.5 percent. J. Doe signs.\nIs it free? Yes.\n\n- item one\n- Item two.\nLast line without period',
    );
    expect(sentences).toEqual([
      { text: 'Refunds', kind: 'heading', block: 0 },
      { text: 'Refunds take 30 days, e.g. for cards.', kind: 'statement', block: 1 },
      { text: 'Mr. Smith approves them!', kind: 'statement', block: 1 },
      { text: 'See No. 5 below.', kind: 'statement', block: 1 },
      { text: 'The rate is 3.5 percent.', kind: 'statement', block: 1 },
      { text: 'J. Doe signs.', kind: 'statement', block: 1 },
      { text: 'Is it free?', kind: 'question', block: 1 },
      { text: 'Yes.', kind: 'statement', block: 1 },
      { text: 'item one', kind: 'statement', block: 2 },
      { text: 'Item two.', kind: 'statement', block: 2 },
      { text: 'Last line without period', kind: 'statement', block: 2 },
    ]);
  });

  it('treats short unpunctuated lines followed by text as headings, as chunks keep them', () => {
    expect(splitSentences('Travel expenses\n\nHotels\n\nThe company reimburses hotel nights.').map((s) => s.kind)).toEqual(['heading', 'heading', 'statement']);
    expect(splitSentences('   \n\n  ')).toEqual([]);
  });

  it('tells French from English questions', () => {
    expect(guessLanguage('Combien de temps faut-il pour être remboursé ?')).toBe('fr');
    expect(guessLanguage('Les cartes cadeaux sont-elles remboursables ?')).toBe('fr');
    expect(guessLanguage('How long does a refund take?')).toBe('en');
    expect(guessLanguage('refund')).toBe('en');
  });
});
