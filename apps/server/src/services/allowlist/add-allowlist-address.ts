import { allowlistMessages, isPublicAddress, MAX_ALLOWLIST_ADDRESSES } from '@bytegate/contracts/allowlist';
import { POOL_NAMES } from '@bytegate/contracts/pools';
import {
  addPlanAllowlistAddress,
  countPlanAllowlist,
  findUserAllowlistEntry,
  lockPlanForPool,
  lockUserBalance,
  verifyPlanAllowlistAddress,
} from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { getOwnPlan } from '../plans/get-own-plan.ts';
import { claimAllowlistAddress } from './claim-allowlist-address.ts';
import type { AllowlistedAddress } from './list-allowlist.ts';

export interface AddAllowlistAddressProps {
  userId: string;
  planId: string;
  /** Canonical IPv4 or IPv6 text (the request schema canonicalises it). */
  address: string;
  /** The canonical address the request came from, or null when the server cannot tell. */
  callerAddress: string | null;
}

/**
 * Adds a client address to one of the user's plans. One address belongs to one of a customer's plans,
 * and a plan lists at most MAX_ALLOWLIST_ADDRESSES, even under concurrent requests: both are checked
 * under row locks in one transaction. Added from that very address, the entry is proved (verified) and
 * only then lets traffic in without credentials; adding an unproved entry again from its address proves
 * it. An address another account proved is refused (claimAllowlistAddress), naming no one.
 */
export async function addAllowlistAddress(
  ctx: ServiceContext,
  props: AddAllowlistAddressProps,
): Promise<AllowlistedAddress> {
  const { userId, planId, address } = props;
  // The address the request came from may be anything the server sees (a private network, or
  // loopback in development): it is provably the customer's. Any other must be a public address.
  const isCallersOwn = address === props.callerAddress;
  if (!isCallersOwn && !isPublicAddress(address)) {
    throw new DomainError('VALIDATION_FAILED', allowlistMessages.notPublic, { field: 'address' });
  }
  return ctx.db.transaction(async (tx) => {
    const plan = await getOwnPlan(tx, { userId, planId });
    // The user row lock serialises adds across the customer's plans (one address, one of their
    // plans); the plan row lock keeps the limit under concurrent requests.
    await lockUserBalance(tx, { userId });
    await lockPlanForPool(tx, { userId, poolType: plan.poolType });
    const listed = await findUserAllowlistEntry(tx, { userId, address });
    await claimAllowlistAddress(tx, { userId, address, field: 'address' });
    if (listed?.planId === plan.id && !listed.isVerified && isCallersOwn) {
      const proved = await verifyPlanAllowlistAddress(tx, { planId: plan.id, address });
      if (proved) {
        await recordActivity(tx, {
          userId,
          kind: 'allowlist_added',
          details: { poolType: plan.poolType, address: proved.address },
        });
        return proved;
      }
    }
    if (listed) {
      throw new DomainError(
        'ALLOWLIST_ADDRESS_TAKEN',
        allowlistMessages.onOtherPlan(POOL_NAMES[listed.poolType]),
      );
    }
    if ((await countPlanAllowlist(tx, { planId: plan.id })) >= MAX_ALLOWLIST_ADDRESSES) {
      throw new DomainError('ALLOWLIST_FULL', allowlistMessages.listFull);
    }
    // Another customer may list the same address while neither proved it; whoever proves it first
    // holds it (the gateway's allowlist-holders.ts lets it in for its one proved entry only).
    const row = await addPlanAllowlistAddress(tx, { planId: plan.id, address, isVerified: isCallersOwn });
    if (!row) {
      throw new DomainError(
        'ALLOWLIST_ADDRESS_TAKEN',
        allowlistMessages.onOtherPlan(POOL_NAMES[plan.poolType]),
      );
    }
    await recordActivity(tx, {
      userId,
      kind: 'allowlist_added',
      details: { poolType: plan.poolType, address: row.address },
    });
    return row;
  });
}
