import type { FastifyBaseLogger } from 'fastify';

export interface Job {
  name: string;
  everyMs: number;
  run: () => Promise<void>;
}

/**
 * Runs each job at start and then on its interval; a failure is logged and retried next time. A tick
 * that comes while the job's previous run is still going is skipped, so a slow run (an SMTP server
 * taking its time) never piles up runs of the same job.
 */
export function startJobs(jobs: Job[], log: FastifyBaseLogger): () => void {
  const timers = jobs.map((job) => {
    let isRunning = false;
    const tick = () => {
      if (isRunning) {
        return;
      }
      isRunning = true;
      job
        .run()
        .catch((error: unknown) => log.error({ err: error, job: job.name }, 'job failed'))
        .finally(() => {
          isRunning = false;
        });
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
