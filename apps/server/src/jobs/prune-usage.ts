import { deleteUsageBefore } from '@bytegate/db/queries';
import type { ServiceContext } from '../services/context.ts';

const KEEP_USAGE_MS = 30 * 24 * 60 * 60 * 1000;

/** Usage aggregates are kept 30 days (ARCHITECTURE, "The gateway"). */
export async function pruneUsage(ctx: ServiceContext, now = new Date()): Promise<void> {
  await deleteUsageBefore(ctx.db, { before: new Date(now.getTime() - KEEP_USAGE_MS) });
}
