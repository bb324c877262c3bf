import type { SavedTargeting } from '@bytegate/contracts/targeting';
import type { SavedSettings } from '@bytegate/db/queries';

/**
 * The database's columns (`zipcodes`, `anonymousFilter`) in the targeting model's names: the one place
 * the two spellings meet. The API side is the contracts' `savedTargetingFromSettings`.
 */
export function savedTargetingFromRow(row: SavedSettings): SavedTargeting {
  return {
    countries: row.countries,
    excludeCountries: row.excludeCountries,
    states: row.states,
    cities: row.cities,
    zips: row.zipcodes,
    asns: row.asns,
    excludeAsns: row.excludeAsns,
    anonymous: row.anonymousFilter,
    rotationMinutes: row.rotationMinutes,
  };
}

/** Saved targeting as the database stores it (the inverse of `savedTargetingFromRow`). */
export function rowFromSavedTargeting(saved: SavedTargeting): SavedSettings {
  return {
    countries: saved.countries,
    states: saved.states,
    cities: saved.cities,
    zipcodes: saved.zips,
    asns: saved.asns,
    excludeCountries: saved.excludeCountries,
    excludeAsns: saved.excludeAsns,
    anonymousFilter: saved.anonymous,
    rotationMinutes: saved.rotationMinutes,
  };
}
