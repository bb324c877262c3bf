import { and, asc, count, eq, gte, ilike, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { auditLog } from '../schema/audit.ts';
import { exitProbes, exits, exitTrafficHealth } from '../schema/inventory.ts';
import type { ExitRow } from './gateway.ts';

// The exit inventory as staff and the health job see it. Writing `exits` bumps the inventory version (a
// statement trigger), so a running gateway reloads within a second; the probe and traffic-health tables
// are apart from it, and writing them reloads nothing.

export type ExitProbeRow = typeof exitProbes.$inferSelect;
export type ExitStatus = 'active' | 'out_of_rotation' | 'disabled';

export interface ExitFilter {
  poolType?: ExitRow['poolType'] | undefined;
  country?: string | undefined;
  /** active: in rotation; out_of_rotation: on, but taken out by the health rules; disabled: switched off. */
  status?: ExitStatus | undefined;
  /** Contained in the name, any case. */
  name?: string | undefined;
}

/** `%`, `_` and `\` matched as themselves in an ILIKE pattern. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

const STATUS_WHERE: Record<ExitStatus, SQL | undefined> = {
  active: and(eq(exits.isActive, true), isNull(exits.outOfRotationAt)),
  out_of_rotation: and(eq(exits.isActive, true), isNotNull(exits.outOfRotationAt)),
  disabled: eq(exits.isActive, false),
};

function whereOf(filter: ExitFilter): SQL | undefined {
  const conditions: Array<SQL | undefined> = [];
  if (filter.poolType) {
    conditions.push(eq(exits.poolType, filter.poolType));
  }
  if (filter.country) {
    conditions.push(eq(exits.country, filter.country));
  }
  if (filter.status) {
    conditions.push(STATUS_WHERE[filter.status]);
  }
  if (filter.name) {
    conditions.push(ilike(exits.name, `%${escapeLike(filter.name)}%`));
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** One page of exits under a filter (by pool, country, name), each with its last probe. */
export async function listExitsPage(
  db: Executor,
  params: { filter: ExitFilter; limit: number; offset: number },
): Promise<{ rows: Array<{ exit: ExitRow; probe: ExitProbeRow | null }>; total: number }> {
  const where = whereOf(params.filter);
  const rows = await db
    .select({ exit: exits, probe: exitProbes })
    .from(exits)
    .leftJoin(exitProbes, eq(exitProbes.exitId, exits.id))
    .where(where)
    .orderBy(asc(exits.poolType), asc(exits.country), asc(exits.name), asc(exits.id))
    .limit(params.limit)
    .offset(params.offset);
  const [totals] = await db.select({ total: count() }).from(exits).where(where);
  return { rows, total: totals?.total ?? 0 };
}

/** How many exits are in each status, and the countries the inventory has (the filters' choices). */
export async function summarizeExits(db: Executor) {
  const [row] = await db
    .select({
      total: count(),
      active: sql<number>`count(*) filter (where ${STATUS_WHERE.active})`.mapWith(Number),
      outOfRotation: sql<number>`count(*) filter (where ${STATUS_WHERE.out_of_rotation})`.mapWith(Number),
      disabled: sql<number>`count(*) filter (where ${STATUS_WHERE.disabled})`.mapWith(Number),
    })
    .from(exits);
  const countries = await db
    .selectDistinct({ country: exits.country })
    .from(exits)
    .orderBy(asc(exits.country));
  return {
    total: row?.total ?? 0,
    active: row?.active ?? 0,
    outOfRotation: row?.outOfRotation ?? 0,
    disabled: row?.disabled ?? 0,
    countries: countries.map((entry) => entry.country),
  };
}

export interface ExitTrafficTotals {
  exitId: string;
  /** Connections opened through the exit, and those that failed to open. */
  connects: number;
  failures: number;
  connectMsTotal: number;
  lastError: string | null;
  lastErrorAt: Date | null;
}

/** Real-traffic totals since a moment (hourly rows that started at or after it), per exit. */
export async function sumExitTraffic(
  db: Executor,
  params: { since: Date; exitIds?: string[] | undefined },
): Promise<ExitTrafficTotals[]> {
  if (params.exitIds?.length === 0) {
    return [];
  }
  const rows = await db
    .select({
      exitId: exitTrafficHealth.exitId,
      connects: sql<number>`sum(${exitTrafficHealth.connects})`.mapWith(Number),
      failures: sql<number>`sum(${exitTrafficHealth.failures})`.mapWith(Number),
      connectMsTotal: sql<number>`sum(${exitTrafficHealth.connectMsTotal})`.mapWith(Number),
      // The latest hour's error that has one.
      lastError: sql<
        string | null
      >`(array_agg(${exitTrafficHealth.lastError} order by ${exitTrafficHealth.lastErrorAt} desc nulls last))[1]`,
      lastErrorAt: sql<string | null>`max(${exitTrafficHealth.lastErrorAt})`,
    })
    .from(exitTrafficHealth)
    .where(
      and(
        gte(exitTrafficHealth.bucketStart, params.since),
        params.exitIds ? inArray(exitTrafficHealth.exitId, params.exitIds) : undefined,
      ),
    )
    .groupBy(exitTrafficHealth.exitId);
  return rows.map((row) => ({
    ...row,
    lastErrorAt: row.lastErrorAt === null ? null : new Date(row.lastErrorAt),
  }));
}

export async function getExit(db: Executor, params: { exitId: string }): Promise<ExitRow | null> {
  const [row] = await db.select().from(exits).where(eq(exits.id, params.exitId));
  return row ?? null;
}

/** The exit, locked for the transaction (its rotation or switch is about to change); null when unknown. */
export async function lockExit(tx: Executor, params: { exitId: string }): Promise<ExitRow | null> {
  const [row] = await tx.select().from(exits).where(eq(exits.id, params.exitId)).for('update');
  return row ?? null;
}

export async function setExitActive(
  tx: Executor,
  params: { exitId: string; isActive: boolean },
): Promise<ExitRow | null> {
  const [row] = await tx
    .update(exits)
    .set({ isActive: params.isActive })
    .where(eq(exits.id, params.exitId))
    .returning();
  return row ?? null;
}

/** Takes an exit out of rotation (a moment and a reason) or puts it back (null). */
export async function setExitRotation(
  tx: Executor,
  params: { exitId: string; outOfRotationAt: Date | null; reason: string | null },
): Promise<ExitRow | null> {
  const [row] = await tx
    .update(exits)
    .set({ outOfRotationAt: params.outOfRotationAt, outOfRotationReason: params.reason })
    .where(eq(exits.id, params.exitId))
    .returning();
  return row ?? null;
}

/** The exits the probe checks: every one switched on, in rotation or not (a success brings one back). */
export async function listExitsToProbe(db: Executor): Promise<ExitRow[]> {
  return db.select().from(exits).where(eq(exits.isActive, true)).orderBy(asc(exits.id));
}

export async function getExitProbe(db: Executor, params: { exitId: string }): Promise<ExitProbeRow | null> {
  const [row] = await db.select().from(exitProbes).where(eq(exitProbes.exitId, params.exitId));
  return row ?? null;
}

/**
 * Records one probe of an exit and answers its row: a success clears the run of failures, a counted
 * failure adds one to it (in the statement itself, so two probes never lose a count); an uncounted one
 * (the target itself looked down) leaves the run as it was.
 */
export async function recordExitProbe(
  db: Executor,
  params: {
    exitId: string;
    checkedAt: Date;
    isOk: boolean;
    connectMs: number | null;
    error: string | null;
    isCounted: boolean;
  },
): Promise<ExitProbeRow> {
  const { exitId, checkedAt, isOk, connectMs, error, isCounted } = params;
  const failures = isOk ? 0 : isCounted ? 1 : 0;
  const [row] = await db
    .insert(exitProbes)
    .values({
      exitId,
      checkedAt,
      isOk,
      connectMs,
      error,
      consecutiveFailures: failures,
      lastOkAt: isOk ? checkedAt : null,
    })
    .onConflictDoUpdate({
      target: exitProbes.exitId,
      set: {
        checkedAt,
        isOk,
        connectMs,
        error,
        consecutiveFailures: isOk ? 0 : sql`${exitProbes.consecutiveFailures} + ${failures}`,
        lastOkAt: isOk ? checkedAt : sql`${exitProbes.lastOkAt}`,
      },
    })
    .returning();
  if (!row) {
    throw new Error('exit probe upsert returned no row');
  }
  return row;
}

/** The exits put back into rotation since a moment (by staff or by a probe), from the audit log. */
export async function listExitsRestoredSince(db: Executor, params: { since: Date }): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ exitId: auditLog.targetId })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'exit.rotation.restore'), gte(auditLog.createdAt, params.since)));
  return new Set(rows.map((row) => row.exitId));
}

/** Starts the run of probe failures again (staff put the exit back: it needs new failures to go out). */
export async function clearExitProbeFailures(tx: Executor, params: { exitId: string }): Promise<void> {
  await tx.update(exitProbes).set({ consecutiveFailures: 0 }).where(eq(exitProbes.exitId, params.exitId));
}

export interface ExitTrafficDelta {
  exitId: string;
  connects: number;
  failures: number;
  connectMsTotal: number;
  lastError: string | null;
  lastErrorAt: Date | null;
}

/**
 * Adds the gateway's counts to each exit's hourly row, in one statement (no transaction to begin on a
 * connection that may have died). Exits removed meanwhile are skipped: their counts have nowhere to go.
 */
export async function addExitTraffic(
  db: Executor,
  params: { bucketStart: Date; deltas: ExitTrafficDelta[] },
): Promise<void> {
  if (params.deltas.length === 0) {
    return;
  }
  const values = sql.join(
    params.deltas.map(
      (delta) =>
        sql`(${delta.exitId}::uuid, ${delta.connects}::int, ${delta.failures}::int, ${delta.connectMsTotal}::bigint, ${delta.lastError}::text, ${delta.lastErrorAt?.toISOString() ?? null}::timestamptz)`,
    ),
    sql`, `,
  );
  const bucketStart = params.bucketStart.toISOString();
  await db.execute(sql`
    insert into ${exitTrafficHealth} (exit_id, bucket_start, connects, failures, connect_ms_total, last_error, last_error_at)
    select counted.exit_id, ${bucketStart}::timestamptz, counted.connects, counted.failures, counted.connect_ms, counted.last_error, counted.last_error_at
    from (values ${values}) as counted (exit_id, connects, failures, connect_ms, last_error, last_error_at)
    where exists (select 1 from ${exits} where ${exits.id} = counted.exit_id)
    on conflict (exit_id, bucket_start) do update set
      connects = ${exitTrafficHealth}.connects + excluded.connects,
      failures = ${exitTrafficHealth}.failures + excluded.failures,
      connect_ms_total = ${exitTrafficHealth}.connect_ms_total + excluded.connect_ms_total,
      last_error = coalesce(excluded.last_error, ${exitTrafficHealth}.last_error),
      last_error_at = coalesce(excluded.last_error_at, ${exitTrafficHealth}.last_error_at)
  `);
}

/** Drops traffic health older than a moment (kept as long as usage: 30 days). */
export async function deleteExitTrafficBefore(db: Executor, params: { before: Date }): Promise<void> {
  await db
    .delete(exitTrafficHealth)
    .where(sql`${exitTrafficHealth.bucketStart} < ${params.before.toISOString()}`);
}
