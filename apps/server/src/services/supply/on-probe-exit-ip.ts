import type { ServiceContext } from '../context.ts';
import { learnCatalogLocation } from './learn-catalog-location.ts';

/**
 * Where the source probe job hands each exit IP a network's probe learnt (the one call site: jobs/
 * probe-sources.ts). The IP is kept on the source's probe (`source_probes.last_probe_exit_ip`); here it
 * is located by GeoIP into the network's catalog as a learned place. A private or unlocated address
 * teaches nothing; a failed lookup is logged and never fails the probe round.
 */
export async function onProbeExitIp(
  ctx: Pick<ServiceContext, 'db' | 'log'>,
  params: { sourceId: string; exitIp: string },
): Promise<void> {
  try {
    const learned = await learnCatalogLocation(ctx.db, params.sourceId, params.exitIp);
    ctx.log?.debug(
      { sourceId: params.sourceId, exitIp: params.exitIp, place: learned?.place, isNew: learned?.isNewPlace },
      'source probe located its exit IP',
    );
  } catch (error) {
    ctx.log?.warn({ err: error, sourceId: params.sourceId }, 'locating a probe exit IP failed');
  }
}
