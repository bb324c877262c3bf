import { timingSafeEqual } from 'node:crypto';
import type { Targeting } from '@bytegate/contracts/targeting';
import { plainAddress } from './allowlist-holders.ts';
import type { AuthThrottle } from './auth-throttle.ts';
import type { ClientSession } from './client-session.ts';
import { GatewayError, refusedFor } from './errors.ts';
import { accountOf, checkPlan } from './plan-check.ts';
import type { StickySessions } from './routing/sticky-sessions.ts';
import {
  decodeCredential,
  loginOf,
  type ParsedUsername,
  parseProxyUsername,
  withSavedTargeting,
} from './routing/username.ts';
import type { SessionDirectory, ThreadSlots } from './shared-state.ts';
import type { GatewayStore, PlanAccess, ProxyUserAccess } from './store.ts';
import type { SupplyPreference } from './supply/source.ts';
import type { SourceHealth } from './supply/source-health.ts';
import type { PendingConnections } from './tunnel/pending-connections.ts';
import type { UsageMeter } from './tunnel/usage-meter.ts';

/** What admission works with: the engine's context, or the part of it a test builds. */
export interface AdmissionDeps {
  store: GatewayStore;
  threads: ThreadSlots;
  meter: UsageMeter;
  pending?: PendingConnections;
  sessions?: StickySessions;
  directory?: SessionDirectory | undefined;
  defaultSessionTtlMinutes?: number;
  /** What a session's proposal to the fleet is routed by (the dialer's, DialSettings). */
  sourceHealth?: SourceHealth | undefined;
  supplyPreference?: SupplyPreference | undefined;
  /** Failed proxy logins slowed, then refused (none: never). */
  throttle?: AuthThrottle | undefined;
}

export interface Admitted {
  plan: PlanAccess;
  /** The proxy user it came in as; undefined: the plan's own login (or its allowlist). */
  proxyUser?: ProxyUserAccess | undefined;
  /** The proxy user's key for the meter (proxyUserKey), when it came in as one. */
  userKey?: string | undefined;
  targeting: Targeting;
  /** Target filters in force: billed at 2x. */
  isDoubled: boolean;
}

/** A username and password as a client sent them, with what admitting them once has learnt. */
export interface Credentials {
  username: string;
  password: string;
  /** The username parsed (its login and targeting): set by the first admission that parsed it. */
  parsed?: ParsedUsername;
  /** A stored password this one was found equal to: while the account's is still that, no new check. */
  verifiedAgainst?: string;
}

/**
 * Credentials admitted before, by what the client sent (a Proxy-Authorization header, a SOCKS5 username
 * and password): a scraper opens thousands of connections a second with the same credentials, and each
 * would decode, parse and compare them again. Only admitted ones are kept (a wrong password never is),
 * at most MAX_KNOWN of them (the oldest go first), each of at most MAX_KNOWN_KEY characters.
 */
const knownCredentials = new Map<string, Credentials>();
const MAX_KNOWN = 4096;
const MAX_KNOWN_KEY = 512;

/** Credentials admitted before under `key`, if any. */
export function knownCredentialsOf(key: string | undefined): Credentials | undefined {
  return key === undefined ? undefined : knownCredentials.get(key);
}

/** Keeps credentials that were just admitted, under what the client sent. */
export function rememberCredentials(key: string | undefined, credentials: Credentials): void {
  if (key === undefined || key.length > MAX_KNOWN_KEY || knownCredentials.get(key) === credentials) {
    return;
  }
  if (knownCredentials.size >= MAX_KNOWN) {
    const oldest = knownCredentials.keys().next();
    if (!oldest.done) {
      knownCredentials.delete(oldest.value);
    }
  }
  knownCredentials.set(key, credentials);
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

/** Whether a connection may go on: its plan (or proxy user) still lets it in the way it came in. */
export function isStillAdmitted(store: GatewayStore, session: ClientSession, plan: PlanAccess): boolean {
  if (session.admittedPlanId !== plan.planId) {
    return true;
  }
  const proxyUserId = session.admittedProxyUserId;
  if (proxyUserId !== null) {
    const user = store.getProxyUserById?.(proxyUserId);
    if (!user?.isEnabled || user.planId !== plan.planId) {
      return false;
    }
    if (session.admittedPassword !== null) {
      return session.admittedPassword === user.password;
    }
    return isHeldBy(store, session, plan.planId, proxyUserId);
  }
  if (session.admittedPassword !== null) {
    return session.admittedPassword === plan.password;
  }
  return isHeldBy(store, session, plan.planId, undefined);
}

/** Whether the session's client address still lets in this plan (or this proxy user of it). */
function isHeldBy(
  store: GatewayStore,
  session: ClientSession,
  planId: string,
  proxyUserId: string | undefined,
): boolean {
  const address = session.socket.remoteAddress;
  const holder = address === undefined ? undefined : store.getAddressHolder(address);
  return holder?.plan.planId === planId && holder.proxyUser?.proxyUserId === proxyUserId;
}

/**
 * Who is asking and may they: credentials (or the client address on an allowlist), the username's
 * targeting, traffic left, and a thread slot held for as long as the client connection lives. The
 * credentials are percent-decoded first (decodeCredential) and checked before the targeting is read, so
 * every refusal after a good password (a grammar error, a conflict, no traffic, no thread) carries the
 * plan's account and counts in its usage by error code.
 */
export async function admit(
  deps: AdmissionDeps,
  credentials: Credentials | null,
  session: ClientSession,
): Promise<Admitted> {
  const { socket, stickyPort } = session;
  let plan: PlanAccess | undefined;
  let user: ProxyUserAccess | undefined;
  let targeting: Targeting = {};
  if (credentials) {
    // A malformed escape in the username is refused once the password is known good (it is most
    // likely in the targeting, after a plain login); one in the password cannot match anyway.
    let username: string | undefined;
    let malformed: unknown;
    try {
      username = decodeCredential(credentials.username, 'username');
    } catch (error) {
      malformed = error;
    }
    const givenPassword = decodeCredential(credentials.password, 'password');
    const login = credentials.parsed?.login ?? loginOf(username ?? credentials.username);
    const address = socket.remoteAddress === undefined ? undefined : plainAddress(socket.remoteAddress);
    deps.throttle?.check(address, login);
    plan = deps.store.getPlanByLogin(login);
    let password = plan?.password;
    if (!plan) {
      user = deps.store.getProxyUserByLogin?.(login);
      plan = user ? deps.store.getPlanById(user.planId) : undefined;
      password = user?.password;
    }
    if (
      !plan ||
      password === undefined ||
      (credentials.verifiedAgainst !== password && !samePassword(givenPassword, password))
    ) {
      const wrong = new GatewayError('NO_USER', 'Wrong proxy login or password');
      throw deps.throttle ? await deps.throttle.failed(address, login, wrong) : wrong;
    }
    deps.throttle?.succeeded(address, login);
    credentials.verifiedAgainst = password;
    try {
      if (username === undefined) {
        throw malformed;
      }
      const parsed = credentials.parsed ?? parseProxyUsername(username);
      credentials.parsed = parsed;
      targeting = withSavedTargeting(parsed, user?.saved ?? plan.saved);
      if (stickyPort !== undefined && targeting.sessionId) {
        throw new GatewayError(
          'PARAM_CONFLICT',
          'sessid cannot be used on a sticky port: the port is the session (use the main ports for sessid)',
        );
      }
    } catch (error) {
      throw refusedFor(error, accountOf(plan, user));
    }
  } else {
    // One lookup for plans and proxy users alike: the address's one proved holder, or nobody.
    const address = socket.remoteAddress;
    const holder = address ? deps.store.getAddressHolder(address) : undefined;
    plan = holder?.plan;
    user = holder?.proxyUser;
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
    targeting = withSavedTargeting(
      { login: user?.login ?? plan.login, params: {}, hasGeo: false },
      user?.saved ?? plan.saved,
    );
  }
  const admitted = await checkPlan(deps, plan, user, targeting, session);
  session.admittedPlanId = plan.planId;
  session.admittedProxyUserId = user?.proxyUserId ?? null;
  session.admittedPassword = credentials ? (user?.password ?? plan.password) : null;
  // Authenticated: from here the plan's thread limit bounds the connection, not the pre-auth caps.
  deps.pending?.leave(socket);
  return admitted;
}

/**
 * `admit` for a request on the HTTP port, from its Proxy-Authorization header. A keep-alive client
 * sends the same header with every request: while it and the plan's password are unchanged, the
 * decoding and the password check are not repeated (plan state, traffic and thread still are), and
 * in-process the answer comes at once, not as a promise. Throws a refusal it can give at once.
 */
export function admitHttp(
  deps: AdmissionDeps,
  header: string | undefined,
  session: ClientSession,
): Admitted | Promise<Admitted> {
  const known = header === undefined ? null : session.knownIdentity;
  if (known && known.header === header) {
    const user = known.proxyUserId === null ? undefined : deps.store.getProxyUserById?.(known.proxyUserId);
    const plan = user ? deps.store.getPlanById(user.planId) : deps.store.getPlanByLogin(known.login);
    const password = user ? user.password : plan?.password;
    // Saved settings are part of the targeting: a change to them (a new object) means a fresh admit.
    const saved = user?.saved ?? plan?.saved;
    const isSameUser = known.proxyUserId === null || user !== undefined;
    if (plan && isSameUser && password === known.password && saved === known.saved) {
      return checkPlan(deps, plan, user, known.targeting, session);
    }
  }
  return admitHttpAgain(deps, header, session);
}

/** A header the connection has not proved before (or whose plan or user changed): a full admit. */
async function admitHttpAgain(
  deps: AdmissionDeps,
  header: string | undefined,
  session: ClientSession,
): Promise<Admitted> {
  const credentials = knownCredentialsOf(header) ?? readBasicCredentials(header);
  const admitted = await admit(deps, credentials, session);
  if (credentials) {
    rememberCredentials(header, credentials);
  }
  if (header !== undefined) {
    const user = admitted.proxyUser;
    session.knownIdentity = {
      header,
      login: user?.login ?? admitted.plan.login,
      password: user?.password ?? admitted.plan.password,
      proxyUserId: user?.proxyUserId ?? null,
      saved: user?.saved ?? admitted.plan.saved,
      targeting: admitted.targeting,
    };
  }
  return admitted;
}
