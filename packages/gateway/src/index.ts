export * from './errors.ts';
export * from './gateway.ts';
export { BLOCKED_HOST_CATEGORIES, DEFAULT_BLOCKED_HOSTS, DomainSet } from './policy/blocked-hosts.ts';
export { DEFAULT_OPEN_PORTS, type Unblocks } from './policy/target-policy.ts';
export * from './routing/username.ts';
export * from './store.ts';
export { connectTarget, relay } from './tunnel/relay.ts';
export { parseUpstreamUrl, type UpstreamProxy } from './tunnel/upstream.ts';
export type { PlanUsage } from './tunnel/usage-meter.ts';
