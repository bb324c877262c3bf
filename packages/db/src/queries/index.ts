export * from './contact-messages.ts';
export * from './gateway.ts';
export * from './ledger.ts';
export * from './orders.ts';
export * from './plans.ts';
export * from './sessions.ts';
export * from './usage.ts';
export * from './users.ts';
