import { deleteExit, insertAuditEntry, lockExit } from '@bytegate/db/queries';
import type { StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { checkMayChangeInventory, exitNotFound } from './inventory-access.ts';
import { auditedExit } from './present-exit.ts';

/**
 * Removes an exit from the inventory, with its probe and traffic health (they cascade); the audit entry
 * keeps what it was. A running gateway stops using it within a second; a sticky session on it moves to
 * another exit.
 */
export async function removeExit(
  ctx: ServiceContext,
  props: { exitId: string; reason?: string | undefined; actor: StaffActor },
): Promise<void> {
  checkMayChangeInventory(props.actor);
  await ctx.db.transaction(async (tx) => {
    const locked = await lockExit(tx, { exitId: props.exitId });
    if (!locked) {
      throw exitNotFound();
    }
    await deleteExit(tx, { exitId: locked.id });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'exit.remove',
      targetType: 'exit',
      targetId: locked.id,
      before: auditedExit(locked),
      after: null,
      reason: props.reason ?? null,
    });
  });
}
