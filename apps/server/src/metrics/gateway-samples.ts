import { CLIENT_PROTOCOLS, type GatewayErrorCode, type GatewayStats, gatewayErrors } from '@bytegate/gateway';

export interface Sample<Label extends string> {
  labels: Record<Label, string>;
  value: number;
}

const ERROR_CODES = Object.keys(gatewayErrors) as GatewayErrorCode[];

/**
 * The engine's counters as labelled samples. Every label value comes from a fixed list (protocols,
 * the error catalogue, two directions), never from what the counters happen to hold: nothing a client
 * sends can become a label, and every series exists from the start (at 0), so rate() sees its first rise.
 */
export function gatewaySamples(stats: GatewayStats) {
  return {
    connectionsOpen: CLIENT_PROTOCOLS.map(
      (protocol): Sample<'protocol'> => ({ labels: { protocol }, value: stats.connectionsOpen[protocol] }),
    ),
    connectionsTotal: CLIENT_PROTOCOLS.map(
      (protocol): Sample<'protocol'> => ({ labels: { protocol }, value: stats.connectionsTotal[protocol] }),
    ),
    refusals: ERROR_CODES.map((code): Sample<'code'> => ({ labels: { code }, value: stats.refusals[code] })),
    bytesRelayed: [
      { labels: { direction: 'from_client' }, value: stats.relayed.fromClientBytes },
      { labels: { direction: 'to_client' }, value: stats.relayed.toClientBytes },
    ] satisfies Sample<'direction'>[],
  };
}
