import { POOL_NAMES } from '@bytegate/contracts/pools';
import type { PlanRow, ThreadRequestRow, UserRow } from '@bytegate/db/queries';
import { threadRequestDecision } from '../../../mail/templates.ts';
import type { MailContext } from '../../context.ts';
import { DomainError } from '../../domain-error.ts';

/**
 * Mails the customer staff's decision, once it is committed: a mail server never holds the plan's row
 * lock (on PGlite, the whole database). When the mail cannot go, the decision still stands, and the
 * refusal says so: the customer reads the answer in their dashboard either way.
 */
export async function notifyThreadRequestDecision(
  ctx: MailContext,
  decided: { request: ThreadRequestRow; plan: PlanRow; owner: UserRow | null },
): Promise<void> {
  const { request, plan, owner } = decided;
  // A deleted account has no one left to tell.
  if (!owner) {
    return;
  }
  const content = threadRequestDecision({
    name: owner.firstName,
    planLabel: `${POOL_NAMES[plan.poolType]} (${plan.login})`,
    approved: request.status === 'approved',
    threadLimit: plan.threadLimit,
    message: request.decisionMessage,
  });
  try {
    await ctx.mailer.send({ to: owner.email, ...content });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'UPSTREAM_UNAVAILABLE') {
      const why = error.message.replace(/^The message was not sent: /, '').replace(/\.$/, '');
      throw new DomainError(
        'UPSTREAM_UNAVAILABLE',
        `The request was ${request.status}, but the email to the customer was not sent (${why}). They see the answer in their dashboard.`,
      );
    }
    throw error;
  }
}
