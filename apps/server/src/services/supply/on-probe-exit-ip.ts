import type { ServiceContext } from '../context.ts';

/**
 * Where the source probe job hands each exit IP a network's probe learnt (the one call site: jobs/
 * probe-sources.ts). The IP is already kept on the source's probe (`source_probes.last_probe_exit_ip`).
 * TO WIRE when the network catalogs land: locate it into the source's catalog here, with
 * `learnCatalogLocation(ctx.db, sourceId, exitIp)`, as sessions' exit IPs are.
 */
export async function onProbeExitIp(
  ctx: Pick<ServiceContext, 'log'>,
  params: { sourceId: string; exitIp: string },
): Promise<void> {
  ctx.log?.debug({ sourceId: params.sourceId, exitIp: params.exitIp }, 'source probe learnt an exit IP');
}
