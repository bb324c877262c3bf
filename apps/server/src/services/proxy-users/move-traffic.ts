import { bytesToGbText, gbToBytes, type ProxyUser, proxyUserMessages } from '@bytegate/contracts/proxy-users';
import { updateProxyUser } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { presentProxyUser } from './present-proxy-user.ts';
import { checkLifetimeCapFits, lockOwnProxyUser } from './proxy-users.ts';

/**
 * Moves traffic between a plan and one of its proxy users with a lifetime cap: to the user raises its
 * cap by that much (out of what the plan has not set aside), back to the plan lowers it (out of what
 * the user has not used). Both run behind the plan's lock, so concurrent moves never hand out a byte
 * twice.
 */
export async function moveProxyUserTraffic(
  ctx: ServiceContext,
  props: { userId: string; proxyUserId: string; direction: 'to_proxy_user' | 'to_plan'; gb: number },
): Promise<ProxyUser> {
  const bytes = gbToBytes(props.gb);
  if (bytes === null) {
    throw new DomainError('VALIDATION_FAILED', proxyUserMessages.moveFormat, { field: 'gb' });
  }
  const row = await ctx.db.transaction(async (tx) => {
    const { plan, proxyUser } = await lockOwnProxyUser(tx, props.userId, props.proxyUserId);
    const cap = proxyUser.trafficCapBytes;
    if (proxyUser.capPeriod !== 'lifetime' || cap === null) {
      throw new DomainError('CONFLICT', proxyUserMessages.moveNotLifetime);
    }
    const unused = Math.max(0, cap - proxyUser.trafficUsedBytes);
    let next: number;
    if (props.direction === 'to_proxy_user') {
      await checkLifetimeCapFits(tx, plan, proxyUser, unused + bytes, 'gb');
      next = cap + bytes;
    } else {
      if (bytes > unused) {
        throw new DomainError('VALIDATION_FAILED', proxyUserMessages.notEnoughOnUser(bytesToGbText(unused)), {
          field: 'gb',
        });
      }
      next = cap - bytes;
    }
    await recordActivity(tx, {
      userId: props.userId,
      kind: 'proxy_user_updated',
      details: { poolType: plan.poolType, login: proxyUser.login, change: 'traffic' },
    });
    return updateProxyUser(tx, {
      proxyUserId: proxyUser.id,
      planId: plan.id,
      set: { trafficCapBytes: next },
    });
  });
  return presentProxyUser(row);
}
