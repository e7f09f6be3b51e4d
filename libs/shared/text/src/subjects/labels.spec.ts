import { subjectLabel } from './labels';
import { questionTerms } from './terms';
import { termStatistics } from './vectors';

function label(questions: string[], others: string[] = []): ReturnType<typeof subjectLabel> {
  const members = questions.map((q) => questionTerms(q));
  return subjectLabel(members, termStatistics([...members, ...others.map((q) => questionTerms(q))]));
}

const OTHERS = ['Who is eligible for a company car?', 'How do I book a meeting room?', 'Is there a gym discount?', 'What is the annual leave allowance?'];

describe('subject labels', () => {
  it('uses the words the questions share, as written, in the writers order', () => {
    expect(label(['How long is parental leave?', 'Is parental leave paid?', 'Parental leave for adoptive parents'], OTHERS).label).toBe('Parental leave');
    expect(label(['What is the data retention schedule?', 'data retention schedule for invoices', 'Where is the retention schedule for data?'], OTHERS).label).toBe('Data retention schedule');
  });

  it('never shows stems', () => {
    const { label: text, terms } = label(['Whistleblowing procedure?', 'Is there a whistleblowing hotline?', 'How do whistleblowers report?'], OTHERS);
    expect(text).toBe('Whistleblowing');
    expect(terms[0]).toBe('whistl');
  });

  it('keeps acronyms and French accents', () => {
    expect(label(['GDPR retention period?', 'retention under GDPR', 'what does GDPR say on retention'], OTHERS).label).toBe('GDPR retention');
    expect(label(['Quelle est la durée du congé parental ?', 'Le congé parental est-il payé ?'], OTHERS).label).toBe('Congé parental');
  });

  it('names a single question by its rarest words, at most three', () => {
    const { label: text } = label(['Can I bring my dog to the office?'], OTHERS);
    expect(text.split(' ').length).toBeLessThanOrEqual(3);
    expect(text).toMatch(/^Bring dog|^Dog/u);
  });

  it('is empty for questions without content words', () => {
    expect(label(['What is it?'])).toEqual({ label: '', terms: [] });
  });
});
