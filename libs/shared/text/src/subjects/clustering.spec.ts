import { clusterQuestions, SubjectQuestion } from './clustering';
import { SUBJECTS } from './constants';
import { subjectProfile } from './subject-profile';
import { questionTerms } from './terms';
import { dotProduct, termStatistics, termVector, TermVector } from './vectors';

const QUESTIONS: SubjectQuestion[] = [
  { id: 'a1', text: 'How long is parental leave?' },
  { id: 'a2', text: 'Is parental leave paid?' },
  { id: 'a3', text: 'Parental leave for adoptive parents?' },
  { id: 'b1', text: 'What is the data retention schedule?' },
  { id: 'b2', text: 'Data retention schedule for invoices' },
  { id: 'b3', text: 'retention of customer data' },
  { id: 'c1', text: 'Can I bring my dog to the office?' },
  { id: 'c2', text: 'What is it?' },
];
const options = { threshold: SUBJECTS.threshold };

/** Seeded shuffle. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Average linkage the textbook way: all pairwise similarities, merge the closest pair while within the threshold. */
function naiveAverageLinkage(vectors: TermVector[], threshold: number): number[][] {
  let groups = vectors.map((_, i) => [i]);
  const sim = vectors.map((a) => vectors.map((b) => dotProduct(a, b)));
  for (;;) {
    let best = { x: -1, y: -1, s: -Infinity };
    for (let x = 0; x < groups.length; x++) {
      for (let y = x + 1; y < groups.length; y++) {
        let total = 0;
        for (const a of groups[x]) for (const b of groups[y]) total += sim[a][b];
        const s = total / (groups[x].length * groups[y].length);
        if (s > best.s) best = { x, y, s };
      }
    }
    if (best.x < 0 || best.s <= 0 || 1 - best.s > threshold) break;
    const merged = [...groups[best.x], ...groups[best.y]].sort((a, b) => a - b);
    groups = [...groups.filter((_, i) => i !== best.x && i !== best.y), merged];
  }
  return groups.sort((a, b) => a[0] - b[0]);
}

describe('clustering questions by subject', () => {
  it('finds the same groups as textbook average linkage', () => {
    const words = 'leave parental paid retention data schedule invoice car fuel pension bonus referral badge visitor phone budget training'.split(' ');
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
    for (let round = 0; round < 20; round++) {
      const questions = Array.from({ length: 40 }, (_, i) => ({
        id: `q${String(i).padStart(2, '0')}`,
        text: Array.from({ length: 1 + (next() % 4) }, () => words[next() % words.length]).join(' '),
      }));
      const stats = termStatistics(questions.map((q) => questionTerms(q.text)));
      const vectors = questions.map((q) => termVector(questionTerms(q.text), stats));
      for (const threshold of [0.5, SUBJECTS.threshold]) {
        const expected = naiveAverageLinkage(vectors, threshold).map((g) => g.map((i) => questions[i].id));
        expect(expected.some((g) => g.length > 2)).toBe(true);
        expect(clusterQuestions(questions, { threshold }).map((c) => c.ids)).toEqual(expected);
      }
    }
  });

  it('groups the questions of one subject and leaves the others alone, every question once', () => {
    const clusters = clusterQuestions(QUESTIONS, options);
    expect(clusters.map((c) => c.ids)).toEqual([['a1', 'a2', 'a3'], ['b1', 'b2', 'b3'], ['c1'], ['c2']]);
    expect(clusters.map((c) => c.label)).toEqual(['Parental leave', 'Data retention schedule', 'Can I bring my dog to the office?', 'What is it?']);
    expect(clusters[0].terms.slice(0, 2).sort()).toEqual(['leav', 'parent']);
  });

  it('is deterministic and independent of the input order', () => {
    const reference = clusterQuestions(QUESTIONS, options);
    for (let seed = 1; seed <= 5; seed++) expect(clusterQuestions(shuffled(QUESTIONS, seed), options)).toEqual(reference);
  });

  it('merges more as the threshold grows: nothing at 0 but identical questions, subjects sharing a word near 1', () => {
    const questions = [...QUESTIONS, { id: 'a4', text: 'how long is PARENTAL LEAVE' }];
    expect(clusterQuestions(questions, { threshold: 0 }).filter((c) => c.ids.length > 1).map((c) => c.ids)).toEqual([['a1', 'a4']]);
    const counts = [0, 0.3, 0.6, SUBJECTS.threshold, 0.99].map((threshold) => clusterQuestions(questions, { threshold }).length);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    const loose = clusterQuestions([...questions, { id: 'd1', text: 'parental leave and data retention' }], { threshold: 0.99 });
    expect(loose.find((c) => c.ids.includes('d1'))?.ids.length).toBeGreaterThan(3);
  });

  it('stores with each cluster the profile new questions are compared with', () => {
    const terms = QUESTIONS.map((q) => questionTerms(q.text));
    const stats = termStatistics(terms);
    const [parental] = clusterQuestions(QUESTIONS, options);
    const expected = subjectProfile(terms.slice(0, 3).map((t) => termVector(t, stats)));
    expect(parental.profile.size).toBe(3);
    for (const [stem, w] of Object.entries(expected?.centroid ?? {})) expect(parental.profile.centroid[stem]).toBeCloseTo(w, 12);
    expect(JSON.parse(JSON.stringify(parental.profile))).toEqual(parental.profile);
  });

  it('takes the inverse document frequencies it is given', () => {
    const stats = termStatistics([...QUESTIONS.map((q) => questionTerms(q.text)), ...Array.from({ length: 50 }, () => questionTerms('parental leave'))]);
    const [cluster] = clusterQuestions(QUESTIONS.slice(0, 3), { threshold: SUBJECTS.threshold, statistics: stats });
    const expected = subjectProfile(QUESTIONS.slice(0, 3).map((q) => termVector(questionTerms(q.text), stats)));
    for (const [stem, w] of Object.entries(expected?.centroid ?? {})) expect(cluster.profile.centroid[stem]).toBeCloseTo(w, 12);
    expect(cluster.profile.centroid.leav).toBeLessThan(clusterQuestions(QUESTIONS.slice(0, 3), options)[0].profile.centroid.leav);
  });

  it('refuses a question listed twice; returns nothing for no question', () => {
    expect(() => clusterQuestions([...QUESTIONS, QUESTIONS[0]], options)).toThrow('a1');
    expect(clusterQuestions([], options)).toEqual([]);
  });

  it('clusters 3,000 questions of 300 subjects in seconds, subjects apart', () => {
    const subjects = Array.from({ length: 300 }, (_, s) => [`topic${s}`, `field${s}`, `item${s}`]);
    const frames = ['How does {0} work for {1}?', 'What is the {0} {2} rule?', '{0} and {1}: who decides?', 'Is there a {0} {1} {2}?'];
    const questions = Array.from({ length: 3000 }, (_, i) => {
      const words = subjects[i % 300];
      return { id: `q${String(i).padStart(5, '0')}`, text: frames[(i * 7) % 4].replace(/\{(\d)\}/gu, (_, k: string) => words[Number(k)]) };
    });
    const started = performance.now();
    const clusters = clusterQuestions(questions, options);
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeLessThan(6);
    for (const c of clusters) expect(new Set(c.ids.map((id) => Number(id.slice(1)) % 300)).size).toBe(1);
    expect(clusters.length).toBe(300);
  });
});
