import { isPolicyRefusal } from '@bytegate/contracts/stats';
import {
  ALL_CREDENTIALS,
  type CredentialUsage,
  type HostCounts,
  PLAN_LOGIN,
  type ProxyUserMeteredUsage,
} from '@bytegate/db/queries';
import { type PlanUsage, proxyUserIdOfKey } from '@bytegate/gateway';

/**
 * A drain of the meter as the Statistics tables take it: per plan, all its credentials together (`*`),
 * each proxy user that carried traffic, and the plan's own login, which is the plan's total less its
 * proxy users' shares (the meter counts a proxy user's bytes under the plan and under the user). A proxy
 * user the store no longer knows (deleted meanwhile) stays in the plan's total and its own login's share.
 */
export function credentialUsageOf(
  usage: ReadonlyMap<string, PlanUsage>,
  planOfProxyUser: (proxyUserId: string) => string | undefined,
): CredentialUsage[] {
  const rows: CredentialUsage[] = [];
  const ownLogin = new Map<string, CredentialUsage>();
  for (const [key, totals] of usage) {
    if (proxyUserIdOfKey(key) === null) {
      rows.push(toRow(key, ALL_CREDENTIALS, totals));
      ownLogin.set(key, toRow(key, PLAN_LOGIN, totals));
    }
  }
  for (const [key, totals] of usage) {
    const proxyUserId = proxyUserIdOfKey(key);
    const planId = proxyUserId === null ? undefined : planOfProxyUser(proxyUserId);
    if (proxyUserId === null || planId === undefined) {
      continue;
    }
    const row = toRow(planId, proxyUserId, totals);
    rows.push(row);
    const own = ownLogin.get(planId);
    if (own) {
      subtract(own, row);
    }
  }
  return [...rows, ...ownLogin.values()];
}

function toRow(planId: string, credentialKey: string, totals: PlanUsage): CredentialUsage {
  const hosts: Record<string, HostCounts> = {};
  const host = (name: string) => {
    hosts[name] ??= { bytes: 0, requests: 0, errors: 0 };
    return hosts[name];
  };
  for (const [name, bytes] of Object.entries(totals.hostBytes)) {
    host(name).bytes += bytes;
  }
  for (const [name, requests] of Object.entries(totals.hostRequests)) {
    host(name).requests += requests;
  }
  for (const [name, errors] of Object.entries(totals.hostErrors)) {
    host(name).errors += errors;
  }
  let refusals = 0;
  for (const [code, count] of Object.entries(totals.errorsByCode)) {
    if (isPolicyRefusal(code)) {
      refusals += count;
    }
  }
  return {
    planId,
    credentialKey,
    bytes: totals.bytes,
    extraBytes: totals.extraBytes,
    requests: totals.requests,
    errors: totals.errors,
    refusals,
    errorsByCode: { ...totals.errorsByCode },
    hosts,
  };
}

/** Takes a proxy user's share off its plan's own-login row, dropping what comes to zero. */
function subtract(from: CredentialUsage, share: CredentialUsage): void {
  from.bytes -= share.bytes;
  from.extraBytes -= share.extraBytes;
  from.requests -= share.requests;
  from.errors -= share.errors;
  from.refusals -= share.refusals;
  for (const [code, count] of Object.entries(share.errorsByCode)) {
    const left = (from.errorsByCode[code] ?? 0) - count;
    if (left > 0) {
      from.errorsByCode[code] = left;
    } else {
      delete from.errorsByCode[code];
    }
  }
  for (const [name, counts] of Object.entries(share.hosts)) {
    const known = from.hosts[name];
    if (!known) {
      continue;
    }
    known.bytes -= counts.bytes;
    known.requests -= counts.requests;
    known.errors -= counts.errors;
    if (known.bytes <= 0 && known.requests <= 0) {
      delete from.hosts[name];
    }
  }
}

/**
 * The proxy users' shares of a drain, under the cap period they fall in now (the period the hour's
 * bucket is in, as the plan's usage).
 */
export function proxyUserEntries(usage: Map<string, PlanUsage>, now: Date): ProxyUserMeteredUsage[] {
  const entries: ProxyUserMeteredUsage[] = [];
  for (const [key, totals] of usage) {
    const proxyUserId = proxyUserIdOfKey(key);
    if (proxyUserId !== null) {
      entries.push({
        proxyUserId,
        now,
        billedBytes: totals.bytes + totals.extraBytes,
        bytes: totals.bytes,
        extraBytes: totals.extraBytes,
        requests: totals.requests,
        errors: totals.errors,
      });
    }
  }
  return entries;
}
