import type { Targeting } from '@bytegate/contracts/targeting';
import { GatewayError } from '../errors.ts';
import type { Exit } from '../store.ts';
import type { ExitIndex } from './exit-index.ts';
import type { StickySessions } from './sticky-sessions.ts';

/** A rotating pick: a random matching exit, other than `avoid` when there is a choice. */
export function pickExit(exits: ExitIndex, targeting: Targeting, avoid?: string): Exit {
  const exit = exits.pick(targeting, avoid);
  if (!exit) {
    throw new GatewayError('NO_RAY', 'No IPs are available for this target filter');
  }
  return exit;
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
export function chooseExit(exits: ExitIndex, targeting: Targeting, sticky: StickyChoice): Exit {
  const key = sessionKey(sticky, targeting);
  if (!key) {
    return pickExit(exits, targeting);
  }
  const bound = sticky.sessions.get(key, exits, targeting);
  if (bound) {
    return bound;
  }
  const exit = pickExit(exits, sticky.sessions.keepCountry(key, targeting));
  sticky.sessions.bind(key, exit, sessionTtlMs(sticky, targeting));
  return exit;
}
