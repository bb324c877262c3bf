import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import { centsToDollars } from '@bytegate/contracts/money';
import {
  fireLowBalanceAlerts,
  fireLowTrafficAlerts,
  rearmLowBalanceAlerts,
  rearmLowTrafficAlerts,
} from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { notify } from './notify.ts';

/**
 * The jobs' pass over thresholds: re-arms the alerts whose plan or balance is back above (a purchase, a
 * top-up), then fires those now under, each with its notification, in one transaction. An alert fires
 * once per crossing: its row is marked as it fires, so however many usage flushes or passes (or jobs
 * processes) follow, the next firing needs the plan to rise above and fall under again.
 */
export async function checkAlerts(
  ctx: ServiceContext,
  now: Date = new Date(),
): Promise<{ lowTraffic: number; lowBalance: number }> {
  return ctx.db.transaction(async (tx) => {
    await rearmLowTrafficAlerts(tx);
    await rearmLowBalanceAlerts(tx);
    const traffic = await fireLowTrafficAlerts(tx, { now });
    for (const alert of traffic) {
      await notify(tx, {
        userId: alert.userId,
        kind: 'low_traffic',
        data: {
          plan_id: alert.planId,
          pool_type: alert.poolType,
          traffic_left_bytes: Math.max(0, alert.trafficTotalBytes - alert.trafficUsedBytes),
          traffic_total_bytes: alert.trafficTotalBytes,
          threshold:
            alert.thresholdBytes !== null
              ? { gb: Number((alert.thresholdBytes / BYTES_PER_GB).toFixed(3)) }
              : { percent_used: alert.thresholdPercent ?? 0 },
        },
      });
    }
    const balances = await fireLowBalanceAlerts(tx);
    for (const alert of balances) {
      await notify(tx, {
        userId: alert.userId,
        kind: 'low_balance',
        data: {
          balance_usd: centsToDollars(alert.balanceCents),
          threshold_usd: centsToDollars(alert.thresholdCents),
        },
      });
    }
    return { lowTraffic: traffic.length, lowBalance: balances.length };
  });
}
