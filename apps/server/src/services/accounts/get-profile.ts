import type { ProfileResponse } from '@bytegate/contracts/account';
import { getActiveUserById, getPendingEmailChange, type UserRow } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { presentUser } from './present-user.ts';

/** The profile User Settings shows: the user, and the new address a change of email waits on. */
export async function getProfile(ctx: ServiceContext, props: { userId: string }): Promise<ProfileResponse> {
  const user = await getActiveUserById(ctx.db, { userId: props.userId });
  if (!user) {
    throw new DomainError('UNAUTHENTICATED', 'Your account no longer exists');
  }
  return presentProfile(ctx, user);
}

export async function presentProfile(ctx: ServiceContext, user: UserRow): Promise<ProfileResponse> {
  const pending = await getPendingEmailChange(ctx.db, {
    userId: user.id,
    currentEmail: user.email,
    now: new Date(),
  });
  return { user: presentUser(user), pendingEmail: pending?.email ?? null };
}
