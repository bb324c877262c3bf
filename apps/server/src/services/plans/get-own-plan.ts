import type { Executor } from '@bytegate/db';
import { getPlanById, type PlanRow } from '@bytegate/db/queries';
import { DomainError } from '../domain-error.ts';

/** One of the user's own plans by id; another user's plan is as unknown as a missing one (404). */
export async function getOwnPlan(db: Executor, props: { userId: string; planId: string }): Promise<PlanRow> {
  const plan = await getPlanById(db, props);
  if (!plan) {
    throw new DomainError('NOT_FOUND', 'No plan found');
  }
  return plan;
}
