import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import type { ProxyUser } from '@bytegate/contracts/proxy-users';
import { capPeriodStart, type ProxyUserRow, usedInPeriod } from '@bytegate/db/queries';

/** A proxy user as the public API and the dashboard show it, its usage as of `now`. */
export function presentProxyUser(row: ProxyUserRow, now = new Date()): ProxyUser {
  const cap = row.trafficCapBytes;
  const period = row.capPeriod;
  const used = usedInPeriod(row, now);
  const periodStart = period === null ? null : capPeriodStart(period, now);
  const targeting = row.targeting;
  return {
    id: row.id,
    plan_id: row.planId,
    login: row.login,
    password: row.password,
    label: row.label,
    enabled: row.isEnabled,
    traffic_cap:
      cap === null || period === null
        ? null
        : { bytes: cap, gb: Number((cap / BYTES_PER_GB).toFixed(3)), period },
    threads: row.threadLimit,
    usage: {
      period_used_bytes: used,
      period_start: periodStart?.toISOString() ?? null,
      cap_left_bytes: cap === null ? null : Math.max(0, cap - used),
      lifetime_used_bytes: row.trafficUsedBytes,
    },
    targeting: targeting
      ? {
          countries: targeting.countries,
          states: targeting.states,
          cities: targeting.cities,
          zipcodes: targeting.zipcodes,
          asns: targeting.asns,
          exclude_countries: targeting.excludeCountries,
          exclude_asn: targeting.excludeAsns,
          anonymous_filter: targeting.anonymousFilter,
          rotation_interval: targeting.rotationMinutes,
        }
      : null,
    allowlist: row.allowlist,
    allowlist_verified: row.allowlistVerified,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
