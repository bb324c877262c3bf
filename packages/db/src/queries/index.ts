export * from './contact-messages.ts';
export * from './sessions.ts';
export * from './users.ts';
