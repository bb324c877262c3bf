import { listNetworkSourcesToProbe, raiseSourceAlarm, recordSourceProbe } from '@bytegate/db/queries';
import { SOURCE_ALARMS } from '@bytegate/gateway';
import { toGatewaySource } from '../gateway/gateway-sources.ts';
import type { ServiceContext } from '../services/context.ts';
import { type ProbeTarget, resolveProbeTarget } from '../services/inventory/probe-through-exit.ts';
import { onProbeExitIp } from '../services/supply/on-probe-exit-ip.ts';
import { type NetworkProbeOutcome, probeThroughNetwork } from '../services/supply/probe-through-network.ts';
import { mapLimited, probeJobs } from './probe-exits.ts';
import type { Job } from './scheduler.ts';

/** Networks probed at once: a handful of sources, each its own vendor. */
const CONCURRENCY = 4;

export interface SourceProbeRound {
  probed: number;
  failed: number;
  /** Every network failed on the target's side (two or more): the target looked down, none counted. */
  isTargetDown: boolean;
  /** The sources whose alarm a refusal of our account, quota or spelling raised. */
  alarmed: string[];
}

/**
 * One round of the source probe job (docs/supply.md, "Probes"): a real request through every switched-on
 * wholesale network to EXIT_PROBE_URL, with the account's credentials and no targeting, recorded on the
 * source (source_probes: ok, connect time, the vendor's refusal class, the exit IP the target saw). A
 * refusal of our account, its quota or our spelling raises the source's alarm as the gateway's dials do,
 * in our words. The gateway reads the probes with the sources every second: a network whose last probes
 * failed goes last in the routing until a probe or a real connection through it works. Without
 * EXIT_PROBE_URL it does nothing.
 */
export async function probeSources(
  ctx: ServiceContext,
  options: { timeoutMs?: number; now?: () => Date } = {},
): Promise<SourceProbeRound> {
  const round: SourceProbeRound = { probed: 0, failed: 0, isTargetDown: false, alarmed: [] };
  const settings = ctx.config.exitProbe;
  if (!settings) {
    return round;
  }
  const now = options.now ?? (() => new Date());
  let target: ProbeTarget;
  try {
    target = await resolveProbeTarget(settings.url);
  } catch (error) {
    ctx.log?.warn({ err: error, url: settings.url }, 'probe target does not resolve; networks not probed');
    return round;
  }
  const rows = await listNetworkSourcesToProbe(ctx.db);
  const outcomes = await mapLimited(rows, CONCURRENCY, async (row): Promise<NetworkProbeOutcome> => {
    const source = toGatewaySource(row);
    return source?.kind === 'network'
      ? probeThroughNetwork(source, target, { timeoutMs: options.timeoutMs })
      : {
          isOk: false,
          connectMs: null,
          refusal: null,
          refusalCode: null,
          exitIp: null,
          isTargetSide: false,
          error: "the source's URL or grammar cannot be read",
        };
  });
  round.probed = rows.length;
  round.failed = outcomes.filter((outcome) => !outcome.isOk).length;
  round.isTargetDown = rows.length >= 2 && outcomes.every((outcome) => !outcome.isOk && outcome.isTargetSide);
  if (round.isTargetDown) {
    ctx.log?.warn({ url: settings.url }, 'probe failed through every network: the target looks down');
  }
  for (const [index, row] of rows.entries()) {
    const outcome = outcomes[index] as NetworkProbeOutcome;
    const checkedAt = now();
    try {
      await recordSourceProbe(ctx.db, {
        sourceId: row.id,
        checkedAt,
        isOk: outcome.isOk,
        connectMs: outcome.connectMs,
        refusal: outcome.refusal,
        error: outcome.error,
        exitIp: outcome.exitIp,
        isCounted: !round.isTargetDown,
      });
      const alarm = outcome.refusal ? SOURCE_ALARMS[outcome.refusal] : undefined;
      if (alarm) {
        await raiseSourceAlarm(ctx.db, {
          sourceId: row.id,
          alarm: `${alarm} (a probe: ${outcome.refusalCode ?? 'refused'})`,
          at: checkedAt,
        });
        round.alarmed.push(row.id);
      }
      if (!outcome.isOk) {
        ctx.log?.warn({ sourceId: row.id, source: row.name, error: outcome.error }, 'network probe failed');
      }
      if (outcome.exitIp) {
        await onProbeExitIp(ctx, { sourceId: row.id, exitIp: outcome.exitIp });
      }
    } catch (error) {
      // Removed while it was probed (its probe row has nowhere to go): the others go on.
      ctx.log?.warn({ err: error, sourceId: row.id }, 'network probe not recorded');
    }
  }
  return round;
}

/** The source probe job, beside the exits' (same EXIT_PROBE_URL and interval). */
export const sourceProbeJobs = (ctx: ServiceContext): Job[] => probeJobs(ctx, 'probe-sources', probeSources);
