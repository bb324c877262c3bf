import { EXITS_PAGE_SIZE, type ExitStatus, type ExitsResponse } from '@bytegate/contracts/admin-exits';
import type { PoolType } from '@bytegate/contracts/pools';
import { listExitsPage, sumExitTraffic, summarizeExits } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { TRAFFIC_WINDOW_MS } from './inventory-access.ts';
import { presentExit } from './present-exit.ts';

/**
 * One page of the inventory under the console's filters (pool, country, status, part of the name), each
 * exit with its last probe and its last 24 hours of real traffic; with the whole inventory's counts by
 * status and the probe's settings.
 */
export async function listExits(
  ctx: ServiceContext,
  props: {
    pool?: PoolType | undefined;
    country?: string | undefined;
    status?: ExitStatus | undefined;
    q: string;
    page: number;
    now?: Date;
  },
): Promise<ExitsResponse> {
  const now = props.now ?? new Date();
  const [{ rows, total }, summary] = await Promise.all([
    listExitsPage(ctx.db, {
      filter: { poolType: props.pool, country: props.country, status: props.status, name: props.q },
      limit: EXITS_PAGE_SIZE,
      offset: (props.page - 1) * EXITS_PAGE_SIZE,
    }),
    summarizeExits(ctx.db),
  ]);
  const traffic = await sumExitTraffic(ctx.db, {
    since: new Date(now.getTime() - TRAFFIC_WINDOW_MS),
    exitIds: rows.map((row) => row.exit.id),
  });
  const trafficById = new Map(traffic.map((entry) => [entry.exitId, entry]));
  const probe = ctx.config.exitProbe;
  return {
    exits: rows.map((row) => presentExit(row.exit, row.probe, trafficById.get(row.exit.id))),
    pagination: {
      currentPage: props.page,
      totalPages: Math.max(1, Math.ceil(total / EXITS_PAGE_SIZE)),
      totalItems: total,
      itemsPerPage: EXITS_PAGE_SIZE,
    },
    summary,
    probing: probe ? { target: probe.url, intervalSeconds: probe.intervalSeconds } : null,
  };
}
