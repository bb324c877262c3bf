import { createHash } from 'node:crypto';
import type { Targeting } from '@bytegate/contracts/targeting';
import type { DialRefusal, GrammarAdapter, VendorRefusal, VendorSession } from '../grammar.ts';

/** What the adapters share: picking one value of a list, vendor session ids, place spelling, refusals. */

export const DIGITS = '0123456789';
export const LOWER_ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz';
export const MIXED_ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * A vendor session id for our session key: `length` characters of `alphabet` from a SHA-256 of the key,
 * so the same key always gives the same id and two keys the same id with probability alphabet^-length
 * (a customer cannot aim at another customer's id, since a key carries the owner). `first` narrows the
 * first character (Webshare's numbers must not start with 0).
 */
export function vendorSessionId(key: string, alphabet: string, length: number, first = alphabet): string {
  let value = BigInt(`0x${digest(`session\0${key}`).toString('hex')}`);
  let id = '';
  for (let i = 0; i < length; i += 1) {
    const letters = i === 0 ? first : alphabet;
    const base = BigInt(letters.length);
    id += letters[Number(value % base)];
    value /= base;
  }
  return id;
}

/**
 * One value of a list the vendor takes one of (any of them satisfies our targeting): with a session, the
 * same one for the whole session (so a sticky session keeps its country); without, a random one.
 */
export function pickOne<T>(list: readonly T[], session: VendorSession | undefined, dimension: string): T {
  const index =
    session === undefined
      ? Math.floor(Math.random() * list.length)
      : digest(`pick\0${dimension}\0${session.key}`).readUIntBE(0, 6) % list.length;
  return list[index] as T;
}

export const clamp = (value: number, min: number, max: number): number =>
  Math.min(max, Math.max(min, Math.round(value)));

export const isSet = <T>(list: readonly T[] | undefined): list is readonly T[] =>
  list !== undefined && list.length > 0;

/**
 * A place name (our lower-case, space-separated form) in a vendor's letters: its words joined by `separator`,
 * or null when it has characters the vendor's grammar cannot carry (a hyphen, an apostrophe, an accent).
 */
export function spellPlace(name: string, separator: string): string | null {
  return /^[a-z]+( [a-z]+)*$/.test(name) ? name.split(' ').join(separator) : null;
}

/** Our exclusions: no vendor here documents excluding a location, so each is a reason to go elsewhere. */
export function exclusionReason(targeting: Targeting): string | null {
  if (isSet(targeting.excludeCountries)) {
    return 'excluded countries';
  }
  if (isSet(targeting.excludeStates)) {
    return 'excluded states';
  }
  if (isSet(targeting.excludeCities)) {
    return 'excluded cities';
  }
  if (isSet(targeting.excludeZips)) {
    return 'excluded ZIP codes';
  }
  return isSet(targeting.excludeAsns) ? 'excluded ASNs' : null;
}

/**
 * For a vendor that takes one value per dimension, picking each list's value on its own is only sound when
 * any pick still names a real place: several countries with a state, city, ZIP or ASN (which belongs to
 * one of them), or several values in one of two combined dimensions (California with Dallas), are not.
 */
export function combinationReason(targeting: Targeting): string | null {
  const below = [targeting.states, targeting.cities, targeting.zips, targeting.asns]
    .map((list) => list?.length ?? 0)
    .filter((length) => length > 0);
  if (isSet(targeting.countries) && targeting.countries.length > 1 && below.length > 0) {
    return 'several countries with a state, city, ZIP or ASN';
  }
  if (below.length > 1 && below.some((length) => length > 1)) {
    return 'a list of states, cities, ZIP codes or ASNs combined with another of them';
  }
  return null;
}

/** Whether the targeting's only country is the US (states and ZIP codes, where a vendor has them only there). */
export const isUsOnly = (targeting: Targeting): boolean =>
  targeting.countries?.length === 1 && targeting.countries[0] === 'US';

/** One value per dimension, picked as `pickOne` does. */
export interface Location {
  country?: string | undefined;
  state?: string | undefined;
  city?: string | undefined;
  zip?: string | undefined;
  asn?: number | undefined;
}

export function pickLocation(targeting: Targeting, session: VendorSession | undefined): Location {
  const one = <T>(list: readonly T[] | undefined, dimension: string) =>
    isSet(list) ? pickOne(list, session, dimension) : undefined;
  return {
    country: one(targeting.countries, 'country'),
    state: one(targeting.states, 'state'),
    city: one(targeting.cities, 'city'),
    zip: one(targeting.zips, 'zip'),
    asn: one(targeting.asns, 'asn'),
  };
}

/**
 * The refusals no vendor here spells differently: 407 our credentials, 402 our balance, 400 our spelling.
 * Over SOCKS5 a vendor says no more than "auth failed" (credentials, parameters and balance alike, all
 * of which raise the alarm) or a reply code, which names no cause we could act on differently.
 */
export function classifyCommon(refusal: DialRefusal): VendorRefusal {
  if (refusal.protocol === 'socks5') {
    return refusal.reply === 'auth' ? 'auth' : 'failed';
  }
  switch (refusal.status) {
    case 407:
      return 'auth';
    case 402:
      return 'quota';
    case 400:
      return 'bad-request';
    default:
      return 'failed';
  }
}

/** `credentials` refuses what `cannotExpress` refuses, with the same reason. */
export function assertExpressible(
  adapter: Pick<GrammarAdapter, 'name' | 'cannotExpress'>,
  targeting: Targeting,
) {
  const reason = adapter.cannotExpress(targeting);
  if (reason !== null) {
    throw new Error(`${adapter.name} cannot express ${reason}`);
  }
}

/** The account's username with the vendor's prefix, unless the operator already wrote it with it. */
export const withPrefix = (prefix: string, username: string): string =>
  username.startsWith(prefix) ? username : `${prefix}${username}`;
