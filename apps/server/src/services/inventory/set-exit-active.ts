import type { AdminExit } from '@bytegate/contracts/admin-exits';
import { insertAuditEntry, lockExit, setExitActive as storeExitActive } from '@bytegate/db/queries';
import type { StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { checkMayChangeInventory, exitNotFound, presentExitWithHealth } from './inventory-access.ts';
import { auditedExit } from './present-exit.ts';

/**
 * Switches an exit off (disable) or on again (enable): the operator's own switch, apart from the health
 * rules' rotation. A running gateway stops (or starts) using it within a second; connections already
 * through it carry on. Asking for the state it is in changes nothing and records nothing.
 */
export async function setExitActive(
  ctx: ServiceContext,
  props: { exitId: string; isActive: boolean; reason: string; actor: StaffActor },
): Promise<AdminExit> {
  checkMayChangeInventory(props.actor);
  const row = await ctx.db.transaction(async (tx) => {
    const locked = await lockExit(tx, { exitId: props.exitId });
    if (!locked) {
      throw exitNotFound();
    }
    if (locked.isActive === props.isActive) {
      return locked;
    }
    const changed = (await storeExitActive(tx, { exitId: locked.id, isActive: props.isActive })) ?? locked;
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: props.isActive ? 'exit.enable' : 'exit.disable',
      targetType: 'exit',
      targetId: locked.id,
      before: auditedExit(locked),
      after: auditedExit(changed),
      reason: props.reason,
    });
    return changed;
  });
  return presentExitWithHealth(ctx, row);
}
