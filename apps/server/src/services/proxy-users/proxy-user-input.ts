import { allowlistMessages, canonicalIpAddress, isPublicAddress } from '@bytegate/contracts/allowlist';
import { POOL_NAMES } from '@bytegate/contracts/pools';
import { checkProxySettings, savedTargetingFromSettings } from '@bytegate/contracts/proxy-settings';
import { gbToBytes, type ProxyUserFields, proxyUserMessages } from '@bytegate/contracts/proxy-users';
import type { Executor } from '@bytegate/db';
import type { NewProxyUser, PlanRow, ProxyUserRow } from '@bytegate/db/queries';
import { claimAllowlistAddress } from '../allowlist/claim-allowlist-address.ts';
import { DomainError } from '../domain-error.ts';
import { findUnknownTargeting } from '../proxy-settings/geo-options.ts';
import { rowFromSavedTargeting } from '../proxy-settings/saved-targeting.ts';

const invalid = (message: string, field: string) => new DomainError('VALIDATION_FAILED', message, { field });

/** Who writes a proxy user's fields: its account, and the address the request came from (null: unknown). */
export interface ProxyUserWriter {
  userId: string;
  callerAddress: string | null;
}

/**
 * A client's fields for a proxy user, checked against its plan, as the columns to write. On an update
 * (`current` given) an absent field is left as it is and null clears it; the cap and its period are read
 * together, so a cap keeps its period when only the amount changes.
 */
export async function readProxyUserFields(
  db: Executor,
  plan: PlanRow,
  fields: ProxyUserFields,
  writer: ProxyUserWriter,
  current?: ProxyUserRow,
): Promise<Partial<NewProxyUser>> {
  const set: Partial<NewProxyUser> = {};
  if (fields.label !== undefined) {
    set.label = fields.label;
  }
  if (fields.enabled !== undefined) {
    set.isEnabled = fields.enabled;
  }
  if (fields.traffic_cap_gb !== undefined || fields.cap_period !== undefined) {
    let bytes = current?.trafficCapBytes ?? null;
    if (fields.traffic_cap_gb !== undefined) {
      bytes = fields.traffic_cap_gb === null ? null : gbToBytes(fields.traffic_cap_gb);
      if (fields.traffic_cap_gb !== null && bytes === null) {
        throw invalid(proxyUserMessages.capFormat, 'traffic_cap_gb');
      }
    }
    let period = fields.cap_period === undefined ? (current?.capPeriod ?? null) : fields.cap_period;
    if (bytes === null) {
      if (fields.cap_period) {
        throw invalid(proxyUserMessages.capPeriodWithoutCap, 'cap_period');
      }
      period = null;
    } else if (period === null) {
      throw invalid(proxyUserMessages.capPeriodRequired, 'cap_period');
    }
    set.trafficCapBytes = bytes;
    set.capPeriod = period;
  }
  if (fields.threads !== undefined) {
    if (fields.threads !== null && fields.threads < 1) {
      throw invalid(proxyUserMessages.threadsFormat, 'threads');
    }
    if (fields.threads !== null && fields.threads > plan.threadLimit) {
      throw invalid(proxyUserMessages.threadsOverPlan(plan.threadLimit), 'threads');
    }
    set.threadLimit = fields.threads;
  }
  if (fields.targeting !== undefined) {
    set.targeting = fields.targeting === null ? null : await readTargeting(db, plan, fields.targeting);
  }
  if (fields.allowlist !== undefined) {
    Object.assign(set, await readAllowlist(db, fields.allowlist, writer, current));
  }
  return set;
}

/** The Proxy Settings rules and the pool's live inventory, as for the plan's own settings. */
async function readTargeting(
  db: Executor,
  plan: PlanRow,
  input: NonNullable<ProxyUserFields['targeting']>,
): Promise<NonNullable<NewProxyUser['targeting']>> {
  const checked = checkProxySettings(input);
  if (!checked.ok) {
    throw invalid(checked.message, `targeting.${checked.field}`);
  }
  const poolName = POOL_NAMES[plan.poolType];
  const unknown = await findUnknownTargeting(db, plan.poolType, checked.settings, poolName.toLowerCase());
  if (unknown) {
    throw invalid(unknown.message, `targeting.${unknown.field}`);
  }
  return rowFromSavedTargeting(savedTargetingFromSettings(checked.settings));
}

/**
 * The addresses in their canonical form, each once: public ones, or the caller's own whatever it is (as a
 * plan's allowlist). Proved (allowlistVerified) are those proved before and the caller's own: the plan
 * allowlist's rule, and the only ones the gateway lets in without credentials. An address new to the
 * list, or proved now, goes through the same check as a plan's (claimAllowlistAddress): refused once
 * another account proved it.
 */
async function readAllowlist(
  db: Executor,
  addresses: string[],
  writer: ProxyUserWriter,
  current: ProxyUserRow | undefined,
): Promise<{ allowlist: string[]; allowlistVerified: string[] }> {
  const canonical = new Set<string>();
  for (const address of addresses) {
    const value = canonicalIpAddress(address.trim());
    if (value === null) {
      throw invalid(allowlistMessages.invalidAddress, 'allowlist');
    }
    if (value !== writer.callerAddress && !isPublicAddress(value)) {
      throw invalid(allowlistMessages.notPublic, 'allowlist');
    }
    canonical.add(value);
  }
  const listed = new Set(current?.allowlist ?? []);
  const provedBefore = new Set(current?.allowlistVerified ?? []);
  const isProved = (address: string) => provedBefore.has(address) || address === writer.callerAddress;
  // In one order, so two writers taking several addresses' locks never wait on each other in a ring.
  for (const address of [...canonical].sort()) {
    if (!listed.has(address) || (isProved(address) && !provedBefore.has(address))) {
      await claimAllowlistAddress(db, { userId: writer.userId, address, field: 'allowlist' });
    }
  }
  const allowlist = [...canonical];
  return { allowlist, allowlistVerified: allowlist.filter(isProved) };
}
