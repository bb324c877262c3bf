import type { PoolType } from '@bytegate/contracts/pools';
import { type ExitLocation, locateExitIp } from './locate-exit-ip.ts';
import { poolFromAsn } from './pool-from-asn.ts';

export interface AgentLocation extends ExitLocation {
  /** By the ASN (pool-from-asn.ts); residential when the ASN database does not know the address. */
  pool: PoolType;
}

/**
 * Where an exit agent is, from the address it connects to the hub from: locateExitIp's place and network,
 * and the pool its network puts it in. Null when the address is not located (see locateExitIp).
 */
export async function locateAgentAddress(ip: string): Promise<AgentLocation | null> {
  const location = await locateExitIp(ip);
  return location === null ? null : { ...location, pool: poolFromAsn(location.asn, location.asnName) };
}
