import { POOL_NAMES, type PoolType } from '@bytegate/contracts/pools';
import {
  checkProxySettings,
  type ProxySettingsInput,
  type ProxySettingsResponse,
  savedTargetingFromSettings,
} from '@bytegate/contracts/proxy-settings';
import { getActivePlanForPool, saveProxySettings } from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { findUnknownTargeting } from './geo-options.ts';
import { presentProxySettings } from './present-proxy-settings.ts';
import { rowFromSavedTargeting } from './saved-targeting.ts';

export interface SaveProxySettingsProps {
  userId: string;
  poolType: PoolType;
  /** The settings as the client sent them: lists as arrays or text, the interval as typed. */
  input: ProxySettingsInput;
}

/**
 * Saves the targeting of the user's active plan in a pool: the rules of SPEC section 5 (the contracts'
 * `checkProxySettings`, the same the form runs), then every code checked against the pool's live
 * inventory, then one write that also touches the plan, so the gateways pick the change up within a
 * second. Refusals are VALIDATION_FAILED with the setting they are about (`field`); no plan is NOT_FOUND.
 */
export async function saveProxySettingsForPool(
  ctx: ServiceContext,
  props: SaveProxySettingsProps,
): Promise<ProxySettingsResponse> {
  const checked = checkProxySettings(props.input);
  if (!checked.ok) {
    throw new DomainError('VALIDATION_FAILED', checked.message, { field: checked.field });
  }
  const poolName = POOL_NAMES[props.poolType];
  const plan = await getActivePlanForPool(ctx.db, { userId: props.userId, poolType: props.poolType });
  if (!plan) {
    throw new DomainError('NOT_FOUND', `No active ${poolName} plan: buy one in Plans first`);
  }
  const { settings } = checked;
  const unknown = await findUnknownTargeting(ctx.db, props.poolType, settings, poolName.toLowerCase());
  if (unknown) {
    throw new DomainError('VALIDATION_FAILED', unknown.message, { field: unknown.field });
  }
  // One row per plan, upserted: the last save wins, and no lock is needed beyond the row's own.
  const row = await ctx.db.transaction(async (tx) => {
    const saved = await saveProxySettings(tx, {
      planId: plan.id,
      settings: rowFromSavedTargeting(savedTargetingFromSettings(settings)),
    });
    await recordActivity(tx, {
      userId: props.userId,
      kind: 'proxy_settings_saved',
      details: { poolType: props.poolType },
    });
    return saved;
  });
  return presentProxySettings(props.poolType, row);
}
