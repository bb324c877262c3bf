import type { AdminExit } from '@bytegate/contracts/admin-exits';
import { createExits, insertAuditEntry } from '@bytegate/db/queries';
import type { StaffActor } from '../back-office/staff-actor.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { exitInputSchema, toNewExit } from './exit-input.ts';
import { checkMayChangeInventory, presentExitWithHealth } from './inventory-access.ts';
import { auditedExit } from './present-exit.ts';

/**
 * Adds one exit to the inventory, with its audit entry in the same transaction. The input is read by the
 * same rules as `bytegate exits add` and an import (exit-input.ts); a refusal names the field. A running
 * gateway starts using the exit within a second (the insert bumps the inventory version).
 */
export async function addExit(
  ctx: ServiceContext,
  props: { input: Record<string, unknown>; reason?: string | undefined; actor: StaffActor },
): Promise<AdminExit> {
  checkMayChangeInventory(props.actor);
  const parsed = exitInputSchema.safeParse(props.input);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const field = issue?.path.join('.') || undefined;
    throw new DomainError(
      'VALIDATION_FAILED',
      issue?.message ?? 'The exit is not valid',
      field ? { field } : undefined,
    );
  }
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await createExits(tx, { exits: [toNewExit(parsed.data)] });
    if (!created) {
      throw new Error('exit insert returned no row');
    }
    await insertAuditEntry(tx, {
      actorUserId: props.actor.userId,
      actorEmail: props.actor.email,
      action: 'exit.add',
      targetType: 'exit',
      targetId: created.id,
      before: null,
      after: auditedExit(created),
      reason: props.reason ?? null,
    });
    return created;
  });
  return presentExitWithHealth(ctx, row);
}
