import { deleteEndedSessions } from '@bytegate/db/queries';
import type { ServiceContext } from '../services/context.ts';

const KEEP_ENDED_MS = 7 * 24 * 60 * 60 * 1000;

/** Deletes sessions that expired or were revoked more than a week ago. */
export async function pruneSessions(ctx: ServiceContext, now = new Date()): Promise<void> {
  await deleteEndedSessions(ctx.db, { before: new Date(now.getTime() - KEEP_ENDED_MS) });
}
