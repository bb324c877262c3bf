import { listPlanAllowlist } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { getOwnPlan } from '../plans/get-own-plan.ts';

export interface AllowlistedAddress {
  address: string;
  createdAt: Date;
  /** Proved by a request from this address: only then does it let traffic in without credentials. */
  isVerified: boolean;
}

/** The client addresses one of the user's plans lets in without credentials. */
export async function listAllowlist(
  ctx: ServiceContext,
  props: { userId: string; planId: string },
): Promise<AllowlistedAddress[]> {
  const plan = await getOwnPlan(ctx.db, props);
  return listPlanAllowlist(ctx.db, { planId: plan.id });
}
