import { INSTANCE_STEPS, InstanceStep, nextStep, stepOutcome } from './audit-instance';

describe('instance step machine', () => {
  it('walks from INIT to RUNNING_PHASE in the documented order when nothing is pending, the duplicates context completing its step', () => {
    const visited: InstanceStep[] = ['INIT'];
    let step: InstanceStep = 'INIT';
    for (let i = 0; i < 10; i++) {
      const outcome = stepOutcome(step, { pendingDocuments: 0 });
      if ('done' in outcome || 'waitSeconds' in outcome) break;
      step = 'delegated' in outcome ? nextStep(step) : outcome.advanceTo;
      visited.push(step);
    }
    expect(visited).toEqual([...INSTANCE_STEPS]);
  });

  it('delegates duplicate identification and nothing else', () => {
    const delegated = INSTANCE_STEPS.filter((s) => 'delegated' in stepOutcome(s, { pendingDocuments: 0 }));
    expect(delegated).toEqual(['ON_DUPLICATE_IDENTIFICATION']);
    expect(nextStep('ON_DUPLICATE_IDENTIFICATION')).toBe('DUPLICATE_IDENTIFICATION_DONE');
    expect(nextStep('RUNNING_PHASE')).toBe('RUNNING_PHASE');
  });

  it('waits in the indexation check while documents are pending', () => {
    expect(stepOutcome('ON_CHECKING_INDEXATION', { pendingDocuments: 3 })).toEqual({ waitSeconds: 10 });
    expect(stepOutcome('ON_CHECKING_INDEXATION', { pendingDocuments: 0 })).toEqual({ advanceTo: 'CHECK_INDEXATION_DONE' });
  });

  it('has no further work once running', () => {
    expect(stepOutcome('RUNNING_PHASE', { pendingDocuments: 0 })).toEqual({ done: true });
  });
});
