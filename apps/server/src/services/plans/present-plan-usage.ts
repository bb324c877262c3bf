import type { PlanUsageResponse } from '@bytegate/contracts/plans';
import type { PlanUsage } from './get-plan-usage.ts';

/** A plan's usage in the API's (snake_case) wire shape. */
export function presentPlanUsage(usage: PlanUsage): PlanUsageResponse {
  return {
    errors_by_code: usage.errorsByCode,
    top_hosts: usage.topHosts,
    period: usage.period,
    since: usage.since.toISOString(),
    total: {
      traffic: usage.totals.bytes,
      extra_traffic: usage.totals.extraBytes,
      requests: usage.totals.requests,
      errors: usage.totals.errors,
    },
  };
}
