import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type JobsLeadership, leadJobsWhenElected } from './leader.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
const quiet = { info: () => undefined, warn: () => undefined };

/** Waits until `condition` holds, polling; fails after `ms`. */
async function until(ms: number, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`not within ${ms} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.runIf(databaseUrl)('the jobs leader on PostgreSQL', () => {
  const running: JobsLeadership[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((leadership) => leadership.stop()));
  });

  /** A process's election with its own count of how many times it started and stopped the jobs. */
  function candidate(lockKey: bigint) {
    const counts = { started: 0, stopped: 0 };
    const leadership = leadJobsWhenElected({
      databaseUrl: databaseUrl ?? '',
      retryMs: 100,
      lockKey,
      log: quiet,
      startJobs: () => {
        counts.started += 1;
        return () => {
          counts.stopped += 1;
        };
      },
    });
    running.push(leadership);
    return { leadership, counts };
  }
  // A key of this test's own: other suites on the same database must not hold it.
  const key = () => BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000));

  it('runs the jobs in one process only, and another takes over when the leader stops', async () => {
    const lockKey = key();
    const a = candidate(lockKey);
    await until(2000, () => a.leadership.isLeader());
    const b = candidate(lockKey);
    const c = candidate(lockKey);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([a, b, c].map((one) => one.leadership.isLeader())).toEqual([true, false, false]);

    await a.leadership.stop();
    expect(a.counts).toEqual({ started: 1, stopped: 1 });
    await until(2000, () => b.leadership.isLeader() || c.leadership.isLeader());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([b, c].filter((one) => one.leadership.isLeader())).toHaveLength(1);
    expect(b.counts.started + c.counts.started).toBe(1);
  });

  it('stops the jobs of a leader whose connection died, and a follower takes over', async () => {
    const lockKey = key();
    const a = candidate(lockKey);
    await until(2000, () => a.leadership.isLeader());
    const b = candidate(lockKey);
    // The leader's session is ended from outside, as a database restart or a dead network would.
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(
      'select pg_terminate_backend(pid) from pg_locks where locktype = $1 and ((classid::bigint << 32) | objid::bigint) = $2::bigint',
      ['advisory', String(lockKey)],
    );
    await admin.end();
    await until(2000, () => !a.leadership.isLeader());
    expect(a.counts).toEqual({ started: 1, stopped: 1 });
    await until(2000, () => b.leadership.isLeader() || a.leadership.isLeader());
    // Exactly one leads again (a reconnects as a follower, or won the lock back first).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([a, b].filter((one) => one.leadership.isLeader())).toHaveLength(1);
  });
});
