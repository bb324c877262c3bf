export * from './errors.ts';
export * from './gateway.ts';
export { ClientConnection } from './http1/client-connection.ts';
export { ForwardExchange } from './http1/exchange.ts';
export {
  endToEndHeaders,
  requestFraming,
  serializeHead,
  splitAbsoluteUrl,
  wantsKeepAlive,
} from './http1/messages.ts';
export { TargetPool } from './http1/target-pool.ts';
export { BLOCKED_HOST_CATEGORIES, DEFAULT_BLOCKED_HOSTS, DomainSet } from './policy/blocked-hosts.ts';
export { DEFAULT_OPEN_PORTS, type Unblocks } from './policy/target-policy.ts';
export * from './routing/username.ts';
export * from './store.ts';
export { connectTarget, relay } from './tunnel/relay.ts';
export { parseUpstreamUrl, type UpstreamProxy } from './tunnel/upstream.ts';
export type { PlanUsage } from './tunnel/usage-meter.ts';
