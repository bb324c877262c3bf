export * from './errors.ts';
export * from './gateway.ts';
export * from './routing/username.ts';
export * from './store.ts';
