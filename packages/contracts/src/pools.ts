/** The proxy pools (SPEC section 9): their ids and the names people read. */

export const POOL_TYPES = ['datacenter', 'residential', 'mobile'] as const;
export type PoolType = (typeof POOL_TYPES)[number];

/** Pool names as people read them: 'Residential'. */
export const POOL_NAMES: Record<PoolType, string> = {
  datacenter: 'Datacenter',
  residential: 'Residential',
  mobile: 'Mobile',
};
