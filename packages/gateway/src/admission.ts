import { timingSafeEqual } from 'node:crypto';
import type { Targeting } from '@bytegate/contracts/targeting';
import type { ClientSession } from './client-session.ts';
import { GatewayError } from './errors.ts';
import { isTargetFilter, parseProxyUsername, withSavedTargeting } from './routing/username.ts';
import type { GatewayStore, PlanAccess } from './store.ts';
import type { PendingConnections } from './tunnel/pending-connections.ts';
import type { ThreadLimits } from './tunnel/thread-limits.ts';
import type { UsageMeter } from './tunnel/usage-meter.ts';

export interface Admitted {
  plan: PlanAccess;
  targeting: Targeting;
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

/** Whether a connection may go on: its plan still lets it in the way it came in. */
export function isStillAdmitted(store: GatewayStore, session: ClientSession, plan: PlanAccess): boolean {
  if (session.admittedPlanId !== plan.planId) {
    return true;
  }
  if (session.admittedPassword !== null) {
    return session.admittedPassword === plan.password;
  }
  const address = session.socket.remoteAddress;
  return address !== undefined && store.getPlanByAddress(address)?.planId === plan.planId;
}

/**
 * Who is asking and may they: credentials (or the client address on an allowlist), the username's
 * targeting, traffic left, and a thread slot held for as long as the client connection lives.
 */
export function admit(
  deps: { store: GatewayStore; threads: ThreadLimits; meter: UsageMeter; pending?: PendingConnections },
  credentials: { username: string; password: string } | null,
  session: ClientSession,
): Admitted {
  const { socket, stickyPort } = session;
  let plan: PlanAccess | undefined;
  let targeting: Targeting = {};
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
  const admitted = checkPlan(deps, plan, targeting, session);
  session.admittedPlanId = plan.planId;
  session.admittedPassword = credentials ? plan.password : null;
  // Authenticated: from here the plan's thread limit bounds the connection, not the pre-auth caps.
  deps.pending?.leave(socket);
  return admitted;
}

/** What is checked on every request, even when the identity is known: plan state, traffic, a thread. */
function checkPlan(
  deps: { threads: ThreadLimits; meter: UsageMeter },
  plan: PlanAccess,
  targeting: Targeting,
  session: ClientSession,
): Admitted {
  if (!plan.isActive) {
    throw new GatewayError('NO_USER', 'This proxy plan is not active');
  }
  if (plan.trafficLeftBytes - deps.meter.spentBytes(plan.planId) <= 0) {
    throw new GatewayError('TRAFFIC_EXHAUSTED', 'The plan has no traffic left; add GB in the dashboard');
  }
  if (session.threadPlanId !== plan.planId) {
    const release = deps.threads.acquire(plan.planId, plan.threadLimit);
    if (!release) {
      throw new GatewayError(
        'THREADS_EXHAUSTED',
        `The plan's limit of ${plan.threadLimit} concurrent connections is reached`,
      );
    }
    session.releaseThread?.();
    session.threadPlanId = plan.planId;
    session.releaseThread = release;
    session.socket.once('close', release);
  }
  return { plan, targeting, isDoubled: isTargetFilter(targeting) };
}

/**
 * `admit` for a request on the HTTP port, from its Proxy-Authorization header. A keep-alive client
 * sends the same header with every request: while it and the plan's password are unchanged, the
 * decoding and the password check are not repeated (plan state, traffic and thread still are).
 */
export function admitHttp(
  deps: { store: GatewayStore; threads: ThreadLimits; meter: UsageMeter },
  header: string | undefined,
  session: ClientSession,
): Admitted {
  const known = header === undefined ? null : session.knownIdentity;
  if (known && known.header === header) {
    const plan = deps.store.getPlanByLogin(known.login);
    // Saved settings are part of the targeting: a change to them (a new object) means a fresh admit.
    if (plan && plan.password === known.password && plan.saved === known.saved) {
      return checkPlan(deps, plan, known.targeting, session);
    }
  }
  const admitted = admit(deps, readBasicCredentials(header), session);
  if (header !== undefined) {
    const { login, password, saved } = admitted.plan;
    session.knownIdentity = { header, login, password, saved, targeting: admitted.targeting };
  }
  return admitted;
}
