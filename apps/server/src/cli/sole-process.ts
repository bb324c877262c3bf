import pg from 'pg';

/** One advisory lock per part that must not run twice on a database without shared state. */
const LOCKS = { gateway: '6268757411903093', api: '6268757411903094' } as const;

/** How long a claim is retried before the process refuses to start. */
const CLAIM_FOR_MS = 3000;

const WHY = {
  gateway:
    'another gateway process runs on this database: more than one needs REDIS_URL, so that they share thread limits, traffic and sticky sessions',
  api: 'another API process runs on this database: more than one needs REDIS_URL, so that their rate limits and failed sign-ins are counted together',
} as const;

/**
 * Refuses to run a second gateway (or, without REDIS_URL, a second API process) on one PostgreSQL
 * database: the process holds a session advisory lock for as long as it lives (a connection of its own;
 * the lock goes with the process, however it ends). Answers a function that gives the lock up.
 */
export async function claimSoleProcess(
  databaseUrl: string,
  part: keyof typeof LOCKS,
): Promise<() => Promise<void>> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: 5000,
    keepAlive: true,
  });
  client.on('error', () => undefined);
  await client.connect();
  // Tried for a few seconds: a process restarted right after its predecessor was killed may find the
  // old session not yet ended by PostgreSQL.
  const deadline = Date.now() + CLAIM_FOR_MS;
  let isLocked = false;
  for (;;) {
    const { rows } = await client.query<{ locked: boolean }>(
      'select pg_try_advisory_lock($1::bigint) as locked',
      [LOCKS[part]],
    );
    isLocked = rows[0]?.locked === true;
    if (isLocked || Date.now() > deadline) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (!isLocked) {
    await client.end();
    throw new SoleProcessError(`Cannot start: ${WHY[part]}.`);
  }
  return () => client.end();
}

export class SoleProcessError extends Error {}
