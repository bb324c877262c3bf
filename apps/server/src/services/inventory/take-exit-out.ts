import { insertAuditEntry, lockExit, setExitRotation } from '@bytegate/db/queries';
import type { StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { checkMayChangeInventory } from './inventory-access.ts';
import { exitStatusOf } from './present-exit.ts';

/**
 * Takes an exit out of rotation (the health job, when it keeps failing): a running gateway stops picking
 * it within a second, and the console shows it as such. `isActive`, the operator's switch, is left as it
 * is. An exit that is switched off, already out, or gone is left alone: answers whether it went out.
 */
export async function takeExitOutOfRotation(
  ctx: ServiceContext,
  props: { exitId: string; reason: string; actor: StaffActor; now?: Date },
): Promise<boolean> {
  checkMayChangeInventory(props.actor);
  return ctx.db.transaction(async (tx) => {
    const locked = await lockExit(tx, { exitId: props.exitId });
    if (!locked?.isActive || locked.outOfRotationAt) {
      return false;
    }
    const changed = await setExitRotation(tx, {
      exitId: locked.id,
      outOfRotationAt: props.now ?? new Date(),
      reason: props.reason,
    });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'exit.rotation.out',
      targetType: 'exit',
      targetId: locked.id,
      before: { name: locked.name, status: exitStatusOf(locked) },
      after: {
        name: locked.name,
        status: changed ? exitStatusOf(changed) : 'out_of_rotation',
        outOfRotationReason: props.reason,
      },
      reason: props.reason,
    });
    return true;
  });
}
