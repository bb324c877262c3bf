import type { AdminExit, ExitStatus } from '@bytegate/contracts/admin-exits';
import type { ExitProbeRow, ExitRow, ExitTrafficTotals } from '@bytegate/db/queries';
import { maskUpstreamUrl } from './exit-input.ts';

// What staff see of an exit: never an upstream proxy's password (shown as ***).

export function exitStatusOf(row: Pick<ExitRow, 'isActive' | 'outOfRotationAt'>): ExitStatus {
  if (!row.isActive) {
    return 'disabled';
  }
  return row.outOfRotationAt ? 'out_of_rotation' : 'active';
}

export function presentExit(
  row: ExitRow,
  probe: ExitProbeRow | null,
  traffic: ExitTrafficTotals | undefined,
): AdminExit {
  const connects = traffic?.connects ?? 0;
  const failures = traffic?.failures ?? 0;
  const attempts = connects + failures;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    pool: row.poolType,
    country: row.country,
    state: row.state,
    city: row.city,
    zip: row.zip,
    asn: row.asn,
    asnName: row.asnName,
    mobileGeneration: row.mobileGeneration,
    localAddress: row.localAddress,
    upstream: row.upstreamUrl ? maskUpstreamUrl(row.upstreamUrl) : null,
    isRisky: row.isRisky,
    status: exitStatusOf(row),
    outOfRotationAt: row.outOfRotationAt?.toISOString() ?? null,
    outOfRotationReason: row.outOfRotationReason,
    createdAt: row.createdAt.toISOString(),
    traffic: {
      connects,
      failures,
      successRate: attempts > 0 ? connects / attempts : null,
      avgConnectMs: connects > 0 ? Math.round((traffic?.connectMsTotal ?? 0) / connects) : null,
      lastError: traffic?.lastError ?? null,
      lastErrorAt: traffic?.lastErrorAt?.toISOString() ?? null,
    },
    probe: probe
      ? {
          checkedAt: probe.checkedAt.toISOString(),
          isOk: probe.isOk,
          connectMs: probe.connectMs,
          error: probe.error,
          consecutiveFailures: probe.consecutiveFailures,
          lastOkAt: probe.lastOkAt?.toISOString() ?? null,
        }
      : null,
  };
}

/** What the audit log keeps of an exit: where it leaves from and whether it carries traffic. */
export function auditedExit(row: ExitRow): Record<string, unknown> {
  return {
    name: row.name,
    pool: row.poolType,
    country: row.country,
    kind: row.kind,
    via: row.localAddress ?? (row.upstreamUrl ? maskUpstreamUrl(row.upstreamUrl) : null),
    status: exitStatusOf(row),
  };
}
