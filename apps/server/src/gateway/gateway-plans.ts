import type { listPlansForGateway } from '@bytegate/db/queries';
import { type AllowlistEntry, DomainSet, type PlanAccess } from '@bytegate/gateway';
import { savedTargetingFromRow } from '../services/proxy-settings/saved-targeting.ts';

// Plans as the gateway holds them: a plan's row read for the gateway, and the plans' allowlist entries.

/** A plan's row as listPlansForGateway reads it. */
export type GatewayPlanRow = Awaited<ReturnType<typeof listPlansForGateway>>[number];

/** What the gateway checks a connection against, from the plan's row. */
export function planAccessOf(row: GatewayPlanRow): PlanAccess {
  return {
    planId: row.planId,
    login: row.login,
    password: row.password,
    poolType: row.poolType,
    threadLimit: row.threadLimit,
    trafficLeftBytes: row.trafficTotalBytes - row.trafficUsedBytes,
    // A disabled owner's plans stop like deactivated ones (open tunnels close within 2 s).
    isActive: row.isActive && row.ownerDisabledAt === null,
    unblocks:
      row.unblockedPorts.length > 0 || row.unblockedHosts.length > 0
        ? { ports: new Set(row.unblockedPorts), hosts: new DomainSet(row.unblockedHosts) }
        : undefined,
    saved: row.settings ? savedTargetingFromRow(row.settings) : undefined,
  };
}

/** Plans' allowlist entries as the gateway's one rule takes them (entries of unknown plans left out). */
export function planAllowlistEntries(
  rows: ReadonlyArray<{ address: string; planId: string; isVerified: boolean }>,
  plansById: ReadonlyMap<string, PlanAccess>,
): AllowlistEntry[] {
  const entries: AllowlistEntry[] = [];
  for (const row of rows) {
    const plan = plansById.get(row.planId);
    if (plan) {
      entries.push({
        address: row.address,
        planId: row.planId,
        isProved: row.isVerified,
        isActive: plan.isActive,
      });
    }
  }
  return entries;
}
