import { z } from 'zod';

/** Days the overview chart and the 30-day metrics cover (usage older than this is deleted). */
export const USAGE_WINDOW_DAYS = 30;

export const dashboardStatsResponseSchema = z.object({
  metrics: z.object({
    activePlans: z.number().int(),
    totalAvailableGb: z.number(),
    errorRate: z.number(),
    totalRequests: z.number().int(),
    totalErrors: z.number().int(),
  }),
});
export type DashboardStats = z.infer<typeof dashboardStatsResponseSchema>['metrics'];

export const dailyTrafficSchema = z.object({
  /** UTC day, YYYY-MM-DD. */
  day: z.string(),
  /** Bytes carried, both directions. */
  bytes: z.number().int(),
  /** Bytes billed on top for target filters. */
  extraBytes: z.number().int(),
  requests: z.number().int(),
  errors: z.number().int(),
});
export type DailyTraffic = z.infer<typeof dailyTrafficSchema>;

/** One entry per day, oldest first, today last; days without traffic are zeros. */
export const dashboardTrafficResponseSchema = z.object({ days: z.array(dailyTrafficSchema) });
export type DashboardTrafficResponse = z.infer<typeof dashboardTrafficResponseSchema>;

/** The last `count` UTC days ending with the one `now` falls in, as YYYY-MM-DD, oldest first. */
export function lastUtcDays(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) =>
    new Date(today - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}
