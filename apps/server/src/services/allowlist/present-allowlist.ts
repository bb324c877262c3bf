import {
  type AllowlistEntry,
  type AllowlistResponse,
  MAX_ALLOWLIST_ADDRESSES,
} from '@bytegate/contracts/allowlist';
import type { AllowlistedAddress } from './list-allowlist.ts';

export function presentAllowlistEntry(row: AllowlistedAddress): AllowlistEntry {
  return { address: row.address, createdAt: row.createdAt.toISOString(), verified: row.isVerified };
}

/** A plan's list, its limit, and the caller's own address so the screen can offer to add it. */
export function presentAllowlist(
  rows: AllowlistedAddress[],
  callerAddress: string | null,
): AllowlistResponse {
  return {
    addresses: rows.map(presentAllowlistEntry),
    max: MAX_ALLOWLIST_ADDRESSES,
    clientAddress: callerAddress,
  };
}
