import { type ProxySettingsResponse, proxySettingsFromSaved } from '@bytegate/contracts/proxy-settings';
import type { ProxySettingsRow } from '@bytegate/db/queries';
import { savedTargetingFromRow } from './saved-targeting.ts';

/** A plan's saved settings as the API answers them (SPEC section 3). */
export function presentProxySettings(
  poolType: ProxySettingsResponse['pool_type'],
  row: ProxySettingsRow,
): ProxySettingsResponse {
  return {
    pool_type: poolType,
    ...proxySettingsFromSaved(savedTargetingFromRow(row)),
    updated_at: row.updatedAt.toISOString(),
  };
}
