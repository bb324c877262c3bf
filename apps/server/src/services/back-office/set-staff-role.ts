import type { UserRole } from '@bytegate/contracts/admin';
import { getActiveUserByEmail, insertAuditEntry, setUserRole } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { lockCustomer } from './lock-customer.ts';
import type { StaffActor } from './staff-actor.ts';

/**
 * Gives an account a role: `support` or `admin` grants staff rights, `customer` revokes them (the
 * staff member's sessions keep working, now as a customer's). Only admins and the command line may
 * do it; the change and its audit entry are one transaction. The same role again records nothing.
 */
export async function setStaffRole(
  ctx: ServiceContext,
  props: { email: string; role: UserRole; reason?: string | undefined; actor: StaffActor },
): Promise<{ userId: string; before: UserRole; after: UserRole }> {
  if (props.actor.role !== 'admin') {
    throw new DomainError('FORBIDDEN', 'Only an admin may grant or revoke staff roles');
  }
  const found = await getActiveUserByEmail(ctx.db, { email: props.email.trim().toLowerCase() });
  if (!found) {
    throw new DomainError('NOT_FOUND', `No account has the email ${props.email}`);
  }
  return ctx.db.transaction(async (tx) => {
    const user = await lockCustomer(tx, found.id);
    if (user.role !== props.role) {
      await setUserRole(tx, { userId: user.id, role: props.role });
      await insertAuditEntry(tx, {
        actorUserId: props.actor.userId,
        actorEmail: props.actor.email,
        action: props.role === 'customer' ? 'staff.revoke' : 'staff.grant',
        targetType: 'user',
        targetId: user.id,
        before: { role: user.role },
        after: { role: props.role },
        reason: props.reason ?? null,
      });
    }
    return { userId: user.id, before: user.role, after: props.role };
  });
}
