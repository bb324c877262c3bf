import { and, asc, eq, gt, inArray, isNotNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { users } from '../schema/accounts.ts';
import { agentPresence, agents } from '../schema/agents.ts';

// Exit agents (schema/agents.ts): made and changed by staff, admitted and located by the gateway's hub,
// their presence written by each gateway they are connected to.

export type AgentRow = typeof agents.$inferSelect;
export type NewAgent = typeof agents.$inferInsert;
export type AgentStatus = AgentRow['status'];

/** An agent is online while a gateway saw it within this long (its heartbeat is every 20 s). */
export const AGENT_ONLINE_WITHIN_MS = 60_000;

export async function createAgent(db: Executor, params: { agent: NewAgent }): Promise<AgentRow> {
  const [row] = await db.insert(agents).values(params.agent).returning();
  if (!row) {
    throw new Error('agent insert returned no row');
  }
  return row;
}

/** An agent by its id; `isLocked` holds its row until the transaction ends. */
export async function getAgent(
  db: Executor,
  params: { agentId: string; isLocked?: boolean },
): Promise<AgentRow | undefined> {
  const query = db.select().from(agents).where(eq(agents.id, params.agentId));
  const [row] = params.isLocked ? await query.for('update') : await query;
  return row;
}

export async function getAgentByTokenHash(
  db: Executor,
  params: { tokenHash: string },
): Promise<AgentRow | undefined> {
  const [row] = await db.select().from(agents).where(eq(agents.tokenHash, params.tokenHash));
  return row;
}

export async function setAgentStatus(
  db: Executor,
  params: { agentId: string; status?: AgentStatus; revokedAt?: Date },
): Promise<AgentRow | undefined> {
  const [row] = await db
    .update(agents)
    .set({
      ...(params.status ? { status: params.status } : {}),
      ...(params.revokedAt ? { revokedAt: params.revokedAt } : {}),
    })
    .where(eq(agents.id, params.agentId))
    .returning();
  return row;
}

/** What an admission found: the address, where it is, and the pool given. */
export async function recordAgentAdmission(
  db: Executor,
  params: {
    agentId: string;
    address: string;
    country: string;
    state: string | null;
    city: string | null;
    zip: string | null;
    asn: number | null;
    asnName: string | null;
    poolType: AgentRow['poolType'];
    at: Date;
  },
): Promise<void> {
  const { agentId, at, ...seen } = params;
  await db
    .update(agents)
    .set({
      lastAddress: seen.address,
      country: seen.country,
      state: seen.state,
      city: seen.city,
      zip: seen.zip,
      asn: seen.asn,
      asnName: seen.asnName,
      poolType: seen.poolType,
      firstSeenAt: sql`coalesce(${agents.firstSeenAt}, ${at})`,
      lastSeenAt: at,
    })
    .where(eq(agents.id, agentId));
}

/** Agents connected to one gateway: their rows written (or refreshed) with `seenAt`. */
export async function upsertAgentPresence(
  db: Executor,
  params: {
    gatewayId: string;
    seenAt: Date;
    rows: ReadonlyArray<{ agentId: string; address: string; connectedAt: Date }>;
  },
): Promise<void> {
  if (params.rows.length === 0) {
    return;
  }
  await db
    .insert(agentPresence)
    .values(params.rows.map((row) => ({ ...row, gatewayId: params.gatewayId, seenAt: params.seenAt })))
    .onConflictDoUpdate({
      target: [agentPresence.agentId, agentPresence.gatewayId],
      set: {
        address: sql`excluded.address`,
        connectedAt: sql`excluded.connected_at`,
        seenAt: sql`excluded.seen_at`,
      },
    });
  await db
    .update(agents)
    .set({ lastSeenAt: params.seenAt })
    .where(
      inArray(
        agents.id,
        params.rows.map((row) => row.agentId),
      ),
    );
}

/** An agent left one gateway (the row of another connection of it, elsewhere, stays). */
export async function deleteAgentPresence(
  db: Executor,
  params: { gatewayId: string; agentId: string; address: string },
): Promise<void> {
  await db
    .delete(agentPresence)
    .where(
      and(
        eq(agentPresence.gatewayId, params.gatewayId),
        eq(agentPresence.agentId, params.agentId),
        eq(agentPresence.address, params.address),
      ),
    );
}

/** Presence rows no gateway refreshed for long (crashed gateways'): they count for nothing already. */
export async function pruneAgentPresence(db: Executor, params: { before: Date }): Promise<void> {
  await db.delete(agentPresence).where(lt(agentPresence.seenAt, params.before));
}

/** Of these agents, those that may no longer be connected: revoked, banned or quarantined. */
export async function listAgentsToDisconnect(
  db: Executor,
  params: { agentIds: readonly string[] },
): Promise<Array<{ id: string; status: AgentStatus; isRevoked: boolean }>> {
  if (params.agentIds.length === 0) {
    return [];
  }
  const rows = await db
    .select({ id: agents.id, status: agents.status, revokedAt: agents.revokedAt })
    .from(agents)
    .where(
      and(
        inArray(agents.id, [...params.agentIds]),
        or(isNotNull(agents.revokedAt), ne(agents.status, 'active')),
      ),
    );
  return rows.map((row) => ({ id: row.id, status: row.status, isRevoked: row.revokedAt !== null }));
}

/** Every agent with its partner and whether it is online now (seen by a gateway within a minute). */
export async function listAgentsForAdmin(
  db: Executor,
  params: { now?: Date } = {},
): Promise<Array<AgentRow & { partnerEmail: string; isOnline: boolean; gateways: number }>> {
  const since = new Date((params.now ?? new Date()).getTime() - AGENT_ONLINE_WITHIN_MS);
  const online = db
    .select({
      agentId: agentPresence.agentId,
      gateways: sql<number>`count(*)::int`.as('gateways'),
    })
    .from(agentPresence)
    .where(gt(agentPresence.seenAt, since))
    .groupBy(agentPresence.agentId)
    .as('online');
  const rows = await db
    .select({ agent: agents, partnerEmail: users.email, gateways: online.gateways })
    .from(agents)
    .innerJoin(users, eq(users.id, agents.partnerUserId))
    .leftJoin(online, eq(online.agentId, agents.id))
    .orderBy(asc(users.email), asc(agents.createdAt));
  return rows.map((row) => ({
    ...row.agent,
    partnerEmail: row.partnerEmail,
    isOnline: (row.gateways ?? 0) > 0,
    gateways: row.gateways ?? 0,
  }));
}
