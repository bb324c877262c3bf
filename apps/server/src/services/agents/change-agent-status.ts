import type { AuditAction } from '@bytegate/contracts/admin';
import { type AgentRow, getAgent, insertAuditEntry, setAgentStatus } from '@bytegate/db/queries';
import type { StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { checkMayChangeInventory } from '../inventory/inventory-access.ts';

/**
 * What staff do to an agent: revoke its token (for good), ban it (for good: refused with its reason),
 * quarantine it (held out, it may come back) or release it from quarantine.
 */
export type AgentStatusChange = 'revoke' | 'ban' | 'quarantine' | 'release';

const ACTIONS: Record<AgentStatusChange, AuditAction> = {
  revoke: 'agent.revoke',
  ban: 'agent.ban',
  quarantine: 'agent.quarantine',
  release: 'agent.release',
};

/** The row after a change, or null when the change would change nothing; throws when it cannot be. */
function applied(agent: AgentRow, change: AgentStatusChange, now: Date): Partial<AgentRow> | null {
  switch (change) {
    case 'revoke':
      return agent.revokedAt ? null : { revokedAt: now };
    case 'ban':
      return agent.status === 'banned' ? null : { status: 'banned' };
    case 'quarantine':
      if (agent.status === 'banned') {
        throw new DomainError('CONFLICT', `Agent ${agent.id} is banned: quarantine would let it back later`);
      }
      return agent.status === 'quarantined' ? null : { status: 'quarantined' };
    case 'release':
      if (agent.status === 'banned') {
        throw new DomainError('CONFLICT', `Agent ${agent.id} is banned, not quarantined: a ban is for good`);
      }
      return agent.status === 'active' ? null : { status: 'active' };
  }
}

/**
 * Changes an agent's standing, with its audit entry, in one transaction. A gateway it is connected to
 * reads the change within about a second and disconnects it (revoked, banned, quarantined); a released
 * agent is let in again at its next attempt. The same change again changes nothing and records nothing.
 */
export async function changeAgentStatus(
  ctx: ServiceContext,
  props: { agentId: string; change: AgentStatusChange; reason?: string | undefined; actor: StaffActor },
): Promise<{ agent: AgentRow; isChanged: boolean }> {
  checkMayChangeInventory(props.actor, 'agents');
  return ctx.db.transaction(async (tx) => {
    const agent = await getAgent(tx, { agentId: props.agentId, isLocked: true });
    if (!agent) {
      throw new DomainError('NOT_FOUND', `No agent has the id ${props.agentId}`);
    }
    const after = applied(agent, props.change, new Date());
    if (after === null) {
      return { agent, isChanged: false };
    }
    const changed =
      (await setAgentStatus(tx, {
        agentId: agent.id,
        ...(after.status ? { status: after.status } : {}),
        ...(after.revokedAt ? { revokedAt: after.revokedAt } : {}),
      })) ?? agent;
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: ACTIONS[props.change],
      targetType: 'agent',
      targetId: agent.id,
      before: { status: agent.status, revokedAt: agent.revokedAt },
      after: { status: changed.status, revokedAt: changed.revokedAt },
      reason: props.reason ?? null,
    });
    return { agent: changed, isChanged: true };
  });
}
