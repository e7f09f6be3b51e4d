import { jobConcurrency } from './jobs.module';

describe('jobConcurrency', () => {
  it('runs one job at a time on the single-connection embedded database', () => {
    expect(jobConcurrency({ JOBS_CONCURRENCY: 8, DATABASE_POOL_SIZE: 10 }, true)).toBe(1);
  });

  it('follows JOBS_CONCURRENCY on PostgreSQL within half the pool', () => {
    expect(jobConcurrency({ JOBS_CONCURRENCY: 2, DATABASE_POOL_SIZE: 10 }, false)).toBe(2);
    expect(jobConcurrency({ JOBS_CONCURRENCY: 8, DATABASE_POOL_SIZE: 10 }, false)).toBe(5);
    expect(jobConcurrency({ JOBS_CONCURRENCY: 8, DATABASE_POOL_SIZE: 1 }, false)).toBe(1);
  });
});
