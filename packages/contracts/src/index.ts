export * from './account.ts';
export * from './auth.ts';
export * from './billing.ts';
export * from './constants.ts';
export * from './contact.ts';
export * from './errors.ts';
export * from './messages.ts';
export * from './routes.ts';
