// What is checked on every request once its identity is known (admission.ts proves the identity): the
// plan's and proxy user's state, their traffic, a thread slot held for the connection's life, and for a
// session the exit the fleet bound it to.
import type { Targeting } from '@bytegate/contracts/targeting';
import type { AdmissionDeps, Admitted } from './admission.ts';
import type { ClientSession } from './client-session.ts';
import { GatewayError, type RefusedAccount } from './errors.ts';
import { chooseExit, sessionKey, sessionTtlMs } from './routing/select-exit.ts';
import { isTargetFilter } from './routing/username.ts';
import type { ReleaseSlot, SessionDirectory } from './shared-state.ts';
import { type Exit, type PlanAccess, type ProxyUserAccess, proxyUserKey } from './store.ts';
import { agreeOnSourceSession } from './supply/session-agreement.ts';

/** Whose usage a refusal after the credential check counts in (allocated only when refusing). */
export const accountOf = (plan: PlanAccess, user: ProxyUserAccess | undefined): RefusedAccount => ({
  planId: plan.planId,
  userKey: user ? proxyUserKey(user.proxyUserId) : undefined,
});

const noTrafficLeft = (account: RefusedAccount) =>
  new GatewayError('TRAFFIC_EXHAUSTED', 'The plan has no traffic left; add GB in the dashboard', account);

/** A proxy user's own cap is used up. */
const capUsedUp = (cap: { description: string }, account: RefusedAccount) =>
  new GatewayError(
    'TRAFFIC_EXHAUSTED',
    `This proxy user's ${cap.description} is used up (the plan still has traffic); raise the cap in the dashboard`,
    account,
  );

/**
 * Why a request admitted with traffic found none left before its answer: its proxy user's cap when
 * that is what ran out, else the plan's traffic.
 */
export function trafficEnded(
  meter: AdmissionDeps['meter'],
  { plan, proxyUser, userKey }: Pick<Admitted, 'plan' | 'proxyUser' | 'userKey'>,
): GatewayError {
  const cap = proxyUser?.cap;
  const planLeft = plan.trafficLeftBytes - meter.spentBytes(plan.planId);
  if (cap && userKey && cap.leftBytes - meter.spentBytes(userKey) <= 0 && planLeft > 0) {
    return capUsedUp(cap, accountOf(plan, proxyUser));
  }
  return noTrafficLeft(accountOf(plan, proxyUser));
}

/**
 * What is checked on every request, even when the identity is known: plan state, traffic, a thread, and
 * for a proxy user its own state, cap and thread limit on top. In-process this settles without waiting;
 * with shared state, the fleet's answers are awaited together (their round trips leave in one pipeline).
 * Throws a refusal it can give at once; the answer is a promise only when something must be awaited.
 */
export function checkPlan(
  deps: AdmissionDeps,
  plan: PlanAccess,
  user: ProxyUserAccess | undefined,
  targeting: Targeting,
  session: ClientSession,
): Admitted | Promise<Admitted> {
  if (!plan.isActive) {
    throw new GatewayError('NO_USER', 'This proxy plan is not active');
  }
  if (user && !user.isEnabled) {
    throw new GatewayError('NO_USER', 'This proxy user is disabled');
  }
  if (plan.trafficLeftBytes - deps.meter.spentBytes(plan.planId) <= 0) {
    throw noTrafficLeft(accountOf(plan, user));
  }
  const userKey = user ? proxyUserKey(user.proxyUserId) : undefined;
  const cap = user?.cap;
  if (cap && userKey && cap.leftBytes - deps.meter.spentBytes(userKey) <= 0) {
    throw capUsedUp(cap, accountOf(plan, user));
  }
  // A connection holds one of the plan's threads, and one of its proxy user's when that has a limit.
  const slotOwner = userKey ?? plan.planId;
  const isNewSlot = session.threadPlanId !== plan.planId || session.threadOwner !== slotOwner;
  const slot = isNewSlot ? deps.threads.acquire(plan.planId, plan.threadLimit) : null;
  const userLimit = user?.threadLimit;
  const userSlot =
    isNewSlot && userKey && userLimit !== undefined ? deps.threads.acquire(userKey, userLimit) : null;
  const traffic = deps.meter.allowance.prepare?.(plan.planId);
  const capTraffic = cap && userKey ? deps.meter.allowance.prepare?.(userKey) : undefined;
  const agreed = deps.directory
    ? agreeOnSession(deps, deps.directory, plan, user, targeting, session)
    : undefined;
  const checked: CheckedPlan = { plan, user, userKey, targeting, session, isNewSlot, slotOwner };
  // In-process everything has answered already: no promise (and no turn of the event loop) per request.
  if (
    slot instanceof Promise ||
    userSlot instanceof Promise ||
    traffic !== undefined ||
    capTraffic !== undefined ||
    agreed !== undefined
  ) {
    return Promise.all([slot, userSlot, traffic, capTraffic, agreed]).then(
      ([release, releaseUser, hasTraffic, hasCapTraffic]) =>
        settlePlan(checked, release, releaseUser, hasTraffic, hasCapTraffic),
    );
  }
  return settlePlan(
    checked,
    slot as ReleaseSlot | null,
    userSlot as ReleaseSlot | null,
    undefined,
    undefined,
  );
}

/** What checkPlan found before the answers it may wait for. */
interface CheckedPlan {
  plan: PlanAccess;
  user: ProxyUserAccess | undefined;
  userKey: string | undefined;
  targeting: Targeting;
  session: ClientSession;
  isNewSlot: boolean;
  slotOwner: string;
}

/** The thread slots and traffic answers in: the connection keeps its slots, or is refused. */
function settlePlan(
  { plan, user, userKey, targeting, session, isNewSlot, slotOwner }: CheckedPlan,
  release: ReleaseSlot | null,
  releaseUser: ReleaseSlot | null,
  hasTraffic: boolean | undefined,
  hasCapTraffic: boolean | undefined,
): Admitted {
  const userLimit = user?.threadLimit;
  if (isNewSlot) {
    if (!release || (userLimit !== undefined && !releaseUser)) {
      release?.();
      releaseUser?.();
      throw new GatewayError(
        'THREADS_EXHAUSTED',
        release
          ? `This proxy user's limit of ${userLimit} concurrent connections is reached`
          : `The plan's limit of ${plan.threadLimit} concurrent connections is reached`,
        accountOf(plan, user),
      );
    }
    const releaseBoth = releaseUser
      ? () => {
          release();
          releaseUser();
        }
      : release;
    if (session.socket.destroyed) {
      // The client left while the fleet answered: its close has run, nothing else would give this back.
      releaseBoth();
      throw new GatewayError('NO_HOST_CONNECTION', 'The client closed the connection');
    }
    session.releaseThread?.();
    session.threadPlanId = plan.planId;
    session.threadOwner = slotOwner;
    session.releaseThread = releaseBoth;
    session.socket.once('close', releaseBoth);
  }
  if (hasTraffic === false) {
    throw noTrafficLeft(accountOf(plan, user));
  }
  const cap = user?.cap;
  if (hasCapTraffic === false && cap) {
    throw capUsedUp(cap, accountOf(plan, user));
  }
  return { plan, proxyUser: user, userKey, targeting, isDoubled: isTargetFilter(targeting) };
}

/**
 * A session (a `sessid`, a sticky port) gets the exit the fleet has bound it to, so every gateway
 * sends it the same way: this gateway's own choice is offered, and the fleet's binding wins. A pool with
 * sources agrees by its routing (one of our exits or a wholesale network: agreeOnSourceSession). Routing
 * failures are left to the dialer, which meets them again and answers them in order.
 */
async function agreeOnSession(
  deps: AdmissionDeps,
  directory: SessionDirectory,
  plan: PlanAccess,
  user: ProxyUserAccess | undefined,
  targeting: Targeting,
  session: ClientSession,
): Promise<void> {
  const sessions = deps.sessions;
  if (!sessions) {
    return;
  }
  const choice = {
    sessions,
    // As the dialer's (exit-dialer.ts): a proxy user's sessions are its own.
    planId: user ? proxyUserKey(user.proxyUserId) : plan.planId,
    defaultTtlMinutes: (user?.saved ?? plan.saved)?.rotationMinutes ?? deps.defaultSessionTtlMinutes ?? 30,
    stickyPort: session.stickyPort,
  };
  const key = sessionKey(choice, targeting);
  if (!key) {
    return;
  }
  const exits = deps.store.exitIndex(plan.poolType);
  const sources = deps.store.listSources?.(plan.poolType) ?? [];
  if (sources.length > 0) {
    return agreeOnSourceSession({
      directory,
      sessions,
      sources,
      exits,
      targeting,
      key,
      ttlMs: sessionTtlMs(choice, targeting),
      health: deps.sourceHealth ?? IDLE_HEALTH,
      preference: deps.supplyPreference ?? 'weight',
    });
  }
  let proposed: Exit;
  try {
    proposed = chooseExit(exits, targeting, choice);
  } catch {
    return;
  }
  const ttlMs = sessionTtlMs(choice, targeting);
  const bound = await directory.claim(key, proposed.id, ttlMs);
  if (!bound || bound.exitId === proposed.id) {
    return;
  }
  const exit = exits.getMatching(bound.exitId, targeting);
  if (exit) {
    sessions.bind(key, exit, bound.ttlMs);
  } else {
    // Bound to an exit this gateway no longer routes through (gone, or out of rotation): move it.
    directory.rebind(key, proposed.id, ttlMs);
  }
}

/** Every source alike, for an engine run without a SourceHealth (as the dialer's). */
const IDLE_HEALTH = { score: () => 1, isHeldDown: () => false };
