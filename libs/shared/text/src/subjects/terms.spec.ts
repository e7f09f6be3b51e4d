import { questionTerms, subjectStem, termSalience } from './terms';
import { SUBJECTS } from './constants';

const stems = (q: string) => questionTerms(q).map((t) => t.stem);
const surfaces = (q: string) => questionTerms(q).map((t) => t.surface);

describe('question terms', () => {
  it('keeps the content words, stemmed, without question and auxiliary words', () => {
    expect(surfaces('How long is parental leave?')).toEqual(['parental', 'leave']);
    expect(surfaces('Is there any information on the whistleblowing procedure, please?')).toEqual(['whistleblowing', 'procedure']);
    expect(stems('What are the parental leaves?')).toEqual(stems('parental leave'));
  });

  it('reads French questions with French stop words and stems', () => {
    expect(surfaces('Quelle est la durée du congé parental ?')).toEqual(['durée', 'congé', 'parental']);
    expect(stems('Comment signaler une fraude ?')).toEqual(stems('signalement des fraudes'));
  });

  it('uses the stop words of the question language: "car" is a word in English', () => {
    expect(surfaces('Who is eligible for a company car?')).toEqual(['eligible', 'company', 'car']);
  });

  it('joins derivations and the two languages by the stem prefix', () => {
    expect(subjectStem('whistleblowing', 'en')).toBe(subjectStem('whistle', 'en'));
    expect(subjectStem('leadership', 'en')).toBe(subjectStem('leader', 'en'));
    expect(subjectStem('maternity', 'en')).toBe(subjectStem('maternite', 'fr'));
    expect(subjectStem('parental', 'fr')).toBe(subjectStem('parents', 'en'));
    expect(subjectStem('international', 'en').length).toBeLessThanOrEqual(SUBJECTS.stemLength);
    expect(subjectStem('iso27001', 'en')).toBe('iso27001');
  });

  it('keeps capitals where writers mean them, drops them where they do not', () => {
    expect(surfaces('GDPR retention for the London office?')).toEqual(['GDPR', 'retention', 'London', 'office']);
    expect(surfaces('Parental Leave in Paris?')).toEqual(['parental', 'Leave', 'Paris']);
    expect(surfaces('HOW LONG IS PARENTAL LEAVE')).toEqual(['parental', 'leave']);
  });

  it('has no terms for a question of function words only', () => {
    expect(questionTerms('What is it?')).toEqual([]);
    expect(questionTerms('???')).toEqual([]);
  });

  it('weighs generic words of business writing less, in both languages', () => {
    expect(termSalience(subjectStem('days', 'en'))).toBe(SUBJECTS.genericWeight);
    expect(termSalience(subjectStem('jours', 'fr'))).toBe(SUBJECTS.genericWeight);
    expect(termSalience(subjectStem('whistleblowing', 'en'))).toBe(1);
  });
});
