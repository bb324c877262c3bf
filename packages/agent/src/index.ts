export { isPrivateAddress } from './addresses.ts';
export { AGENT_VERSION, type AgentOptions, ExitAgent } from './agent.ts';
export { PartnerLimits, parseHours, settingsProblems, stricterSettings } from './limits.ts';
export * from './protocol.ts';
export { AGENT_BLOCKED_PORTS, TargetGuard } from './target-guard.ts';
