import {
  BLOCKED_CODES,
  type FleetHealthResponse,
  HEALTH_TOP_PLANS,
  HEALTH_WINDOW_HOURS,
  type HealthPlan,
} from '@bytegate/contracts/admin-health';
import {
  countErrorsByCode,
  listPlanOwners,
  listTopPlans,
  listTopPlansByCodes,
  type PlanOwner,
  summarizeExits,
  sumUsageByHour,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';

const HOUR_MS = 60 * 60 * 1000;

const presentPlan = (owner: PlanOwner): HealthPlan => ({
  planId: owner.planId,
  login: owner.login,
  pool: owner.poolType,
  userId: owner.userId,
  email: owner.email,
});

/**
 * The console's abuse and health view over the last 24 hours (the hourly buckets that started in it,
 * this hour's included): the plans with the most traffic and the most errors, refusals by code, hits of
 * blocked hosts, ports and private targets and the plans behind them, requests and errors per hour; and
 * now, the connections the gateway of this process holds (other processes are not counted).
 */
export async function getFleetHealth(ctx: ServiceContext, now = new Date()): Promise<FleetHealthResponse> {
  const thisHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const since = new Date(thisHour - (HEALTH_WINDOW_HOURS - 1) * HOUR_MS);
  const [topByTraffic, topByErrors, errorsByCode, blockedPlans, hours, exits] = await Promise.all([
    listTopPlans(ctx.db, { since, by: 'bytes', limit: HEALTH_TOP_PLANS }),
    listTopPlans(ctx.db, { since, by: 'errors', limit: HEALTH_TOP_PLANS }),
    countErrorsByCode(ctx.db, { since }),
    listTopPlansByCodes(ctx.db, { since, codes: [...BLOCKED_CODES], limit: HEALTH_TOP_PLANS }),
    sumUsageByHour(ctx.db, { since }),
    summarizeExits(ctx.db),
  ]);
  const countOf = (code: string) => errorsByCode.find((entry) => entry.code === code)?.count ?? 0;
  const byHour = new Map(hours.map((hour) => [hour.hour.getTime(), hour]));
  const traffic = (row: (typeof topByTraffic)[number]) => ({
    ...presentPlan(row),
    billedBytes: row.billedBytes,
    requests: row.requests,
    errors: row.errors,
  });
  return {
    since: since.toISOString(),
    topByTraffic: topByTraffic.map(traffic),
    topByErrors: topByErrors.map(traffic),
    errorsByCode,
    blocked: {
      hostHits: countOf('HOST_BLOCKED'),
      portHits: countOf('PORT_BLOCKED'),
      privateHits: countOf('PRIVATE_TARGET'),
      topPlans: blockedPlans.map((row) => ({ ...presentPlan(row), code: row.code, count: row.count })),
    },
    hourly: Array.from({ length: HEALTH_WINDOW_HOURS }, (_, index) => {
      const hour = since.getTime() + index * HOUR_MS;
      const found = byHour.get(hour);
      return {
        hour: new Date(hour).toISOString(),
        requests: found?.requests ?? 0,
        errors: found?.errors ?? 0,
      };
    }),
    connections: await presentConnections(ctx),
    exits: {
      total: exits.total,
      active: exits.active,
      outOfRotation: exits.outOfRotation,
      disabled: exits.disabled,
    },
  };
}

/** This process's gateway connections, the busiest plans named. */
async function presentConnections(ctx: ServiceContext): Promise<FleetHealthResponse['connections']> {
  const connections = ctx.gatewayConnections?.() ?? null;
  if (!connections) {
    return null;
  }
  const busiest = [...connections.byPlan].sort((a, b) => b[1] - a[1]).slice(0, HEALTH_TOP_PLANS);
  const owners = await listPlanOwners(ctx.db, { planIds: busiest.map(([planId]) => planId) });
  const ownerById = new Map(owners.map((owner) => [owner.planId, owner]));
  return {
    open: connections.open,
    authenticating: connections.authenticating,
    topPlans: busiest.flatMap(([planId, count]) => {
      const owner = ownerById.get(planId);
      return owner ? [{ ...presentPlan(owner), connections: count }] : [];
    }),
  };
}
