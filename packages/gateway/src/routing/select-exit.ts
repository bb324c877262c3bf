import type { Targeting } from '@bytegate/contracts/targeting';
import { GatewayError } from '../errors.ts';
import type { Exit } from '../store.ts';
import type { StickySessions } from './sticky-sessions.ts';

const within = (list: readonly string[] | undefined, value: string | undefined) =>
  !list || list.length === 0 || (value !== undefined && list.includes(value.toLowerCase()));
const outside = (list: readonly string[] | undefined, value: string | undefined) =>
  !list || list.length === 0 || value === undefined || !list.includes(value.toLowerCase());

/** Whether an exit satisfies the targeting (names compare lower-case, codes upper-case). */
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

/** A rotating pick: a random matching exit, other than `avoid` when there is a choice. */
export function pickExit(exits: readonly Exit[], targeting: Targeting, avoid?: string): Exit {
  const matching = exits.filter((exit) => exitMatches(exit, targeting));
  if (matching.length === 0) {
    throw new GatewayError('NO_RAY', 'No IPs are available for this target filter');
  }
  const choices = matching.length > 1 && avoid ? matching.filter((exit) => exit.id !== avoid) : matching;
  return choices[Math.floor(Math.random() * choices.length)] ?? (matching[0] as Exit);
}

export interface StickyChoice {
  sessions: StickySessions;
  /** Whose sessions these are: a plan's id, or its proxy user's key (each has sessions of its own). */
  planId: string;
  defaultTtlMinutes: number;
  /** The sticky port the client connected to: the port is then the session. */
  stickyPort?: number | undefined;
}

/** The session a connection belongs to: its `sessid`, or its sticky port; none when rotating. */
export function sessionKey(sticky: StickyChoice, targeting: Targeting): string | undefined {
  if (targeting.sessionId) {
    return `${sticky.planId}|${targeting.sessionId}`;
  }
  return sticky.stickyPort === undefined ? undefined : `${sticky.planId}|port:${sticky.stickyPort}`;
}

export function sessionTtlMs(sticky: StickyChoice, targeting: Targeting): number {
  return (targeting.sessionTtlMinutes ?? sticky.defaultTtlMinutes) * 60_000;
}

/**
 * The exit for a connection: rotating (a new pick each time) unless it belongs to a session (a `sessid`
 * or a sticky port), which keeps its exit for `sessttl` (or the plan's rotation interval) minutes.
 */
export function chooseExit(exits: readonly Exit[], targeting: Targeting, sticky: StickyChoice): Exit {
  const key = sessionKey(sticky, targeting);
  if (!key) {
    return pickExit(exits, targeting);
  }
  const matching = exits.filter((exit) => exitMatches(exit, targeting));
  const bound = sticky.sessions.get(key, matching);
  if (bound) {
    return bound;
  }
  const exit = pickExit(matching, targeting);
  sticky.sessions.bind(key, exit, sessionTtlMs(sticky, targeting));
  return exit;
}
