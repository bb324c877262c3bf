export * from './agents/agent-link.ts';
export * from './agents/directory.ts';
export * from './agents/hub.ts';
export * from './agents/hub-certificate.ts';
export * from './allowlist-holders.ts';
export * from './auth-throttle.ts';
export * from './counters.ts';
export * from './errors.ts';
export * from './gateway.ts';
export { ClientConnection } from './http1/client-connection.ts';
export { ForwardExchange } from './http1/exchange.ts';
export { forwardRequestFor } from './http1/forward-request.ts';
export { splitAbsoluteUrl } from './http1/messages.ts';
export { TargetPool } from './http1/target-pool.ts';
export { BLOCKED_HOST_CATEGORIES, DEFAULT_BLOCKED_HOSTS, DomainSet } from './policy/blocked-hosts.ts';
export { DEFAULT_OPEN_PORTS, isPrivateAddress, type Unblocks } from './policy/target-policy.ts';
export { ExitIndex } from './routing/exit-index.ts';
export { exitMatches } from './routing/exit-matches.ts';
export { sessionKey } from './routing/select-exit.ts';
export * from './routing/username.ts';
export * from './shared-state.ts';
export * from './store.ts';
export {
  buildCatalog,
  type CatalogCountry,
  type CatalogPlaceRow,
  catalogServes,
  type SourceCatalog,
} from './supply/catalog.ts';
export type {
  DialRefusal,
  GrammarAdapter,
  GrammarName,
  GrammarSpec,
  NetworkAccount,
  VendorRefusal,
} from './supply/grammar.ts';
export { GRAMMAR_NAMES, SOURCE_ALARMS } from './supply/grammar.ts';
export { grammarAdapter } from './supply/grammars/index.ts';
export { networkExit } from './supply/route.ts';
export type {
  ExitsSource,
  NetworkSource,
  Source,
  SourceProbe,
  SourceState,
  SupplyPreference,
} from './supply/source.ts';
export {
  isHeldDownByProbes,
  PROBE_FAILURES_TO_HOLD_DOWN,
  type SourceAlarm,
  type SourceDials,
  type SourceHealth,
} from './supply/source-health.ts';
export { connectThroughExit, EXIT_CONNECT_TIMEOUT_MS } from './tunnel/exit-dialer.ts';
export type { ExitHealth, ExitTraffic } from './tunnel/exit-health.ts';
export type { PlanUsage } from './tunnel/plan-usage.ts';
export { connectTarget, relay } from './tunnel/relay.ts';
export { ThreadLimits } from './tunnel/thread-limits.ts';
export { LocalTrafficAllowance, MAX_GRANT_BYTES, type TrafficAllowance } from './tunnel/traffic-allowance.ts';
export { parseUpstreamUrl, type UpstreamProxy, UpstreamRefusal } from './tunnel/upstream.ts';
export type { GatewayLog } from './tunnel/usage-flush.ts';
