import type { AdminExit } from '@bytegate/contracts/admin-exits';
import { clearExitProbeFailures, insertAuditEntry, lockExit, setExitRotation } from '@bytegate/db/queries';
import type { StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { checkMayChangeInventory, exitNotFound, presentExitWithHealth } from './inventory-access.ts';
import { exitStatusOf } from './present-exit.ts';

/**
 * Puts an exit the health rules took out back into rotation: a running gateway picks it again within a
 * second. Staff do it from the console; the health job does it when a probe through the exit succeeds.
 * Its run of probe failures starts again, so it goes out again only after as many new ones. An exit in
 * rotation is left as it is (nothing recorded).
 */
export async function putExitBackIntoRotation(
  ctx: ServiceContext,
  props: { exitId: string; reason: string; actor: StaffActor },
): Promise<AdminExit> {
  checkMayChangeInventory(props.actor);
  const row = await ctx.db.transaction(async (tx) => {
    const locked = await lockExit(tx, { exitId: props.exitId });
    if (!locked) {
      throw exitNotFound();
    }
    if (!locked.outOfRotationAt) {
      return locked;
    }
    const changed =
      (await setExitRotation(tx, { exitId: locked.id, outOfRotationAt: null, reason: null })) ?? locked;
    await clearExitProbeFailures(tx, { exitId: locked.id });
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'exit.rotation.restore',
      targetType: 'exit',
      targetId: locked.id,
      before: {
        name: locked.name,
        status: exitStatusOf(locked),
        outOfRotationReason: locked.outOfRotationReason,
      },
      after: { name: locked.name, status: exitStatusOf(changed) },
      reason: props.reason,
    });
    return changed;
  });
  return presentExitWithHealth(ctx, row);
}
