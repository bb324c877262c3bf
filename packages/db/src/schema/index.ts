export * from './accounts.ts';
export * from './audit.ts';
export * from './billing.ts';
export * from './inventory.ts';
export * from './plans.ts';
export * from './proxy-users.ts';
export * from './support.ts';
export * from './traffic.ts';
