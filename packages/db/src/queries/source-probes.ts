import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { sourceProbes, supplySources } from '../schema/supply.ts';

// The source probe job's last word on each wholesale network (supply.ts, source_probes): written by the
// job, read with the sources by the gateway every second, the console and `bytegate sources list`.

export type SourceProbeRow = typeof sourceProbes.$inferSelect;

/** The networks the probe job checks: switched on (active or draining), with an endpoint. */
export async function listNetworkSourcesToProbe(db: Executor) {
  return db
    .select()
    .from(supplySources)
    .where(and(eq(supplySources.kind, 'network'), inArray(supplySources.state, ['active', 'draining'])));
}

/** Every source's last probe (a handful of rows). */
export async function listSourceProbes(db: Executor): Promise<SourceProbeRow[]> {
  return db.select().from(sourceProbes);
}

/**
 * Records one probe of a source: a success clears the failures; a counted failure adds one to them (and
 * starts the run's `failing_since` when it is the first); an uncounted one (every network failed: the
 * probe target looked down) leaves them as they were. The exit IP is kept from the last probe that saw one.
 */
export async function recordSourceProbe(
  db: Executor,
  params: {
    sourceId: string;
    checkedAt: Date;
    isOk: boolean;
    connectMs: number | null;
    refusal: string | null;
    error: string | null;
    exitIp: string | null;
    isCounted: boolean;
  },
): Promise<SourceProbeRow> {
  const { sourceId, checkedAt, isOk, connectMs, refusal, error, exitIp, isCounted } = params;
  const failures = isOk ? 0 : isCounted ? 1 : 0;
  const [row] = await db
    .insert(sourceProbes)
    .values({
      sourceId,
      checkedAt,
      isOk,
      connectMs,
      refusal,
      error: error?.slice(0, 500) ?? null,
      lastProbeExitIp: exitIp,
      consecutiveFailures: failures,
      failingSince: failures > 0 ? checkedAt : null,
      lastOkAt: isOk ? checkedAt : null,
    })
    .onConflictDoUpdate({
      target: sourceProbes.sourceId,
      set: {
        checkedAt,
        isOk,
        connectMs,
        refusal,
        error: error?.slice(0, 500) ?? null,
        lastProbeExitIp: exitIp ?? sql`${sourceProbes.lastProbeExitIp}`,
        consecutiveFailures: isOk ? 0 : sql`${sourceProbes.consecutiveFailures} + ${failures}`,
        failingSince: isOk
          ? null
          : failures > 0
            ? sql`coalesce(${sourceProbes.failingSince}, ${checkedAt.toISOString()}::timestamptz)`
            : sql`${sourceProbes.failingSince}`,
        lastOkAt: isOk ? checkedAt : sql`${sourceProbes.lastOkAt}`,
      },
    })
    .returning();
  if (!row) {
    throw new Error('source probe upsert returned no row');
  }
  return row;
}
