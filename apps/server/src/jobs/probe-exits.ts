import {
  type ExitRow,
  listExitsRestoredSince,
  listExitsToProbe,
  recordExitProbe,
  sumExitTraffic,
} from '@bytegate/db/queries';
import { toGatewayExit } from '../gateway/gateway-exits.ts';
import type { ServiceContext } from '../services/context.ts';
import { probeVerdict, trafficVerdicts } from '../services/inventory/exit-health-rules.ts';
import { HEALTH_JOB_ACTOR } from '../services/inventory/inventory-access.ts';
import {
  type ProbeOutcome,
  type ProbeTarget,
  probeThroughExit,
  resolveProbeTarget,
} from '../services/inventory/probe-through-exit.ts';
import { putExitBackIntoRotation } from '../services/inventory/put-exit-back.ts';
import { takeExitOutOfRotation } from '../services/inventory/take-exit-out.ts';
import type { Job } from './scheduler.ts';

/** Exits probed at once: enough for a large inventory within a minute, few enough to stay quiet. */
const CONCURRENCY = 8;
const HOUR_MS = 60 * 60 * 1000;

export interface ProbeRound {
  probed: number;
  failed: number;
  /** Every exit failed (two or more): the target looked down, and no failure was counted. */
  isTargetDown: boolean;
  takenOut: string[];
  putBack: string[];
}

/**
 * One round of the exit health job (docs/gateway.md, "Exit health"): a real request through every switched-on
 * exit to EXIT_PROBE_URL, recorded in exit_probes; then the rules of exit-health-rules.ts over the
 * probes and the last hour of real traffic take failing exits out of rotation and put recovered ones
 * back, each audited as `system`. Without EXIT_PROBE_URL it does nothing.
 */
export async function probeExits(
  ctx: ServiceContext,
  options: { timeoutMs?: number; now?: () => Date } = {},
): Promise<ProbeRound> {
  const round: ProbeRound = { probed: 0, failed: 0, isTargetDown: false, takenOut: [], putBack: [] };
  const settings = ctx.config.exitProbe;
  if (!settings) {
    return round;
  }
  const now = options.now ?? (() => new Date());
  let target: ProbeTarget;
  try {
    target = await resolveProbeTarget(settings.url);
  } catch (error) {
    // The target's name does not resolve here: that says nothing about the exits.
    ctx.log?.warn({ err: error, url: settings.url }, 'exit probe target does not resolve; probes skipped');
    return round;
  }
  const rows = await listExitsToProbe(ctx.db);
  const outcomes = await mapLimited(rows, CONCURRENCY, async (row): Promise<ProbeOutcome> => {
    const exit = toGatewayExit(row);
    return exit
      ? probeThroughExit(exit, target, { timeoutMs: options.timeoutMs })
      : { isOk: false, connectMs: null, error: 'the upstream URL cannot be read' };
  });
  round.probed = rows.length;
  round.failed = outcomes.filter((outcome) => !outcome.isOk).length;
  round.isTargetDown = rows.length >= 2 && round.failed === rows.length;
  if (round.isTargetDown) {
    ctx.log?.warn({ url: settings.url }, 'exit probe failed through every exit: the target looks down');
  }
  for (const [index, row] of rows.entries()) {
    const outcome = outcomes[index] as ProbeOutcome;
    try {
      const probe = await recordExitProbe(ctx.db, {
        exitId: row.id,
        checkedAt: now(),
        ...outcome,
        isCounted: !round.isTargetDown,
      });
      await apply(ctx, row, probeVerdict({ isInRotation: !row.outOfRotationAt }, probe), round);
    } catch (error) {
      // Removed while it was probed (its probe row has nowhere to go): the others go on.
      ctx.log?.warn({ err: error, exitId: row.id }, 'exit probe not recorded');
    }
  }
  await applyTrafficRule(ctx, rows, now(), round);
  return round;
}

/** The traffic rule over the exits still in rotation after the probes. */
async function applyTrafficRule(ctx: ServiceContext, rows: ExitRow[], now: Date, round: ProbeRound) {
  // The hour before this one and this one so far: at least an hour of counts.
  const since = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - HOUR_MS);
  const [totals, recentlyRestored] = await Promise.all([
    sumExitTraffic(ctx.db, { since }),
    listExitsRestoredSince(ctx.db, { since: new Date(now.getTime() - HOUR_MS) }),
  ]);
  const byId = new Map(totals.map((entry) => [entry.exitId, entry]));
  const changed = new Set([...round.takenOut, ...round.putBack]);
  const samples = rows.map((row) => ({
    exitId: row.id,
    pool: row.poolType,
    isInRotation: !row.outOfRotationAt && !changed.has(row.id),
    connects: byId.get(row.id)?.connects ?? 0,
    failures: byId.get(row.id)?.failures ?? 0,
  }));
  for (const verdict of trafficVerdicts(samples, recentlyRestored)) {
    const row = rows.find((candidate) => candidate.id === verdict.exitId);
    if (row) {
      await apply(ctx, row, { action: 'out', reason: verdict.reason }, round);
    }
  }
}

async function apply(
  ctx: ServiceContext,
  row: ExitRow,
  verdict: ReturnType<typeof probeVerdict>,
  round: ProbeRound,
): Promise<void> {
  if (!verdict) {
    return;
  }
  if (verdict.action === 'out') {
    if (
      await takeExitOutOfRotation(ctx, { exitId: row.id, reason: verdict.reason, actor: HEALTH_JOB_ACTOR })
    ) {
      round.takenOut.push(row.id);
      ctx.log?.warn({ exitId: row.id, exit: row.name, reason: verdict.reason }, 'exit taken out of rotation');
    }
    return;
  }
  await putExitBackIntoRotation(ctx, { exitId: row.id, reason: verdict.reason, actor: HEALTH_JOB_ACTOR });
  round.putBack.push(row.id);
  ctx.log?.info({ exitId: row.id, exit: row.name }, 'exit put back into rotation');
}

/** `work` over every item, at most `limit` at once, answers in the items' order. */
export async function mapLimited<T, R>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * A probe job for start.ts's list, every EXIT_PROBE_URL interval; none without EXIT_PROBE_URL. A round
 * still under way when the next is due makes that one a no-op (a large inventory on a slow target must
 * not pile rounds up).
 */
export function probeJobs(
  ctx: ServiceContext,
  name: string,
  round: (ctx: ServiceContext) => Promise<unknown>,
): Job[] {
  const settings = ctx.config.exitProbe;
  if (!settings) {
    return [];
  }
  let isRunning = false;
  return [
    {
      name,
      everyMs: settings.intervalSeconds * 1000,
      run: async () => {
        if (isRunning) {
          return;
        }
        isRunning = true;
        try {
          await round(ctx);
        } finally {
          isRunning = false;
        }
      },
    },
  ];
}

/** The exit health job. */
export const exitProbeJobs = (ctx: ServiceContext): Job[] => probeJobs(ctx, 'probe-exits', probeExits);
