import { isDomainError } from '@svc/kernel';
import { LocalHashingEmbedder } from './local-hashing.embedder';
import { embedderContract } from './testing/embedder.contract';
import { foldedWords } from '@svc/text';

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

embedderContract('LocalHashingEmbedder (512)', () => new LocalHashingEmbedder());
embedderContract('LocalHashingEmbedder (64)', () => new LocalHashingEmbedder(64));

describe('LocalHashingEmbedder', () => {
  const embedder = new LocalHashingEmbedder();

  it('names its model after the algorithm version and the size', () => {
    expect(embedder.model).toBe('local-hash-v1-d512');
    expect(embedder.dimensions).toBe(512);
    expect(new LocalHashingEmbedder(256).model).toBe('local-hash-v1-d256');
  });

  it('refuses a size it cannot index', () => {
    for (const bad of [0, 4, 12.5, 16_001, Number.NaN]) {
      let error: unknown;
      try {
        new LocalHashingEmbedder(bad);
      } catch (e) {
        error = e;
      }
      expect(isDomainError(error) && error.code).toBe('EMBEDDINGS.INVALID_DIMENSIONS');
    }
  });

  it('is stable across instances and releases: a pinned fingerprint of one vector', () => {
    // Stored vectors are compared with new ones: any change to tokenisation, hashing or weights must
    // come with a new model name. This test fails when the vectors change without it.
    const vector = new LocalHashingEmbedder(64).embedOne('Refunds are processed within 30 days.');
    const fingerprint = vector.slice(0, 6).map((x) => Number(x.toFixed(4)));
    expect(fingerprint).toEqual(FINGERPRINT);
  });

  it('folds case, accents and punctuation: the same words give the same vector', () => {
    const a = embedder.embedOne('Élève, COMMANDE: « délai » de 30 jours !');
    const b = embedder.embedOne('eleve commande delai de 30 jours');
    expect(a).toEqual(b);
    expect(foldedWords("L'œuvre ﬁnale, Straße")).toEqual(['l', 'oeuvre', 'finale', 'strasse']);
  });

  it('ignores function words unless a text has nothing else', () => {
    expect(embedder.embedOne('the refund of the order')).toEqual(embedder.embedOne('refund order'));
    const onlyStopwords = embedder.embedOne('it is what it is');
    expect(Math.sqrt(dot(onlyStopwords, onlyStopwords))).toBeCloseTo(1, 9);
  });

  it('gives a text without letters or digits the zero vector', () => {
    for (const text of ['', '  \n\t', '— ? ! …']) {
      const vector = embedder.embedOne(text);
      expect(vector).toHaveLength(512);
      expect(vector.every((x) => x === 0)).toBe(true);
    }
  });

  it('relates word forms through character n-grams, in English and in French', () => {
    const [refund, refunds, weather] = [embedder.embedOne('refund'), embedder.embedOne('refunded'), embedder.embedOne('weather')];
    expect(dot(refund, refunds)).toBeGreaterThan(0.3);
    expect(Math.abs(dot(refund, weather))).toBeLessThan(0.15);
    const [fr1, fr2, fr3] = embed3(
      'Les remboursements sont traités sous 30 jours',
      'le remboursement est effectué en 30 jours',
      'la cafétéria ouvre à midi',
    );
    expect(dot(fr1, fr2)).toBeGreaterThan(dot(fr1, fr3) + 0.2);
  });

  it('ranks the paraphrase of a policy above other policies', () => {
    const query = embedder.embedOne('how many characters must a password contain');
    const candidates = [
      'Passwords must contain at least 12 characters.',
      'Vacation requests require the approval of a manager.',
      'Expense reports are submitted every month.',
      'The cafeteria opens at noon.',
    ].map((t) => dot(query, embedder.embedOne(t)));
    expect(candidates.indexOf(Math.max(...candidates))).toBe(0);
  });

  it('is not disturbed by long texts and very long tokens', () => {
    const long = `${'policy '.repeat(5000)}${'x'.repeat(10_000)}`;
    const vector = embedder.embedOne(long);
    expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 9);
  });

  function embed3(a: string, b: string, c: string): [number[], number[], number[]] {
    return [embedder.embedOne(a), embedder.embedOne(b), embedder.embedOne(c)];
  }
});

const FINGERPRINT = [0.1051, 0.1051, 0.1051, 0, 0, 0.0748];
