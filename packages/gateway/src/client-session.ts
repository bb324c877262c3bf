import type { Socket } from 'node:net';
import type { SavedTargeting, Targeting } from '@bytegate/contracts/targeting';
import type { ClientProtocol } from './counters.ts';
import type { Unblocks } from './policy/target-policy.ts';

/** The identity a keep-alive client proved with its Proxy-Authorization header, as it was proved. */
export interface KnownIdentity {
  header: string;
  login: string;
  password: string;
  /** The proxy user the header named (null: the plan's own login). */
  proxyUserId: string | null;
  saved: SavedTargeting | undefined;
  targeting: Targeting;
}

/** A target resolved and checked for a request; the next request to the same one skips the lookup. */
export interface ResolvedTarget {
  host: string;
  port: number;
  unblocks: Unblocks | undefined;
  address: string;
}

/**
 * One client connection as the engine knows it, from accept to close: the sticky port it came to, the
 * thread slot it holds, how it got in, and what its last request settled (identity, target) so that a
 * keep-alive client's next request skips that work. One object per connection, none per request.
 */
export class ClientSession {
  /** The plan whose thread slot this connection holds, and how to give the slot back. */
  threadPlanId: string | null = null;
  /** Whose slots it holds within the plan: the plan's id, or its proxy user's key. */
  threadOwner: string | null = null;
  releaseThread: (() => void) | null = null;
  /**
   * How it got in: its plan, and that plan's password as it was then (null: by its address on the
   * allowlist). A connection whose way in is gone (the password changed, the address left the allowlist)
   * is closed by the gateway's sampler.
   */
  admittedPlanId: string | null = null;
  /** The proxy user it came in as (null: the plan's own login or its allowlist). */
  admittedProxyUserId: string | null = null;
  admittedPassword: string | null = null;
  /** The HTTP port's last Proxy-Authorization, checked. */
  knownIdentity: KnownIdentity | null = null;
  /** The last forward request's target (a keep-alive client mostly talks to one host). */
  lastTarget: ResolvedTarget | null = null;
  /** What its first request was (counters.ts); null until then. */
  protocol: ClientProtocol | null = null;
  /** Its HTTP request reader, once it speaks HTTP: a drain asks it to close when no request is under way. */
  httpReader: { closeWhenIdle(): void } | null = null;

  constructor(
    readonly socket: Socket,
    /** The sticky port the client connected to, if it did: the port is then its session. */
    readonly stickyPort: number | undefined,
    /** The socket has TCP_NODELAY from its listener (no setsockopt needed). */
    readonly hasNoDelay = false,
  ) {}
}
