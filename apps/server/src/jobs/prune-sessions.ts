import {
  deleteEndedOidcFlows,
  deleteEndedSessions,
  deleteEndedSignInChallenges,
  deleteStaleTrustedDevices,
} from '@bytegate/db/queries';
import { TRUSTED_DEVICE_TTL_MS } from '../services/accounts/trusted-devices.ts';
import type { ServiceContext } from '../services/context.ts';

const KEEP_ENDED_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Deletes sessions that expired or were revoked more than a week ago, and trusted devices whose cookie
 * has run out (not seen for as long as it lives), and sign-in challenges (two-factor) and Google
 * authorizations (`oidc_flows`) that expired a day ago.
 */
export async function pruneSessions(ctx: ServiceContext, now = new Date()): Promise<void> {
  await deleteEndedSessions(ctx.db, { before: new Date(now.getTime() - KEEP_ENDED_MS) });
  await deleteStaleTrustedDevices(ctx.db, { before: new Date(now.getTime() - TRUSTED_DEVICE_TTL_MS) });
  await deleteEndedSignInChallenges(ctx.db, { before: new Date(now.getTime() - 24 * 60 * 60 * 1000) });
  await deleteEndedOidcFlows(ctx.db, { before: new Date(now.getTime() - 24 * 60 * 60 * 1000) });
}
