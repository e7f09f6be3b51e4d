import { Injectable } from '@nestjs/common';
import type { WorkspaceRunStepPayload } from '@svc/contracts';
import { JobHandlerOf, JobHandlerRegistry } from '@svc/jobs';
import { RunInstanceStep } from '@svc/workspace-core';

/**
 * `workspace.run-step`: the background work of an instance's step. Transactional: the move to the
 * next step and the job for it commit with the job's completion. Outcomes: `stale` (the instance moved
 * on), `waiting` (re-checks later), `advanced`, `done`.
 */
@Injectable()
export class RunInstanceStepJobHandler extends JobHandlerOf<'workspace.run-step'> {
  readonly job = 'workspace.run-step';

  constructor(
    registry: JobHandlerRegistry,
    private readonly runStep: RunInstanceStep,
  ) {
    super(registry);
  }

  handle(payload: WorkspaceRunStepPayload): Promise<string> {
    return this.runStep.execute(payload);
  }
}
