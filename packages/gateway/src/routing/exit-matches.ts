import type { Targeting } from '@bytegate/contracts/targeting';
import type { Exit } from '../store.ts';

const within = (list: readonly string[] | undefined, value: string | undefined) =>
  !list || list.length === 0 || (value !== undefined && list.includes(value.toLowerCase()));
const outside = (list: readonly string[] | undefined, value: string | undefined) =>
  !list || list.length === 0 || value === undefined || !list.includes(value.toLowerCase());

/**
 * Whether an exit satisfies the targeting (names compare lower-case, codes upper-case): the one
 * definition of a match; the exit index's buckets only narrow where it is asked (exit-index.ts).
 */
export function exitMatches(exit: Exit, targeting: Targeting): boolean {
  const anonymous = targeting.anonymous ?? true;
  return (
    (!anonymous || !exit.isRisky) &&
    (!targeting.countries?.length || targeting.countries.includes(exit.country)) &&
    !targeting.excludeCountries?.includes(exit.country) &&
    within(targeting.states, exit.state) &&
    outside(targeting.excludeStates, exit.state) &&
    within(targeting.cities, exit.city) &&
    outside(targeting.excludeCities, exit.city) &&
    (!targeting.zips?.length ||
      (exit.zip !== undefined && targeting.zips.includes(exit.zip.toUpperCase()))) &&
    (!targeting.excludeZips?.length ||
      exit.zip === undefined ||
      !targeting.excludeZips.includes(exit.zip.toUpperCase())) &&
    (!targeting.asns?.length || (exit.asn !== undefined && targeting.asns.includes(exit.asn))) &&
    (!targeting.excludeAsns?.length || exit.asn === undefined || !targeting.excludeAsns.includes(exit.asn))
  );
}
