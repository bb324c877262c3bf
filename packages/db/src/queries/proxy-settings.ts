import { and, asc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { exits, proxySettings } from '../schema/inventory.ts';
import { plans } from '../schema/plans.ts';

export type ProxySettingsRow = typeof proxySettings.$inferSelect;
type PoolType = (typeof plans.$inferSelect)['poolType'];

export async function getProxySettings(
  db: Executor,
  params: { planId: string },
): Promise<ProxySettingsRow | undefined> {
  const [row] = await db.select().from(proxySettings).where(eq(proxySettings.planId, params.planId));
  return row;
}

export interface SavedSettings {
  countries: string[];
  states: string[];
  cities: string[];
  zipcodes: string[];
  asns: number[];
  excludeCountries: string[];
  excludeAsns: number[];
  anonymousFilter: boolean;
  rotationMinutes: number;
}

/**
 * Saves a plan's settings and touches the plan, so the gateways' incremental refresh (by the plan's
 * `updated_at`) picks the change up within a second. Run it in a transaction.
 */
export async function saveProxySettings(
  tx: Executor,
  params: { planId: string; settings: SavedSettings },
): Promise<ProxySettingsRow> {
  const values = { planId: params.planId, ...params.settings, updatedAt: new Date() };
  const [row] = await tx
    .insert(proxySettings)
    .values(values)
    .onConflictDoUpdate({ target: proxySettings.planId, set: values })
    .returning();
  await tx.update(plans).set({ updatedAt: new Date() }).where(eq(plans.id, params.planId));
  return row as ProxySettingsRow;
}

/** Narrowing of an option list by the other fields of the form (values as saved: codes upper, names lower). */
export interface GeoFilter {
  poolType: PoolType;
  countries?: string[];
  states?: string[];
  cities?: string[];
  zipcodes?: string[];
  asns?: number[];
}

function where(filter: GeoFilter, skip: keyof GeoFilter): SQL | undefined {
  const conditions: SQL[] = [eq(exits.poolType, filter.poolType), eq(exits.isActive, true)];
  if (filter.countries?.length && skip !== 'countries') {
    conditions.push(inArray(exits.country, filter.countries));
  }
  if (filter.states?.length && skip !== 'states') {
    conditions.push(inArray(sql`lower(${exits.state})`, filter.states));
  }
  if (filter.cities?.length && skip !== 'cities') {
    conditions.push(inArray(sql`lower(${exits.city})`, filter.cities));
  }
  if (filter.zipcodes?.length && skip !== 'zipcodes') {
    conditions.push(inArray(sql`upper(${exits.zip})`, filter.zipcodes));
  }
  if (filter.asns?.length && skip !== 'asns') {
    conditions.push(inArray(exits.asn, filter.asns));
  }
  return and(...conditions);
}

// Each list is one DISTINCT over the exits of a pool (and the chosen countries), which the
// (pool_type, country, state|asn|zip) indexes serve without reading whole rows.

export async function listCountriesWithExits(db: Executor, filter: GeoFilter): Promise<string[]> {
  const rows = await db
    .selectDistinct({ country: exits.country })
    .from(exits)
    .where(where(filter, 'countries'))
    .orderBy(asc(exits.country));
  return rows.map((row) => row.country);
}

export async function listStatesWithExits(db: Executor, filter: GeoFilter) {
  return db
    .selectDistinct({ state: exits.state })
    .from(exits)
    .where(and(where(filter, 'states'), isNotNull(exits.state)))
    .orderBy(asc(exits.state));
}

export async function listCitiesWithExits(db: Executor, filter: GeoFilter) {
  return db
    .selectDistinct({ city: exits.city })
    .from(exits)
    .where(and(where(filter, 'cities'), isNotNull(exits.city)))
    .orderBy(asc(exits.city));
}

export async function listAsnsWithExits(db: Executor, filter: GeoFilter) {
  return db
    .selectDistinct({ asn: exits.asn, asnName: exits.asnName })
    .from(exits)
    .where(and(where(filter, 'asns'), isNotNull(exits.asn)))
    .orderBy(asc(exits.asnName), asc(exits.asn));
}

export async function listZipcodesWithExits(db: Executor, filter: GeoFilter) {
  return db
    .selectDistinct({ zip: exits.zip, city: exits.city })
    .from(exits)
    .where(and(where(filter, 'zipcodes'), isNotNull(exits.zip)))
    .orderBy(asc(exits.zip));
}
