import { findingStatesOf, FindingExcerpt, groupByValue } from './finding-states';

const statement = (document: string, value: string): FindingExcerpt => ({ semantic_node_id: `sn_${document}`, document_id: `kd_${document}`, document_name: document, document_url: null, text: `${value}.`, value, value_start: 0, value_end: value.length, scope: [] });

describe('full-audit findings', () => {
  it('groups statements by value, in the order the finding gives them, however many documents', () => {
    const groups = groupByValue([statement('A', '3 years'), statement('B', 'two years'), statement('C', '3 Years'), statement('D', 'two years')]);
    expect(groups.map((g) => [g.value, g.excerpts.map((e) => e.document_name)])).toEqual([
      ['3 years', ['A', 'C']],
      ['two years', ['B', 'D']],
    ]);
  });

  it('filters: unresolved by default, one state, or all', () => {
    expect(findingStatesOf('unresolved')).toEqual(['DETECTED', 'REDETECTED']);
    expect(findingStatesOf('IGNORED')).toEqual(['IGNORED']);
    expect(findingStatesOf('all')).toHaveLength(5);
  });
});
