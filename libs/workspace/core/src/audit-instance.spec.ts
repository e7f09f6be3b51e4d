import { INSTANCE_STEPS, InstanceStep, stepOutcome } from './audit-instance';

describe('instance step machine', () => {
  it('walks from INIT to RUNNING_PHASE in the documented order when nothing is pending', () => {
    const visited: InstanceStep[] = ['INIT'];
    let step: InstanceStep = 'INIT';
    for (let i = 0; i < 10; i++) {
      const outcome = stepOutcome(step, { pendingDocuments: 0 });
      if (!('advanceTo' in outcome)) break;
      step = outcome.advanceTo;
      visited.push(step);
    }
    expect(visited).toEqual([...INSTANCE_STEPS]);
  });

  it('waits in the indexation check while documents are pending', () => {
    expect(stepOutcome('ON_CHECKING_INDEXATION', { pendingDocuments: 3 })).toEqual({ waitSeconds: 10 });
    expect(stepOutcome('ON_CHECKING_INDEXATION', { pendingDocuments: 0 })).toEqual({ advanceTo: 'CHECK_INDEXATION_DONE' });
  });

  it('has no further work once running', () => {
    expect(stepOutcome('RUNNING_PHASE', { pendingDocuments: 0 })).toEqual({ done: true });
  });
});
