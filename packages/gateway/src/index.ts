export * from './errors.ts';
export * from './gateway.ts';
export { DEFAULT_OPEN_PORTS } from './policy/target-policy.ts';
export * from './routing/username.ts';
export * from './store.ts';
export type { PlanUsage } from './tunnel/usage-meter.ts';
