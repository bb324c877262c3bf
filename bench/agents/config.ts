import type { PlanAccess } from '@bytegate/gateway';

/** Where the origin listens: a private address the agents are told a lab may reach (--allow-private). */
export const ORIGIN_HOST = '127.0.0.10';
/** The one agent of the throughput and latency rounds connects from here. */
export const BULK_AGENT_ADDRESS = '127.0.0.11';

const plan = (planId: string, login: string, poolType: PlanAccess['poolType']): PlanAccess => ({
  planId,
  login,
  password: 'BenchAgents1',
  poolType,
  threadLimit: 1_000,
  trafficLeftBytes: 1024 ** 4,
  isActive: true,
});

/** The direct exit's plan (datacenter pool) and the agents' (residential pool): the login picks the exit. */
export const BENCH_PLANS = {
  direct: plan('bench-direct', 'bgbenchdirect1', 'datacenter'),
  agent: plan('bench-agent', 'bgbenchagent1', 'residential'),
} as const;

export type Via = keyof typeof BENCH_PLANS;
