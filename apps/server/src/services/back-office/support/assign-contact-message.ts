import { isStaffRole } from '@bytegate/contracts/admin';
import { getActiveUserById, insertAuditEntry, updateContactMessage } from '@bytegate/db/queries';
import type { ServiceContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';
import type { StaffActor } from '../staff-actor.ts';
import { CONTACT_TARGET_TYPE, lockMessageOr404 } from './lock-contact-message.ts';

/**
 * Gives a message to a staff member (the actor or another), or to nobody (null). Taking a new message
 * opens it: someone is on it now. The change and its audit entry are one transaction; the same
 * assignee again changes nothing and records nothing.
 */
export async function assignContactMessage(
  ctx: ServiceContext,
  props: { messageId: string; assigneeUserId: string | null; actor: StaffActor },
): Promise<void> {
  const assignee = props.assigneeUserId
    ? await getActiveUserById(ctx.db, { userId: props.assigneeUserId })
    : null;
  if (props.assigneeUserId && (!assignee || !isStaffRole(assignee.role) || assignee.disabledAt)) {
    throw new DomainError('VALIDATION_FAILED', 'Assignee must be a staff member whose account is active', {
      field: 'assigneeUserId',
    });
  }
  await ctx.db.transaction(async (tx) => {
    const message = await lockMessageOr404(tx, props.messageId);
    const assigneeUserId = assignee?.id ?? null;
    if (message.assigneeUserId === assigneeUserId) {
      return;
    }
    const before = message.assigneeUserId
      ? await getActiveUserById(tx, { userId: message.assigneeUserId })
      : null;
    const status = message.status === 'new' && assignee ? 'open' : message.status;
    await updateContactMessage(tx, { messageId: message.id, assigneeUserId, status });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'contact.assign',
      targetType: CONTACT_TARGET_TYPE,
      targetId: message.id,
      before: {
        assignee: before?.email ?? null,
        assigneeUserId: message.assigneeUserId,
        status: message.status,
      },
      after: { assignee: assignee?.email ?? null, assigneeUserId, status },
      reason: null,
    });
  });
}
