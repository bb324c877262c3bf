import {
  deleteExitTrafficBefore,
  deleteIdempotentRequestsBefore,
  deleteUsageBefore,
  deleteUsageFlushesBefore,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../services/context.ts';

const KEEP_USAGE_MS = 30 * 24 * 60 * 60 * 1000;
/** A flush's id matters only until the gateway has asked about it, seconds after a failure. */
const KEEP_FLUSH_IDS_MS = 24 * 60 * 60 * 1000;

/**
 * Usage aggregates (and exits' traffic health) are kept 30 days (ARCHITECTURE, "The gateway"); flush ids
 * and the public API's idempotency keys a day (a retry comes within minutes).
 */
export async function pruneUsage(ctx: ServiceContext, now = new Date()): Promise<void> {
  await deleteUsageBefore(ctx.db, { before: new Date(now.getTime() - KEEP_USAGE_MS) });
  await deleteExitTrafficBefore(ctx.db, { before: new Date(now.getTime() - KEEP_USAGE_MS) });
  await deleteUsageFlushesBefore(ctx.db, { before: new Date(now.getTime() - KEEP_FLUSH_IDS_MS) });
  await deleteIdempotentRequestsBefore(ctx.db, { before: new Date(now.getTime() - KEEP_FLUSH_IDS_MS) });
}
