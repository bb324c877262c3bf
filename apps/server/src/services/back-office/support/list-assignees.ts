import type { AssigneesResponse } from '@bytegate/contracts/admin-support';
import { listAssignableStaff } from '@bytegate/db/queries';
import type { ServiceContext } from '../../context.ts';
import type { StaffActor } from '../staff-actor.ts';
import { presentStaffMember } from './present-support.ts';

/** The staff a message may be assigned to (active support and admins), the actor marked. */
export async function listAssignees(
  ctx: ServiceContext,
  props: { actor: StaffActor },
): Promise<AssigneesResponse> {
  const staff = await listAssignableStaff(ctx.db);
  return {
    assignees: staff.map((row) => ({ ...presentStaffMember(row), isMe: row.id === props.actor.userId })),
  };
}
