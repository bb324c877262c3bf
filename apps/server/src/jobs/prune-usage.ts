import { DAILY_RETENTION_DAYS, HOURLY_RETENTION_DAYS } from '@bytegate/contracts/stats';
import {
  deleteExitRemovalsBefore,
  deleteExitTrafficBefore,
  deleteIdempotentRequestsBefore,
  deleteUsageBefore,
  deleteUsageFlushesBefore,
  pruneUsageStats,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../services/context.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const KEEP_USAGE_MS = 30 * DAY_MS;
/** A flush's id matters only until the gateway has asked about it, seconds after a failure. */
const KEEP_FLUSH_IDS_MS = 24 * 60 * 60 * 1000;

/**
 * Usage aggregates (and exits' traffic health) are kept 30 days (ARCHITECTURE, "The gateway"); the
 * Statistics' hourly rows 90 days and their daily rows 13 months; flush ids and the public API's
 * idempotency keys a day (a retry comes within minutes); removed exits a day (gateways read them within
 * a second; one that was away longer reads the whole inventory).
 */
export async function pruneUsage(ctx: ServiceContext, now = new Date()): Promise<void> {
  await deleteUsageBefore(ctx.db, { before: new Date(now.getTime() - KEEP_USAGE_MS) });
  await deleteExitTrafficBefore(ctx.db, { before: new Date(now.getTime() - KEEP_USAGE_MS) });
  await pruneUsageStats(ctx.db, {
    hourlyBefore: new Date(now.getTime() - HOURLY_RETENTION_DAYS * DAY_MS),
    dailyBefore: new Date(now.getTime() - DAILY_RETENTION_DAYS * DAY_MS),
  });
  await deleteUsageFlushesBefore(ctx.db, { before: new Date(now.getTime() - KEEP_FLUSH_IDS_MS) });
  await deleteIdempotentRequestsBefore(ctx.db, { before: new Date(now.getTime() - KEEP_FLUSH_IDS_MS) });
  await deleteExitRemovalsBefore(ctx.db, { before: new Date(now.getTime() - KEEP_FLUSH_IDS_MS) });
}
