import type { PoolType } from '@bytegate/contracts/pools';
import type { ProxySettingsResponse } from '@bytegate/contracts/proxy-settings';
import { getActivePlanForPool, getProxySettings } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { presentProxySettings } from './present-proxy-settings.ts';

export interface GetProxySettingsProps {
  userId: string;
  poolType: PoolType;
}

/**
 * The saved targeting of the user's active plan in a pool. NOT_FOUND when there is no such plan or
 * nothing was saved yet: the client then shows the defaults (SPEC section 4).
 */
export async function getProxySettingsForPool(
  ctx: ServiceContext,
  props: GetProxySettingsProps,
): Promise<ProxySettingsResponse> {
  const plan = await getActivePlanForPool(ctx.db, { userId: props.userId, poolType: props.poolType });
  const row = plan ? await getProxySettings(ctx.db, { planId: plan.id }) : undefined;
  if (!row) {
    throw new DomainError('NOT_FOUND', 'No saved settings: the defaults apply');
  }
  return presentProxySettings(props.poolType, row);
}
