import { isStaffRole } from '@bytegate/contracts/admin';
import {
  type AgentRow,
  createAgent,
  getActiveUserByEmail,
  insertAuditEntry,
  lockUser,
  setUserRole,
} from '@bytegate/db/queries';
import type { StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { checkMayChangeInventory } from '../inventory/inventory-access.ts';
import { makeAgentToken } from './agent-tokens.ts';

const NAME_MAX_LENGTH = 100;

/**
 * Makes an agent for a partner and answers its token (shown once: only its hash is kept). The account
 * must exist; a customer becomes a partner by it (a partner may still do all a customer does), a staff
 * account cannot own agents. The agent, the role and the audit entry are one transaction.
 */
export async function createAgentToken(
  ctx: ServiceContext,
  props: { partnerEmail: string; name?: string | undefined; reason?: string | undefined; actor: StaffActor },
): Promise<{ agent: AgentRow; token: string }> {
  checkMayChangeInventory(props.actor, 'agents');
  const name = props.name?.trim() || null;
  if (name !== null && name.length > NAME_MAX_LENGTH) {
    throw new DomainError('VALIDATION_FAILED', `Name must be at most ${NAME_MAX_LENGTH} characters`, {
      field: 'name',
    });
  }
  const found = await getActiveUserByEmail(ctx.db, { email: props.partnerEmail.trim().toLowerCase() });
  if (!found) {
    throw new DomainError('NOT_FOUND', `No account has the email ${props.partnerEmail}`);
  }
  if (isStaffRole(found.role)) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `${found.email} is a staff account (${found.role}): agents belong to partner accounts`,
      { field: 'partner' },
    );
  }
  if (found.disabledAt) {
    throw new DomainError('VALIDATION_FAILED', `${found.email} is disabled`, { field: 'partner' });
  }
  const { token, tokenHash, tokenPrefix } = makeAgentToken();
  const agent = await ctx.db.transaction(async (tx) => {
    const user = await lockUser(tx, { userId: found.id });
    if (!user || isStaffRole(user.role)) {
      throw new DomainError('CONFLICT', `${found.email} changed meanwhile: try again`);
    }
    if (user.role !== 'partner') {
      await setUserRole(tx, { userId: user.id, role: 'partner' });
    }
    const created = await createAgent(tx, {
      agent: { partnerUserId: user.id, name: name ?? `agent ${tokenPrefix}`, tokenHash, tokenPrefix },
    });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'agent.token',
      targetType: 'agent',
      targetId: created.id,
      before: { role: user.role },
      after: { partner: user.email, role: 'partner', name: created.name, tokenPrefix },
      reason: props.reason ?? null,
    });
    return created;
  });
  return { agent, token };
}
