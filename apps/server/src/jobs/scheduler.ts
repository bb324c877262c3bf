import type { FastifyBaseLogger } from 'fastify';

export interface Job {
  name: string;
  everyMs: number;
  run: () => Promise<void>;
}

/** Runs each job at start and then on its interval; a failure is logged and retried next time. */
export function startJobs(jobs: Job[], log: FastifyBaseLogger): () => void {
  const timers = jobs.map((job) => {
    const tick = () => {
      job.run().catch((error: unknown) => log.error({ err: error, job: job.name }, 'job failed'));
    };
    tick();
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => {
    for (const timer of timers) {
      clearInterval(timer);
    }
  };
}
