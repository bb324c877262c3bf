import { allowlistMessages } from '@bytegate/contracts/allowlist';
import type { Executor } from '@bytegate/db';
import { listAddressHolderAccounts, lockAllowlistAddress } from '@bytegate/db/queries';
import { DomainError } from '../domain-error.ts';

export interface ClaimAllowlistAddressProps {
  /** The account whose allowlist (a plan's or a proxy user's) is to list the address. */
  userId: string;
  /** Canonical IPv4 or IPv6 text. */
  address: string;
  /** The request field a refusal points at. */
  field: 'address' | 'allowlist';
}

/**
 * The one check before an address goes on any allowlist, a plan's or a proxy user's: it may not once
 * another account proved it theirs (an address lets credential-less traffic in for one account at most,
 * see the gateway's allowlist-holders.ts). The refusal names no one. Takes the address's lock for the
 * rest of `tx`, so two accounts proving one address at once cannot both win: call it in the
 * transaction that writes the entry.
 */
export async function claimAllowlistAddress(tx: Executor, props: ClaimAllowlistAddressProps): Promise<void> {
  await lockAllowlistAddress(tx, { address: props.address });
  const holders = await listAddressHolderAccounts(tx, { address: props.address });
  if (holders.some((holder) => holder !== props.userId)) {
    throw new DomainError('ALLOWLIST_ADDRESS_TAKEN', allowlistMessages.heldByAnotherAccount, {
      field: props.field,
    });
  }
}
