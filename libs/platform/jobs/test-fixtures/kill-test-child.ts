// A worker process for the kill test (run with `node -r ./swc-register.cjs`). Its configuration is
// the environment, like an app's. Its handler for `killtest.effect` inserts the job's effect row, then:
// - KILL_TEST_BEHAVIOUR=hang: prints "started <jobId>" and never returns (the test SIGKILLs it);
// - KILL_TEST_BEHAVIOUR=finish: returns; the process waits until KILL_TEST_JOB_ID is finished, prints
//   "finished <state>", shuts down cleanly and exits 0.
import 'reflect-metadata';
import { startJobsApp, waitFor } from './jobs-test-app';

async function main(): Promise<void> {
  const behaviour = process.env.KILL_TEST_BEHAVIOUR;
  const app = await startJobsApp(
    process.env,
    { runWorkers: true, queuePrefix: process.env.KILL_TEST_QUEUE_PREFIX },
    ({ registry, unitOfWork }) =>
      registry.register('killtest.effect', async (_payload, ctx) => {
        await unitOfWork
          .manager()
          .query('INSERT INTO jobs_test.effects (job_id, attempt, pid) VALUES ($1, $2, $3)', [ctx.jobId, ctx.attempt, process.pid]);
        if (behaviour === 'hang') {
          process.stdout.write(`started ${ctx.jobId}\n`);
          await new Promise(() => undefined);
        }
      }),
    ['error', 'warn'],
  );
  process.stdout.write('ready\n');
  if (behaviour !== 'finish') return;
  const jobId = process.env.KILL_TEST_JOB_ID as string;
  const view = await waitFor(
    async () => {
      const job = await app.store.get(jobId);
      return job && (job.state === 'completed' || job.state === 'failed') ? job : undefined;
    },
    60000,
    `job ${jobId}`,
  );
  process.stdout.write(`finished ${view.state}\n`);
  await app.close();
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
