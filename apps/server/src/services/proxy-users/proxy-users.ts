import {
  bytesToGbText,
  type CreateProxyUserBody,
  MAX_PROXY_USERS_PER_PLAN,
  PROXY_USER_LOGIN,
  type ProxyUser,
  type ProxyUserFields,
  proxyUserMessages,
} from '@bytegate/contracts/proxy-users';
import type { Executor } from '@bytegate/db';
import {
  capPeriodStart,
  countProxyUsers,
  createProxyUser,
  deleteProxyUser,
  getOwnProxyUser,
  getPlanById,
  isProxyLoginTaken,
  listProxyUsers,
  lockPlan,
  type PlanRow,
  type ProxyUserRow,
  sumLifetimeReservedBytes,
  sumProxyUserUsageSince,
  type TrafficCapPeriod,
  updateProxyUser,
} from '@bytegate/db/queries';
import { recordActivity } from '../activity/record-activity.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { createPlanCredentials } from '../plans/plan-credentials.ts';
import { presentProxyUser } from './present-proxy-user.ts';
import { readProxyUserFields } from './proxy-user-input.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account's plan, locked: every change to its proxy users runs behind this lock. */
async function lockOwnPlan(tx: Executor, userId: string, planId: string): Promise<PlanRow> {
  const plan = UUID.test(planId) ? await lockPlan(tx, { planId }) : null;
  if (!plan || plan.userId !== userId) {
    throw new DomainError('NOT_FOUND', proxyUserMessages.planNotFound);
  }
  return plan;
}

/** The account's proxy user, with its plan locked first (the order every writer takes). */
async function lockOwnProxyUser(
  tx: Executor,
  userId: string,
  proxyUserId: string,
): Promise<{ plan: PlanRow; proxyUser: ProxyUserRow }> {
  const found = UUID.test(proxyUserId) ? await getOwnProxyUser(tx, { userId, proxyUserId }) : null;
  if (!found) {
    throw new DomainError('NOT_FOUND', proxyUserMessages.notFound);
  }
  const plan = await lockOwnPlan(tx, userId, found.plan.id);
  const locked = await getOwnProxyUser(tx, { userId, proxyUserId, forUpdate: true });
  if (!locked) {
    throw new DomainError('NOT_FOUND', proxyUserMessages.notFound);
  }
  return { plan, proxyUser: locked.proxyUser };
}

/** What a proxy user's lifetime cap sets aside of its plan now: the part it has not used. */
function setAsideBy(proxyUser: ProxyUserRow): number {
  return proxyUser.capPeriod === 'lifetime' && proxyUser.trafficCapBytes !== null
    ? Math.max(0, proxyUser.trafficCapBytes - proxyUser.trafficUsedBytes)
    : 0;
}

/**
 * A lifetime cap sets traffic aside for its user: all lifetime caps' unused parts together stay within
 * what the plan has left, so what a reseller hands out exists. `unusedCapBytes` is what `proxyUser`
 * (absent: a new one) would set aside; a refusal names what the plan has not set aside now.
 */
async function checkLifetimeCapFits(
  tx: Executor,
  plan: PlanRow,
  proxyUser: ProxyUserRow | undefined,
  unusedCapBytes: number,
  field = 'traffic_cap_gb',
): Promise<void> {
  const reserved = await sumLifetimeReservedBytes(tx, { planId: plan.id, exceptProxyUserId: proxyUser?.id });
  const free = Math.max(0, plan.trafficTotalBytes - plan.trafficUsedBytes - reserved);
  if (unusedCapBytes > free) {
    const notSetAside = Math.max(0, free - (proxyUser ? setAsideBy(proxyUser) : 0));
    throw new DomainError(
      'VALIDATION_FAILED',
      proxyUserMessages.notEnoughOnPlan(bytesToGbText(notSetAside)),
      {
        field,
      },
    );
  }
}

function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error || typeof cause === 'object'; ) {
    if ((cause as { code?: unknown } | null)?.code === '23505') {
      return true;
    }
    const next = (cause as { cause?: unknown } | null)?.cause;
    if (next === undefined || next === cause) {
      return false;
    }
    cause = next;
  }
  return false;
}

function generatedLogin(): string {
  const { login } = createPlanCredentials();
  // A plan's login with its `bg` swapped for `pu`: the same alphabet and length, never a plan's.
  return `pu${login.slice(2)}`;
}

export async function createProxyUserForPlan(
  ctx: ServiceContext,
  props: {
    userId: string;
    planId: string;
    body: CreateProxyUserBody;
    /** The address the request came from: on the allowlist, it is proved (see readProxyUserFields). */
    callerAddress?: string | null;
  },
): Promise<ProxyUser> {
  const chosen = props.body.login;
  if (chosen !== undefined && !PROXY_USER_LOGIN.test(chosen)) {
    throw new DomainError('VALIDATION_FAILED', proxyUserMessages.loginFormat, { field: 'login' });
  }
  try {
    const row = await ctx.db.transaction(async (tx) => {
      const plan = await lockOwnPlan(tx, props.userId, props.planId);
      if (!plan.isActive) {
        throw new DomainError('CONFLICT', proxyUserMessages.planInactive);
      }
      if ((await countProxyUsers(tx, { planId: plan.id })) >= MAX_PROXY_USERS_PER_PLAN) {
        throw new DomainError('CONFLICT', proxyUserMessages.full);
      }
      const fields = await readProxyUserFields(tx, plan, props.body, {
        userId: props.userId,
        callerAddress: props.callerAddress ?? null,
      });
      if (fields.capPeriod === 'lifetime') {
        await checkLifetimeCapFits(tx, plan, undefined, fields.trafficCapBytes ?? 0);
      }
      let login = chosen ?? generatedLogin();
      if (await isProxyLoginTaken(tx, { login })) {
        if (chosen !== undefined) {
          throw new DomainError('VALIDATION_FAILED', proxyUserMessages.loginTaken, { field: 'login' });
        }
        login = generatedLogin();
      }
      const created = await createProxyUser(tx, {
        ...fields,
        planId: plan.id,
        login,
        password: createPlanCredentials().password,
      });
      await recordActivity(tx, {
        userId: props.userId,
        kind: 'proxy_user_created',
        details: { poolType: plan.poolType, login: created.login },
      });
      return created;
    });
    return presentProxyUser(row);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DomainError('VALIDATION_FAILED', proxyUserMessages.loginTaken, { field: 'login' });
    }
    throw error;
  }
}

/** A page of a plan's proxy users, oldest first; the cursor is the last one's (created_at, id). */
export async function listProxyUsersOfPlan(
  ctx: ServiceContext,
  props: { userId: string; planId: string; cursor: string | undefined; limit: number },
): Promise<{ proxy_users: ProxyUser[]; next_cursor: string | null }> {
  const plan = await getPlanById(ctx.db, { userId: props.userId, planId: props.planId });
  if (!plan) {
    throw new DomainError('NOT_FOUND', proxyUserMessages.planNotFound);
  }
  const rows = await listProxyUsers(ctx.db, {
    planId: plan.id,
    after: props.cursor === undefined ? undefined : decodeCursor(props.cursor),
    limit: props.limit + 1,
  });
  const page = rows.slice(0, props.limit);
  const last = page.at(-1);
  const now = new Date();
  return {
    proxy_users: page.map((row) => presentProxyUser(row.proxyUser, now)),
    next_cursor: rows.length > props.limit && last ? encodeCursor(last) : null,
  };
}

/** The last row's exact `created_at` (to the microsecond) and id. */
function encodeCursor(row: { proxyUser: ProxyUserRow; createdAtExact: string }): string {
  return Buffer.from(JSON.stringify([row.createdAtExact, row.proxyUser.id])).toString('base64url');
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof at === 'string' &&
      CURSOR_TIME.test(at) &&
      !Number.isNaN(Date.parse(at)) &&
      typeof id === 'string' &&
      UUID.test(id)
    ) {
      return { createdAt: at, id };
    }
  } catch {
    // answered below
  }
  throw new DomainError('VALIDATION_FAILED', 'cursor is not one this API gave out.', { field: 'cursor' });
}

export async function getProxyUser(
  ctx: ServiceContext,
  props: { userId: string; proxyUserId: string },
): Promise<ProxyUser> {
  const found = UUID.test(props.proxyUserId) ? await getOwnProxyUser(ctx.db, props) : null;
  if (!found) {
    throw new DomainError('NOT_FOUND', proxyUserMessages.notFound);
  }
  return presentProxyUser(found.proxyUser);
}

/**
 * A day or month cap's counters for a period it starts to count in: the period's start and what the user
 * used since (its hourly buckets), so a cap that changes period counts what was used in the new one and
 * the flush goes on adding to it. A lifetime cap counts the lifetime counter: nothing to set.
 */
async function periodCounters(
  tx: Executor,
  proxyUserId: string,
  period: TrafficCapPeriod,
  now: Date,
): Promise<{ periodStart: Date; periodUsedBytes: number } | Record<string, never>> {
  const start = capPeriodStart(period, now);
  if (start === null) {
    return {};
  }
  return {
    periodStart: start,
    periodUsedBytes: await sumProxyUserUsageSince(tx, { proxyUserId, since: start }),
  };
}

/**
 * Changes a proxy user's fields. The gateways see it within a second (the write touches the plan), so a
 * cap it is now over or a disable closes its open connections within 2 s; a smaller thread limit holds
 * back new ones until it is under it.
 */
export async function updateProxyUserFields(
  ctx: ServiceContext,
  props: {
    userId: string;
    proxyUserId: string;
    fields: ProxyUserFields;
    /** The address the request came from: on the allowlist, it is proved (see readProxyUserFields). */
    callerAddress?: string | null;
  },
): Promise<ProxyUser> {
  const row = await ctx.db.transaction(async (tx) => {
    const { plan, proxyUser } = await lockOwnProxyUser(tx, props.userId, props.proxyUserId);
    const writer = { userId: props.userId, callerAddress: props.callerAddress ?? null };
    const set = await readProxyUserFields(tx, plan, props.fields, writer, proxyUser);
    const capBytes = set.trafficCapBytes === undefined ? proxyUser.trafficCapBytes : set.trafficCapBytes;
    const period = set.capPeriod === undefined ? proxyUser.capPeriod : set.capPeriod;
    const raisesLifetime =
      period === 'lifetime' &&
      capBytes !== null &&
      (proxyUser.capPeriod !== 'lifetime' || capBytes > (proxyUser.trafficCapBytes ?? 0));
    if (raisesLifetime) {
      await checkLifetimeCapFits(tx, plan, proxyUser, Math.max(0, capBytes - proxyUser.trafficUsedBytes));
    }
    if (period !== proxyUser.capPeriod && period !== null) {
      Object.assign(set, await periodCounters(tx, proxyUser.id, period, new Date()));
    }
    if (Object.keys(set).length === 0) {
      return proxyUser;
    }
    await recordActivity(tx, {
      userId: props.userId,
      kind: 'proxy_user_updated',
      details: { poolType: plan.poolType, login: proxyUser.login, change: 'settings' },
    });
    return updateProxyUser(tx, { proxyUserId: proxyUser.id, planId: plan.id, set });
  });
  return presentProxyUser(row);
}

/** A new password: the old one is refused at once, and tunnels opened with it close within 2 s. */
export async function regenerateProxyUserPassword(
  ctx: ServiceContext,
  props: { userId: string; proxyUserId: string },
): Promise<ProxyUser> {
  const row = await ctx.db.transaction(async (tx) => {
    const { plan, proxyUser } = await lockOwnProxyUser(tx, props.userId, props.proxyUserId);
    await recordActivity(tx, {
      userId: props.userId,
      kind: 'proxy_user_updated',
      details: { poolType: plan.poolType, login: proxyUser.login, change: 'password' },
    });
    return updateProxyUser(tx, {
      proxyUserId: proxyUser.id,
      planId: plan.id,
      set: { password: createPlanCredentials().password },
    });
  });
  return presentProxyUser(row);
}

/** Deletes a proxy user: its login stops working and its open tunnels close within 2 s. */
export async function deleteOwnProxyUser(
  ctx: ServiceContext,
  props: { userId: string; proxyUserId: string },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const { plan, proxyUser } = await lockOwnProxyUser(tx, props.userId, props.proxyUserId);
    await deleteProxyUser(tx, { proxyUserId: proxyUser.id, planId: plan.id });
    await recordActivity(tx, {
      userId: props.userId,
      kind: 'proxy_user_deleted',
      details: { poolType: plan.poolType, login: proxyUser.login },
    });
  });
}

export { checkLifetimeCapFits, lockOwnProxyUser };
