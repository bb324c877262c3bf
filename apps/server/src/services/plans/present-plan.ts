import type { Plan } from '@bytegate/contracts/billing';
import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import type { PlanRow } from '@bytegate/db/queries';

/** Traffic for people: bytes to GB with two decimals ('12.50 GB'). */
export function formatGb(bytes: number): string {
  return `${(bytes / BYTES_PER_GB).toFixed(2)} GB`;
}

export function presentPlan(row: PlanRow): Plan {
  const leftBytes = Math.max(0, row.trafficTotalBytes - row.trafficUsedBytes);
  return {
    subUserId: row.id,
    poolType: row.poolType,
    label: row.label,
    login: row.login,
    password: row.password,
    threads: row.threadLimit,
    balance: leftBytes,
    balanceFormat: formatGb(leftBytes),
    trafficTotalBytes: row.trafficTotalBytes,
    trafficUsedBytes: row.trafficUsedBytes,
    active: row.isActive,
    createdAt: row.createdAt.toISOString(),
  };
}
