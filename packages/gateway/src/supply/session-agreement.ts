import type { Targeting } from '@bytegate/contracts/targeting';
import type { ExitIndex } from '../routing/exit-index.ts';
import type { StickySessions } from '../routing/sticky-sessions.ts';
import type { SessionDirectory } from '../shared-state.ts';
import { networkBinding, orderSources, readNetworkBinding } from './route.ts';
import type { Source, SupplyPreference } from './source.ts';
import type { SourceHealth } from './source-health.ts';

/** What a gateway knows of a session's pool when it asks the fleet where the session goes. */
export interface SessionAgreement {
  directory: SessionDirectory;
  sessions: StickySessions;
  /** The pool's sources (at least one: a pool without sources agrees on our own exits alone). */
  sources: readonly Source[];
  exits: ExitIndex;
  targeting: Targeting;
  /** The session's key (`planId|sessid`, `planId|port:N`) and its whole window. */
  key: string;
  ttlMs: number;
  health: Pick<SourceHealth, 'score' | 'isHeldDown'>;
  preference: SupplyPreference;
}

/**
 * A fleet's gateways agree on where a session goes out (issue 29): the gateway proposes what its own
 * routing would take (the binding it holds, else the first source in orderSources' order: one of our
 * exits by its id, or a wholesale network as a binding of source and generation), the directory's answer
 * wins, and it is bound here as it is everywhere. The vendor's session id is derived from the session's
 * key and that generation, so every gateway spells one `sessid` as one vendor session and the vendor
 * keeps one exit IP for it. A binding this gateway cannot route through (its source switched off, our
 * exit gone) is moved fleet-wide to the proposal. The dialer moves a session on (exits or networks) with
 * `rebind`, for every gateway. Routing failures are left to the dialer, which meets them again.
 */
export async function agreeOnSourceSession(agreement: SessionAgreement): Promise<void> {
  const { directory, sessions, key, ttlMs } = agreement;
  const held = sessions.peek(key);
  const proposed = held !== undefined && isUsable(agreement, held) ? held : firstBinding(agreement);
  if (proposed === undefined) {
    return;
  }
  const bound = await directory.claim(key, proposed, ttlMs);
  if (!bound) {
    // The directory cannot answer: this gateway goes on with its own view (a held binding keeps its window).
    if (proposed !== held) {
      sessions.bindId(key, proposed, ttlMs);
    }
    return;
  }
  if (isUsable(agreement, bound.exitId)) {
    sessions.bindId(key, bound.exitId, bound.ttlMs);
    return;
  }
  directory.rebind(key, proposed, ttlMs);
  sessions.bindId(key, proposed, ttlMs);
}

/** What the routing would take first for a new session: our exit's id, a network binding, or nothing. */
function firstBinding(agreement: SessionAgreement): string | undefined {
  const { sources, targeting, health, preference, exits } = agreement;
  for (const source of orderSources(sources, targeting, health, preference)) {
    if (source.kind === 'network') {
      return networkBinding(source.id);
    }
    const exit = exits.pick(targeting);
    if (exit) {
      return exit.id;
    }
  }
  return undefined;
}

/**
 * Whether this gateway can send the session where `bound` says, as the dialer's heldSession would: a
 * network that is not off and can spell the targeting, or one of our exits still matching it while our
 * exits are not off (a draining source keeps its sessions).
 */
function isUsable(agreement: SessionAgreement, bound: string): boolean {
  const { sources, targeting } = agreement;
  const network = readNetworkBinding(bound);
  if (!network) {
    const own = sources.find((source) => source.kind === 'exits');
    return (
      own !== undefined && own.state !== 'off' && agreement.exits.getMatching(bound, targeting) !== undefined
    );
  }
  const source = sources.find((candidate) => candidate.id === network.sourceId);
  return (
    source?.kind === 'network' && source.state !== 'off' && source.adapter.cannotExpress(targeting) === null
  );
}
