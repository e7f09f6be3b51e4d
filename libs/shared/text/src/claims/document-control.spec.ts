import { readDocumentControl, supersededDocuments, titleOf } from './document-control';

const policy = (version: string, effective: string, extra = '') => `# Expense Policy\n\n- **Reference:** FIN-POL-02\n- **Version:** ${version}\n- **Effective date:** ${effective}\n${extra}\n## 1. Scope\n\nThis policy applies to all employees.`;

describe('readDocumentControl', () => {
  it('reads reference, version, effective date and a Supersedes line from a metadata list', () => {
    expect(readDocumentControl('finance/expense-policy.md', policy('4.0', '1 April 2025', '- **Supersedes:** Expense Policy version 3.0, effective 1 March 2023\n'))).toEqual({
      title: 'expense policy',
      reference: 'FIN-POL-02',
      version: [4, 0],
      effective: '2025-04-01',
      supersedes: 'expense policy version 3.0, effective 1 march 2023',
      withdrawn: false,
    });
  });

  it('reads a table of metadata, French labels and dates, and a revision letter', () => {
    const control = readDocumentControl('reglement.md', "# Règlement intérieur\n\n| Référence | RH-07 |\n|---|---|\n| Révision | C |\n| Date d'effet | 1er mars 2024 |\n");
    expect(control).toMatchObject({ title: 'reglement interieur', reference: 'RH-07', version: [3], effective: '2024-03-01', withdrawn: false });
  });

  it('tells a document that says it is superseded or withdrawn, not one that mentions something replaced', () => {
    expect(readDocumentControl('a.md', '# Travel rules\n\nStatus: superseded\n\nTaxis are allowed.').withdrawn).toBe(true);
    expect(readDocumentControl('a.md', '# Travel rules\n\nThis policy has been replaced by the Travel Policy 2025.').withdrawn).toBe(true);
    expect(readDocumentControl('a.md', '# Règles\n\nCette procédure a été remplacée par la procédure 2025.').withdrawn).toBe(true);
    expect(readDocumentControl('a.md', '# Travel rules\n\nPaper claim forms were replaced by the expenses portal in 2024.').withdrawn).toBe(false);
    expect(readDocumentControl('a.md', '# Dress code\n\nDress code: smart casual.').reference).toBeNull();
  });

  it('compares titles without years, versions, folders or extensions', () => {
    expect(titleOf('finance/travel-expense-policy-2022.md')).toBe(titleOf('Travel Expense Policy'));
    expect(titleOf('Leave policy v3')).toBe('leave policy');
  });
});

describe('supersededDocuments', () => {
  const doc = (id: string, text: string) => ({ id, control: readDocumentControl(`${id}.md`, text) });

  it('a Supersedes line naming the older version, or a later version of the same reference, supersedes it', () => {
    const old = doc('old', policy('3.0', '1 March 2023'));
    const current = doc('current', policy('4.0', '1 April 2025', '- **Supersedes:** Expense Policy version 3.0\n'));
    expect(supersededDocuments([old, current])).toEqual(new Map([['old', 'current']]));
    // The same reference with a later version, and no Supersedes line.
    expect(supersededDocuments([doc('old', policy('3.0', '1 March 2023')), doc('current', policy('4.0', '1 April 2025'))])).toEqual(new Map([['old', 'current']]));
  });

  it('two documents of one title without a reference or a Supersedes line are not versions of each other', () => {
    const uk = doc('uk', '# Leave Policy\n\nVersion: 2.0\nEffective: 1 January 2025\n\nUK employees receive 25 days.');
    const fr = doc('fr', '# Leave Policy\n\nVersion: 1.0\nEffective: 1 June 2024\n\nLyon employees receive 30 days.');
    expect(supersededDocuments([uk, fr])).toEqual(new Map());
  });

  it('a document that says it is withdrawn is superseded by the current one of its title, or by none', () => {
    const withdrawn = doc('old', '# Travel Policy\n\nStatus: withdrawn\n\nTaxis are allowed.');
    expect(supersededDocuments([withdrawn, doc('new', '# Travel Policy\n\nTaxis need approval.')])).toEqual(new Map([['old', 'new']]));
    expect(supersededDocuments([withdrawn, doc('other', '# Leave Policy\n\n25 days.')])).toEqual(new Map([['old', null]]));
  });

  it('every older version under the same reference is superseded, a document of another title is not', () => {
    const older = doc('v2', policy('2.0', '1 March 2021'));
    const current = doc('current', policy('4.0', '1 April 2025', '- **Supersedes:** Expense Policy version 3.0\n'));
    expect(supersededDocuments([older, current]).get('v2')).toBe('current');
    const otherTitle = doc('travel', '# Travel FAQ\n\nVersion: 1.0\n');
    expect(supersededDocuments([otherTitle, current]).has('travel')).toBe(false);
  });
});
