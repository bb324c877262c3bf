import type { PoolType } from '@bytegate/contracts/pools';
import {
  DAILY_RETENTION_DAYS,
  HOURLY_RETENTION_DAYS,
  MAX_HOURLY_RANGE_DAYS,
  type StatsCredential,
  type StatsResolution,
  statsMessages,
} from '@bytegate/contracts/stats';
import type { Executor } from '@bytegate/db';
import { ALL_CREDENTIALS, listStatsPlans, listStatsProxyUsers, PLAN_LOGIN } from '@bytegate/db/queries';
import { DomainError } from '../domain-error.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** What a view asks for, as its query string says it. */
export interface StatsRequest {
  from: string;
  to: string;
  resolution?: StatsResolution | undefined;
  pool?: PoolType | undefined;
  credential?: string | undefined;
}

/** The rows a view reads: the customer's plans it covers, one credential key, a whole-step range. */
export interface ResolvedScope {
  planIds: string[];
  credentialKey: string;
  resolution: StatsResolution;
  /** Whole hours (or UTC days): from inclusive, to exclusive. */
  from: Date;
  to: Date;
}

const stepOf = (resolution: StatsResolution) => (resolution === 'hour' ? HOUR_MS : DAY_MS);
const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

/** The range in whole steps (the hour or UTC day `from` falls in, to the end of the one before `to`). */
export function wholeRange(
  request: Pick<StatsRequest, 'from' | 'to'>,
  resolution: StatsResolution,
  now: Date,
): { from: Date; to: Date } {
  const from = Date.parse(request.from);
  const to = Date.parse(request.to);
  if (Number.isNaN(from) || Number.isNaN(to) || from >= to) {
    throw new DomainError('VALIDATION_FAILED', statsMessages.rangeInvalid);
  }
  const step = stepOf(resolution);
  const range = { from: new Date(floorTo(from, step)), to: new Date(ceilTo(to, step)) };
  if (resolution === 'hour' && range.to.getTime() - range.from.getTime() > MAX_HOURLY_RANGE_DAYS * DAY_MS) {
    throw new DomainError('VALIDATION_FAILED', statsMessages.rangeTooLongHourly);
  }
  const keptDays = resolution === 'hour' ? HOURLY_RETENTION_DAYS : DAILY_RETENTION_DAYS;
  if (range.to.getTime() <= now.getTime() - keptDays * DAY_MS) {
    throw new DomainError('VALIDATION_FAILED', statsMessages.rangeTooOld);
  }
  return range;
}

/**
 * Resolves a view for a customer: the plans of the pool (or all), narrowed to one credential when asked
 * (`plan:<id>`, the plan's own login; `user:<id>`, a proxy user), which must be the customer's.
 */
export async function resolveStatsScope(
  db: Executor,
  params: { userId: string; request: StatsRequest; now?: Date },
): Promise<ResolvedScope> {
  const resolution = params.request.resolution ?? 'hour';
  const { from, to } = wholeRange(params.request, resolution, params.now ?? new Date());
  const plans = (await listStatsPlans(db, { userId: params.userId })).filter(
    (plan) => !params.request.pool || plan.poolType === params.request.pool,
  );
  const credential = params.request.credential;
  if (!credential) {
    return {
      planIds: plans.map((plan) => plan.planId),
      credentialKey: ALL_CREDENTIALS,
      resolution,
      from,
      to,
    };
  }
  const [kind, id] = credential.split(':', 2);
  if (kind === 'plan' && plans.some((plan) => plan.planId === id)) {
    return { planIds: [id as string], credentialKey: PLAN_LOGIN, resolution, from, to };
  }
  if (kind === 'user' && id) {
    const users = await listStatsProxyUsers(db, { planIds: plans.map((plan) => plan.planId) });
    const user = users.find((candidate) => candidate.proxyUserId === id);
    if (user) {
      return { planIds: [user.planId], credentialKey: user.proxyUserId, resolution, from, to };
    }
  }
  throw new DomainError('NOT_FOUND', statsMessages.credentialUnknown, { field: 'credential' });
}

/** Every credential of the customer's plans a view can be narrowed to, plans first then proxy users. */
export async function listStatsCredentials(
  db: Executor,
  params: { userId: string },
): Promise<StatsCredential[]> {
  const plans = await listStatsPlans(db, params);
  const poolOf = new Map(plans.map((plan) => [plan.planId, plan.poolType]));
  const users = await listStatsProxyUsers(db, { planIds: plans.map((plan) => plan.planId) });
  return [
    ...plans.map((plan) => ({
      id: `plan:${plan.planId}`,
      label: plan.label,
      login: plan.login,
      pool: plan.poolType,
      kind: 'plan' as const,
    })),
    ...users.map((user) => ({
      id: `user:${user.proxyUserId}`,
      label: user.label || user.login,
      login: user.login,
      pool: poolOf.get(user.planId) ?? 'datacenter',
      kind: 'proxy_user' as const,
    })),
  ];
}

/** Every step of the range, oldest first: the points a series fills, zeros included. */
export function stepsOf(scope: Pick<ResolvedScope, 'from' | 'to' | 'resolution'>): Date[] {
  const step = stepOf(scope.resolution);
  const steps: Date[] = [];
  for (let at = scope.from.getTime(); at < scope.to.getTime(); at += step) {
    steps.push(new Date(at));
  }
  return steps;
}
