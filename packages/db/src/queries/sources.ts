import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { sourceUsageDaily, supplySources } from '../schema/supply.ts';

// The sources of supply (supply.ts): a handful of rows, read whole by the gateway every second.

export type SourceRow = typeof supplySources.$inferSelect;
export type NewSource = typeof supplySources.$inferInsert;
export type SourceChange = Partial<
  Pick<
    NewSource,
    | 'name'
    | 'weight'
    | 'state'
    | 'costPerGbCents'
    | 'endpointUrl'
    | 'grammar'
    | 'template'
    | 'passwordTemplate'
    | 'alarm'
    | 'alarmAt'
  >
>;

export async function listSources(db: Executor): Promise<SourceRow[]> {
  return db.select().from(supplySources).orderBy(asc(supplySources.poolType), asc(supplySources.name));
}

/** A source by its id; `isLocked` holds its row until the transaction ends. */
export async function getSource(
  db: Executor,
  params: { id: string; isLocked?: boolean },
): Promise<SourceRow | undefined> {
  const query = db.select().from(supplySources).where(eq(supplySources.id, params.id));
  const [row] = params.isLocked ? await query.for('update') : await query;
  return row;
}

export async function getSourceByName(
  db: Executor,
  params: { name: string },
): Promise<SourceRow | undefined> {
  const [row] = await db.select().from(supplySources).where(eq(supplySources.name, params.name));
  return row;
}

export async function createSource(db: Executor, params: { source: NewSource }): Promise<SourceRow> {
  const [row] = await db.insert(supplySources).values(params.source).returning();
  if (!row) {
    throw new Error('source insert returned no row');
  }
  return row;
}

/** Changes a source (locked, for the audit's before and after); undefined when there is no such source. */
export async function updateSource(
  tx: Executor,
  params: { id: string; change: SourceChange },
): Promise<{ before: SourceRow; after: SourceRow } | undefined> {
  const [before] = await tx.select().from(supplySources).where(eq(supplySources.id, params.id)).for('update');
  if (!before) {
    return undefined;
  }
  const [after] = await tx
    .update(supplySources)
    .set({ ...params.change, updatedAt: new Date() })
    .where(eq(supplySources.id, params.id))
    .returning();
  return after ? { before, after } : undefined;
}

export interface SourceUsageDelta {
  sourceId: string;
  carriedBytes: number;
  billedBytes: number;
}

/**
 * Adds carried and billed bytes to each source's day (inside the usage flush's transaction), and their
 * cost: the bytes × the source's cost per GB as this statement reads it, so bytes are priced at the cost
 * in force when they are stored (a cost change commits before or after a flush, never halfway). An
 * unknown source fails the insert, and the flush with it, as before costs were kept.
 */
export async function addSourceUsage(
  tx: Executor,
  params: { day: Date; deltas: SourceUsageDelta[] },
): Promise<void> {
  if (params.deltas.length === 0) {
    return;
  }
  const values = sql.join(
    params.deltas.map(
      (delta) => sql`(${delta.sourceId}::uuid, ${delta.carriedBytes}::bigint, ${delta.billedBytes}::bigint)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    insert into ${sourceUsageDaily} (source_id, day, carried_bytes, billed_bytes, cost_byte_cents)
    select counted.source_id, ${params.day.toISOString()}::timestamptz, counted.carried, counted.billed,
      counted.carried::numeric * (select ${supplySources.costPerGbCents} from ${supplySources} where ${supplySources.id} = counted.source_id)
    from (values ${values}) as counted (source_id, carried, billed)
    on conflict (source_id, day) do update set
      carried_bytes = ${sourceUsageDaily}.carried_bytes + excluded.carried_bytes,
      billed_bytes = ${sourceUsageDaily}.billed_bytes + excluded.billed_bytes,
      cost_byte_cents = ${sourceUsageDaily}.cost_byte_cents + excluded.cost_byte_cents
  `);
}

export interface SourceHealthDelta {
  sourceId: string;
  connects: number;
  failures: number;
  connectMsTotal: number;
}

/** Adds dials opened and failed (and connect time) to each source's day; unknown sources are skipped. */
export async function addSourceHealth(
  db: Executor,
  params: { day: Date; deltas: SourceHealthDelta[] },
): Promise<void> {
  if (params.deltas.length === 0) {
    return;
  }
  const values = sql.join(
    params.deltas.map(
      (delta) =>
        sql`(${delta.sourceId}::uuid, ${delta.connects}::bigint, ${delta.failures}::bigint, ${delta.connectMsTotal}::bigint)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    insert into ${sourceUsageDaily} (source_id, day, connects, failures, connect_ms_total)
    select counted.source_id, ${params.day.toISOString()}::timestamptz, counted.connects, counted.failures, counted.connect_ms
    from (values ${values}) as counted (source_id, connects, failures, connect_ms)
    where exists (select 1 from ${supplySources} where ${supplySources.id} = counted.source_id)
    on conflict (source_id, day) do update set
      connects = ${sourceUsageDaily}.connects + excluded.connects,
      failures = ${sourceUsageDaily}.failures + excluded.failures,
      connect_ms_total = ${sourceUsageDaily}.connect_ms_total + excluded.connect_ms_total
  `);
}

/** Raises a source's alarm (the gateway saw a refusal staff must handle); the latest one stands. */
export async function raiseSourceAlarm(
  db: Executor,
  params: { sourceId: string; alarm: string; at: Date },
): Promise<void> {
  await db
    .update(supplySources)
    .set({ alarm: params.alarm.slice(0, 500), alarmAt: params.at })
    .where(eq(supplySources.id, params.sourceId));
}

/** Each source's days in a range (the Supply figures and `bytegate sources list`). */
export async function listSourceUsage(db: Executor, params: { from: Date; to: Date }) {
  return db
    .select()
    .from(sourceUsageDaily)
    .where(
      sql`${sourceUsageDaily.day} >= ${params.from.toISOString()}::timestamptz and ${sourceUsageDaily.day} < ${params.to.toISOString()}::timestamptz`,
    )
    .orderBy(asc(sourceUsageDaily.day));
}
