import { cleanAnswer, draftCompanionDocument, questionHeading } from './companion-document';

const QA = [
  { question: 'How long is parental leave?', answer: '16 weeks for the birth parent, 6 weeks for the other parent' },
  { question: 'Is parental leave paid?', answer: 'yes, at full salary for the first 10 weeks.' },
  { question: 'What is the notice period before parental leave?', answer: 'Tell your manager 8 weeks before the leave starts' },
  { question: 'How do I request parental leave?', answer: 'through the HR portal, form PL-2' },
];

/** Words of a text, folded to lower case, digits included. */
const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

describe('companion document', () => {
  const draft = draftCompanionDocument({ subject: 'Parental leave', qa: QA });

  it('is Markdown: a title, an intro, a section per question, the sources', () => {
    expect(draft).toBe(
      [
        '# Parental leave',
        '',
        'This document covers parental leave. It gathers the answers experts gave to 4 questions the repository could not answer.',
        '',
        '## Duration of parental leave',
        '',
        '16 weeks for the birth parent, 6 weeks for the other parent.',
        '',
        '## Is parental leave paid?',
        '',
        'Yes, at full salary for the first 10 weeks.',
        '',
        '## Notice period before parental leave',
        '',
        'Tell your manager 8 weeks before the leave starts.',
        '',
        '## How to request parental leave',
        '',
        'Through the HR portal, form PL-2.',
        '',
        '---',
        '',
        "Sources: the experts' answers to the questions above.",
        '',
      ].join('\n'),
    );
  });

  it('holds every answer and no fact of its own: each number and word comes from the input or the template', () => {
    for (const { answer } of QA) expect(draft).toContain(answer.trim().replace(/\.$/u, '').slice(1));
    const template = wordsOf(`This document covers. It gathers the answers experts gave to questions the repository could not answer. Sources: the experts' answers to the questions above. Duration of. How to`);
    const input = wordsOf(['Parental leave', ...QA.flatMap((qa) => [qa.question, qa.answer])].join(' '));
    const invented = [...wordsOf(draft)].filter((w) => !input.has(w) && !template.has(w) && w !== String(QA.length));
    expect(invented).toEqual([]);
    expect(draft.match(/\d+/gu)?.filter((n) => n !== String(QA.length)).every((n) => QA.some((qa) => qa.answer.includes(n)))).toBe(true);
  });

  it('writes French with French typography', () => {
    const french = draftCompanionDocument({
      subject: 'Congé parental',
      qa: [
        { question: 'Quelle est la durée du congé parental ?', answer: '16 semaines pour le parent qui accouche' },
        { question: 'Le congé parental est-il payé?', answer: 'oui, à plein salaire pendant 10 semaines' },
        { question: 'Comment puis-je demander un congé parental ?', answer: 'par le portail RH' },
      ],
    });
    expect(french).toContain('# Congé parental\n\nCe document traite du sujet « congé parental ». Il rassemble les réponses des experts à 3 questions');
    expect(french).toContain('## Durée du congé parental\n\n16 semaines pour le parent qui accouche.\n');
    expect(french).toContain('## Le congé parental est-il payé ?\n\nOui, à plein salaire pendant 10 semaines.\n');
    expect(french).toContain('## Comment demander un congé parental\n\nPar le portail RH.\n');
    expect(french).toContain('Sources : les réponses des experts aux questions ci-dessus.');
  });

  it('adds a review line only when the service gives the date', () => {
    expect(draft).not.toMatch(/reviewed/iu);
    expect(draftCompanionDocument({ subject: 'Parental leave', qa: QA, reviewed: '2026-11-26' })).toMatch(/\nLast reviewed: 2026-11-26\n$/u);
  });

  it('refuses an unanswered question, an empty subject or no question', () => {
    expect(() => draftCompanionDocument({ subject: 'Parental leave', qa: [...QA, { question: 'Who approves it?', answer: '  ' }] })).toThrow('Who approves it?');
    expect(() => draftCompanionDocument({ subject: ' ', qa: QA })).toThrow(RangeError);
    expect(() => draftCompanionDocument({ subject: 'Parental leave', qa: [] })).toThrow(RangeError);
  });

  it('keeps the question as the heading when no safe phrase comes out, or two would be the same', () => {
    expect(questionHeading('What is covered by the policy?', 'en')).toBe('What is covered by the policy?');
    expect(questionHeading('Who approves overtime', 'en')).toBe('Who approves overtime?');
    expect(questionHeading('What is the data retention schedule?', 'en')).toBe('Data retention schedule');
    const twice = draftCompanionDocument({ subject: 'Retention', qa: [{ question: 'What is the retention schedule?', answer: 'A' }, { question: 'What are the retention schedule?', answer: 'B' }] });
    expect(twice).toContain('## What is the retention schedule?');
  });

  it('tidies answers without rewriting them', () => {
    expect(cleanAnswer('  keep   invoices 10 years  ')).toBe('Keep invoices 10 years.');
    expect(cleanAnswer('see https://hr.example/leave')).toBe('See https://hr.example/leave');
    expect(cleanAnswer('https://hr.example/leave')).toBe('https://hr.example/leave');
    expect(cleanAnswer('Steps:\n\n- tell your manager\n- fill in the form')).toBe('Steps:\n\n- tell your manager\n- fill in the form');
    expect(cleanAnswer('# Rules\nDone!')).toBe('### Rules\nDone!');
    expect(cleanAnswer('a\n\n\n\nb')).toBe('A\n\nb.');
  });
});
