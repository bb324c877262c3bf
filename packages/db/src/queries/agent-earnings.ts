import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { users } from '../schema/accounts.ts';
import { agents, agentUsageDaily, partnerRates } from '../schema/agents.ts';

export type AgentPool = 'datacenter' | 'residential' | 'mobile';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Adds one usage flush's bytes per agent to the agents' days, with what their partners earned at the
 * rate of each agent's pool in force now (read in this statement). Run in the flush's transaction: its
 * id makes the whole flush count once, so no byte is earned twice whichever gateway sent it. An id that
 * names no agent is left out rather than failing the customers' flush.
 */
export async function addAgentUsage(
  tx: Executor,
  params: { day: Date; deltas: ReadonlyArray<{ agentId: string; carriedBytes: number }> },
): Promise<void> {
  const deltas = params.deltas.filter((delta) => UUID.test(delta.agentId) && delta.carriedBytes > 0);
  if (deltas.length === 0) {
    return;
  }
  const values = sql.join(
    deltas.map((delta) => sql`(${delta.agentId}::uuid, ${delta.carriedBytes}::bigint)`),
    sql`, `,
  );
  await tx.execute(sql`
    insert into ${agentUsageDaily} (agent_id, day, carried_bytes, earned_byte_cents)
    select counted.agent_id, ${params.day.toISOString()}::timestamptz, counted.carried,
      counted.carried::numeric * coalesce(
        (select ${partnerRates.centsPerGb} from ${partnerRates} where ${partnerRates.poolType} = ${agents.poolType}),
        0)
    from (values ${values}) as counted (agent_id, carried)
    join ${agents} on ${agents.id} = counted.agent_id
    on conflict (agent_id, day) do update set
      carried_bytes = ${agentUsageDaily}.carried_bytes + excluded.carried_bytes,
      earned_byte_cents = ${agentUsageDaily}.earned_byte_cents + excluded.earned_byte_cents
  `);
}

export interface PartnerRateRow {
  poolType: AgentPool;
  centsPerGb: number;
  updatedAt: Date;
}

export async function listPartnerRates(db: Executor): Promise<PartnerRateRow[]> {
  return db.select().from(partnerRates).orderBy(partnerRates.poolType);
}

/** Sets a pool's rate; answers the one it replaced (null: the pool had none). */
export async function setPartnerRate(
  db: Executor,
  params: { poolType: AgentPool; centsPerGb: number },
): Promise<number | null> {
  const [before] = await db
    .select({ centsPerGb: partnerRates.centsPerGb })
    .from(partnerRates)
    .where(eq(partnerRates.poolType, params.poolType));
  await db
    .insert(partnerRates)
    .values({ poolType: params.poolType, centsPerGb: params.centsPerGb })
    .onConflictDoUpdate({
      target: partnerRates.poolType,
      set: { centsPerGb: params.centsPerGb, updatedAt: sql`now()` },
    });
  return before?.centsPerGb ?? null;
}

export interface AgentEarningsRow {
  agentId: string;
  agentName: string;
  partnerEmail: string;
  day: Date;
  carriedBytes: number;
  /** Bytes × cents per GB: divided by 1024³, cents (exact). */
  earnedByteCents: bigint;
}

/** Agents' days from `from` (inclusive), a partner's alone when given, newest first. */
export async function listAgentEarnings(
  db: Executor,
  params: { from: Date; partnerEmail?: string | undefined },
): Promise<AgentEarningsRow[]> {
  return db
    .select({
      agentId: agentUsageDaily.agentId,
      agentName: agents.name,
      partnerEmail: users.email,
      day: agentUsageDaily.day,
      carriedBytes: agentUsageDaily.carriedBytes,
      earnedByteCents: agentUsageDaily.earnedByteCents,
    })
    .from(agentUsageDaily)
    .innerJoin(agents, eq(agents.id, agentUsageDaily.agentId))
    .innerJoin(users, eq(users.id, agents.partnerUserId))
    .where(
      and(
        gte(agentUsageDaily.day, params.from),
        params.partnerEmail ? sql`lower(${users.email}) = lower(${params.partnerEmail})` : undefined,
      ),
    )
    .orderBy(desc(agentUsageDaily.day), users.email, agents.name);
}
