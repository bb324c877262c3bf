import { timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import { GatewayError } from './errors.ts';
import {
  isTargetFilter,
  parseProxyUsername,
  type UsernameParams,
  withSavedTargeting,
} from './routing/username.ts';
import type { GatewayStore, PlanAccess, SavedTargeting } from './store.ts';
import type { PendingConnections } from './tunnel/pending-connections.ts';
import type { ThreadLimits } from './tunnel/thread-limits.ts';
import type { UsageMeter } from './tunnel/usage-meter.ts';

export interface Admitted {
  plan: PlanAccess;
  targeting: UsernameParams;
  /** Target filters in force: billed at 2x. */
  isDoubled: boolean;
}

/** Reads `Proxy-Authorization: Basic` into username and password; null when absent or malformed. */
export function readBasicCredentials(
  header: string | undefined,
): { username: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) {
    return null;
  }
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? null : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function samePassword(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const threadSlots = new WeakMap<Socket, { planId: string; release: () => void }>();

/**
 * How each client connection got in: with a password (as the plan had it then), or by its address on
 * the plan's allowlist. A connection whose way in is gone (the password changed, the address left the
 * allowlist) is closed by the gateway's sampler.
 */
const admittedAs = new WeakMap<Socket, { planId: string; password: string | null }>();

/** Whether a connection may go on: its plan still lets it in the way it came in. */
export function isStillAdmitted(store: GatewayStore, socket: Socket, plan: PlanAccess): boolean {
  const way = admittedAs.get(socket);
  if (!way || way.planId !== plan.planId) {
    return true;
  }
  if (way.password !== null) {
    return way.password === plan.password;
  }
  const address = socket.remoteAddress;
  return address !== undefined && store.getPlanByAddress(address)?.planId === plan.planId;
}

/**
 * Who is asking and may they: credentials (or the client address on an allowlist), the username's
 * targeting, traffic left, and a thread slot held for as long as the client connection lives.
 */
export function admit(
  deps: { store: GatewayStore; threads: ThreadLimits; meter: UsageMeter; pending?: PendingConnections },
  credentials: { username: string; password: string } | null,
  socket: Socket,
  stickyPort?: number,
): Admitted {
  let plan: PlanAccess | undefined;
  let targeting: UsernameParams = {};
  if (credentials) {
    const parsed = parseProxyUsername(credentials.username);
    plan = deps.store.getPlanByLogin(parsed.login);
    if (!plan || !samePassword(credentials.password, plan.password)) {
      throw new GatewayError('NO_USER', 'Wrong proxy login or password');
    }
    targeting = withSavedTargeting(parsed, plan.saved);
    if (stickyPort !== undefined && targeting.sessionId) {
      throw new GatewayError(
        'PARAM_CONFLICT',
        'sessid cannot be used on a sticky port: the port is the session (use the main ports for sessid)',
      );
    }
  } else {
    plan = socket.remoteAddress ? deps.store.getPlanByAddress(socket.remoteAddress) : undefined;
    if (!plan) {
      const isShared =
        socket.remoteAddress !== undefined && deps.store.isSharedAddress?.(socket.remoteAddress);
      throw new GatewayError(
        'NO_USER',
        isShared
          ? 'More than one account allowlists this address: send the proxy login and password'
          : 'Proxy authentication required',
      );
    }
    targeting = withSavedTargeting({ login: plan.login, params: {}, hasGeo: false }, plan.saved);
  }
  const admitted = checkPlan(deps, plan, targeting, socket);
  admittedAs.set(socket, { planId: plan.planId, password: credentials ? plan.password : null });
  // Authenticated: from here the plan's thread limit bounds the connection, not the pre-auth caps.
  deps.pending?.leave(socket);
  return admitted;
}

/** What is checked on every request, even when the identity is known: plan state, traffic, a thread. */
function checkPlan(
  deps: { threads: ThreadLimits; meter: UsageMeter },
  plan: PlanAccess,
  targeting: UsernameParams,
  socket: Socket,
): Admitted {
  if (!plan.isActive) {
    throw new GatewayError('NO_USER', 'This proxy plan is not active');
  }
  if (plan.trafficLeftBytes - deps.meter.spentBytes(plan.planId) <= 0) {
    throw new GatewayError('TRAFFIC_EXHAUSTED', 'The plan has no traffic left; add GB in the dashboard');
  }
  const held = threadSlots.get(socket);
  if (!held || held.planId !== plan.planId) {
    const release = deps.threads.acquire(plan.planId, plan.threadLimit);
    if (!release) {
      throw new GatewayError(
        'THREADS_EXHAUSTED',
        `The plan's limit of ${plan.threadLimit} concurrent connections is reached`,
      );
    }
    held?.release();
    threadSlots.set(socket, { planId: plan.planId, release });
    socket.once('close', release);
  }
  return { plan, targeting, isDoubled: isTargetFilter(targeting) };
}

const lastIdentity = new WeakMap<
  Socket,
  {
    header: string;
    login: string;
    password: string;
    saved: SavedTargeting | undefined;
    targeting: UsernameParams;
  }
>();

/**
 * `admit` for a request on the HTTP port, from its Proxy-Authorization header. A keep-alive client
 * sends the same header with every request: while it and the plan's password are unchanged, the
 * decoding and the password check are not repeated (plan state, traffic and thread still are).
 */
export function admitHttp(
  deps: { store: GatewayStore; threads: ThreadLimits; meter: UsageMeter },
  header: string | undefined,
  socket: Socket,
  stickyPort?: number,
): Admitted {
  const known = header === undefined ? undefined : lastIdentity.get(socket);
  if (known && known.header === header) {
    const plan = deps.store.getPlanByLogin(known.login);
    // Saved settings are part of the targeting: a change to them (a new object) means a fresh admit.
    if (plan && plan.password === known.password && plan.saved === known.saved) {
      return checkPlan(deps, plan, known.targeting, socket);
    }
  }
  const admitted = admit(deps, readBasicCredentials(header), socket, stickyPort);
  if (header !== undefined) {
    const { login, password, saved } = admitted.plan;
    lastIdentity.set(socket, { header, login, password, saved, targeting: admitted.targeting });
  }
  return admitted;
}
