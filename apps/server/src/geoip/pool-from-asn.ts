import type { PoolType } from '@bytegate/contracts/pools';
import { HOSTING_ASNS, MOBILE_CARRIER_ASNS } from './pool-asns.ts';

/**
 * The pool an address belongs in by the network announcing it: a known mobile carrier's network is
 * mobile, a known cloud or host's is datacenter (pool-asns.ts); any other is judged by its name, whole
 * words in any case ("T-Mobile", "Rackspace Hosting"; not "PSA Automobiles" nor "Colorado Telecom"), the
 * datacenter words first (a "mobile cloud" is servers); the rest, and an unknown network, residential.
 */

const MOBILE = new Set(MOBILE_CARRIER_ASNS.map(([asn]) => asn));
const HOSTING = new Set(HOSTING_ASNS.map(([asn]) => asn));

const DATACENTER_WORDS = /\b(?:hosting|cloud|data ?cent(?:er|re)s?|servers?|vps|colo|colocation)\b/i;
const MOBILE_WORDS = /\b(?:mobile|mobility|wireless|cellular|lte|gsm)\b/i;

/** `asn` and `asnName` as the ASN database gives them (either may be null). */
export function poolFromAsn(asn: number | null, asnName: string | null): PoolType {
  if (asn !== null && MOBILE.has(asn)) {
    return 'mobile';
  }
  if (asn !== null && HOSTING.has(asn)) {
    return 'datacenter';
  }
  if (asnName && DATACENTER_WORDS.test(asnName)) {
    return 'datacenter';
  }
  if (asnName && MOBILE_WORDS.test(asnName)) {
    return 'mobile';
  }
  return 'residential';
}
