import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import type { DashboardStats } from '@bytegate/contracts/dashboard';
import type { OverviewStats } from './get-overview-stats.ts';

/** The overview's metrics as the dashboard shows them: GB to two decimals, the error rate in percent. */
export function presentOverviewStats(stats: OverviewStats): { metrics: DashboardStats } {
  return {
    metrics: {
      activePlans: stats.activePlans,
      totalAvailableGb: Math.round((stats.leftBytes / BYTES_PER_GB) * 100) / 100,
      errorRate: stats.requests === 0 ? 0 : Math.round((stats.errors / stats.requests) * 1000) / 10,
      totalRequests: stats.requests,
      totalErrors: stats.errors,
    },
  };
}
